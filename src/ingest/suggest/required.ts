/**
 * What the sourcing service requires and the sample has no column for (src/ingest/required-fields.ts): the draft
 * fills it with a placeholder the user must confirm (a review point each), so the drafted profile is complete and a
 * `check` with it holds nothing for want of a field. Runs after every other choice: a field a column gave is kept.
 */
import type { SuggestNotes } from './evidence.ts';

/** Days from the due date to the required date when the export has no required date. */
export const DEFAULT_REQUIRED_AFTER_DUE_DAYS = 14;

export function fillRequired(
  fields: Record<string, string | undefined>,
  raw: Record<string, unknown>,
  notes: SuggestNotes,
): void {
  const placeholder = (field: string, value: string, why: string): void => {
    if (fields[field] !== undefined) return;
    fields[field] = value;
    notes.say(`fields.${field}`, value, 'low', `no column holds it; the sourcing service requires it`);
    notes.review(`fields.${field}`, why);
  };
  placeholder(
    'uom',
    'pc',
    'the file has no unit column: every line is sent with the unit "pc"; name the unit column, or write the unit the lines are counted in',
  );
  placeholder(
    'rfq_category',
    'General',
    'the file has no category column: every RFQ goes to category "General", and suppliers see only the RFQs of categories they follow (`rfq-sync doctor` lists the account\'s): write one of them, or name a column (with category_map for ERP codes)',
  );
  placeholder(
    'rfq_location',
    'Main site',
    'the file has no site or plant column: every RFQ is sent with the location "Main site"; write yours, or name the column',
  );
  if (fields.required_date === undefined) {
    raw.required_date_rule = { days_after_due: DEFAULT_REQUIRED_AFTER_DUE_DAYS };
    notes.say(
      'required_date_rule',
      `${DEFAULT_REQUIRED_AFTER_DUE_DAYS} days`,
      'low',
      'no required (need-by) date column',
    );
    notes.review(
      'required_date_rule',
      `the file has no required (need-by) date column: the required date is ${DEFAULT_REQUIRED_AFTER_DUE_DAYS} days after the due date; change the days, or name the column`,
    );
  }
}
