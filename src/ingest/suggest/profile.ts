/**
 * `rfq-sync check --suggest FILE`: a mapping profile drafted from a sample export. It reads a bounded sample
 * (suggest/sample.ts), reads what each column holds, and assigns fields from the header names (header-vocabulary.ts)
 * confirmed by the values: the requisition column is the one whose values come in consecutive runs, the line
 * column a counter that restarts per requisition (or a column unique per row), the quantity a positive number, the
 * price a line total or a unit price told apart by total = qty x price on the rows. Every choice carries its evidence
 * and a confidence; whatever the values cannot settle becomes a review point (a `# REVIEW:` comment in the YAML),
 * never a silent guess. The YAML validates against the profile schema (mapping-profile.ts compileProfile).
 * This file holds the order of the choices; each concern has its suggest-*.ts (source, columns, identity, price,
 * text-fields, date-fields, yaml, evidence).
 */
import { basename, extname } from 'node:path';
import { FileRefusedError } from '../../core/index.ts';
import type { IngestLimits } from '../formats/index.ts';
import { compileProfile, type MappingProfile } from '../mapping-profile.ts';
import { ColumnPool, columnNumberStyle, quoted, readColumnNumbers, readColumns, ref, type Column } from './columns.ts';
import { amountsInUsd, pickDateFields, readColumnDates } from './date-fields.ts';
import { SuggestNotes, type Evidence, type ReviewPoint } from './evidence.ts';
import { pickExternalId, pickRequisition } from './identity.ts';
import { pickAmounts } from './price.ts';
import type { Runs } from './runs.ts';
import { readSample, type FileSample } from './sample.ts';
import { describeSource, sayNumbers } from './source.ts';
import { findSummaryRows } from './summary-rows.ts';
import { pickCurrency } from './currency.ts';
import { draftCategories, type FollowedCategories } from './categories.ts';
import { pickItemFields, pickRfqFields, pickTitleAndDescription } from './text-fields.ts';
import { orderFields, renderYaml } from './yaml.ts';
import { fillRequired } from './required.ts';

export interface Suggestion {
  name: string;
  /** The profile as YAML, review points as `# REVIEW:` comments. */
  yaml: string;
  /** The profile as a plain object (what the YAML holds). */
  raw: Record<string, unknown>;
  profile: MappingProfile;
  evidence: Evidence[];
  reviews: ReviewPoint[];
  sample: FileSample;
}

export interface SuggestOptions {
  limits: IngestLimits;
  name?: string;
  displayName?: string;
  /** Dates before this are not due or required dates (document dates). */
  now?: Date;
  /** The categories the account's suppliers follow (the vendor directory), to check the drafted rfq_category. */
  followed?: FollowedCategories;
}

export async function suggestProfile(path: string, opts: SuggestOptions): Promise<Suggestion> {
  const displayName = opts.displayName ?? basename(path);
  const sample = await readSample(path, opts.limits, displayName);
  return suggestFromSample(sample, { ...opts, displayName });
}

export function suggestFromSample(
  sample: FileSample,
  opts: Omit<SuggestOptions, 'limits'> & { displayName: string },
): Suggestion {
  const now = opts.now ?? new Date();
  const notes = new SuggestNotes();
  const refuse = (reason: string): never => {
    throw new FileRefusedError(opts.displayName, reason);
  };
  if (sample.rows.length === 0)
    refuse(
      `has a header row (row ${sample.headerRow}) but no data rows below it: a profile is drafted from sample lines`,
    );
  const source = describeSource(sample, notes);
  // Totals lines out first: every choice below reasons on requisition lines only.
  const summary = findSummaryRows(sample, notes);
  const data = summary.sample;

  // What each column holds: numbers in the file's style, then dates.
  const columns = readColumns(data);
  const style = columnNumberStyle(data, columns);
  sayNumbers(style, notes);
  readColumnNumbers(columns, style.format);
  const usd = amountsInUsd(columns, style);
  readColumnDates(columns, usd);

  // The fields, each choice taking its columns from the pool in this order.
  const pool = new ColumnPool(columns, data, refuse);
  const { reqCol, reqRuns } = pickRequisition(pool, notes);
  const externalId = pickExternalId(pool, notes, reqCol, reqRuns);
  const amounts = pickAmounts(pool, notes, reqRuns);
  const currency = pickCurrency(pool, notes, style);
  const itemFields = pickItemFields(pool, notes, reqRuns);
  const headerFields = pickTitleAndDescription(pool, notes, reqCol, reqRuns);
  const dates = pickDateFields(pool, notes, reqRuns, now, usd);
  const rfqFields = pickRfqFields(pool, notes);
  const continuation = reqRuns.blanks > 0;
  sayLeftovers(pool, notes, reqCol, reqRuns);

  const fields = {
    requisition: ref(reqCol),
    external_id: externalId,
    ...itemFields,
    qty: ref(amounts.qty),
    estimated_price: amounts.estimated,
    unit_price: amounts.unitPrice,
    price_unit: amounts.perUnit,
    ...headerFields,
    due_date: dates.due && ref(dates.due),
    required_date: dates.required && ref(dates.required),
    ...rfqFields,
  };
  const name = profileName(opts.name ?? opts.displayName);
  const raw: Record<string, unknown> = {
    name,
    description: `Drafted by rfq-sync check --suggest from ${opts.displayName}`,
  };
  if (Object.keys(source).length > 0) raw.source = source; // an SAP list has neither delimiter nor sheet
  raw.numbers = { decimal: style.format.decimal, thousands: style.format.thousands };
  raw.dates = { formats: dates.formats, time_zone: 'UTC', default_time: '12:00' };
  if (continuation) raw.continuation = true;
  if (currency) raw.currency = currency;
  if (dates.dueRule) raw.due_date_rule = dates.dueRule;
  fillRequired(fields, raw, notes);
  if (summary.rules.length > 0) raw.skip_rows = summary.rules;
  const category = (fields as Record<string, string | undefined>).rfq_category;
  const categoryMap = draftCategories(valuesOf(category, columns), opts.followed, notes);
  if (categoryMap) raw.category_map = categoryMap;
  raw.fields = orderFields(fields);
  const yaml = renderYaml(raw, notes.reviews, opts.displayName, sample, notes.comments);
  const profile = compileProfile(raw, `${name}.yaml (suggested)`);
  return { name, yaml, raw, profile, evidence: notes.evidence, reviews: notes.reviews, sample };
}

/** The values a template gives on the sample: a column's distinct texts, a constant itself, nothing for a mix. */
function valuesOf(template: string | undefined, columns: readonly Column[]): string[] {
  if (template === undefined) return [];
  if (!template.includes('{')) return [template];
  const col = columns.find((c) => ref(c) === template);
  return col ? [...new Set(col.texts.filter(Boolean))] : [];
}

/** The evidence of what no field took: continuation rows (blank requisition cells) and the unused columns. */
function sayLeftovers(pool: ColumnPool, notes: SuggestNotes, reqCol: Column, reqRuns: Runs): void {
  if (reqRuns.blanks > 0)
    notes.say(
      'continuation',
      'true',
      'high',
      `${quoted(reqCol)} is blank on ${reqRuns.blanks} row(s) below a filled one: those rows continue the requisition above, its header columns copied down`,
    );
  const unusedCols = pool.columns.filter((c) => pool.free(c) && c.nonEmpty > 0);
  if (unusedCols.length > 0)
    notes.say('(not used)', unusedCols.map(quoted).join(', '), 'medium', 'no field takes them');
}

export function profileName(from: string): string {
  const base = basename(from, extname(from))
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .toLowerCase();
  return base || 'suggested';
}
