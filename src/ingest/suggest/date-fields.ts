/**
 * The dates of `check --suggest`: which columns hold dates (day/month order hinted by USD amounts), which is the due
 * date and which the required date (by name, else by order: the due date comes first), and the formats to list.
 * Without a due date column a default rule is written; the time zone is never in the file: both are review points.
 */
import type { NumberStyle } from './numbers.ts';
import { quoted as q, ref, scoreOf, type Column, type ColumnPool } from './columns.ts';
import { inferColumnDates } from './dates.ts';
import type { SuggestNotes } from './evidence.ts';
import { isHeaderLevel, type Runs } from './runs.ts';

const DEFAULT_DUE_DAYS = 14;

export interface DateFields {
  due?: Column;
  required?: Column;
  dueRule?: { days_after_ingest: number; at: string };
  /** dates.formats of the profile. */
  formats: string[];
}

/** Amounts in USD (a currency column or mark): M/d is the likelier order when the values cannot tell. */
export function amountsInUsd(columns: readonly Column[], style: NumberStyle): boolean {
  return (
    columns.some((c) => scoreOf(c, 'currency') >= 2 && c.texts.some((t) => /^USD$/i.test(t))) ||
    style.currencyMarks.some((m) => /^(USD|US\$|\$)$/.test(m))
  );
}

/** Sets `dates` on each column (neither numbers nor typed cells) whose every value is a date. */
export function readColumnDates(columns: readonly Column[], usd: boolean): void {
  const orderHint: 'dm' | 'md' = usd ? 'md' : 'dm';
  for (const c of columns) {
    if (c.numbers || c.nonEmpty === 0) continue;
    if (c.cells.some((x) => typeof x === 'number' || typeof x === 'boolean')) continue;
    const vals = c.cells.map((x) =>
      x instanceof Date ? x : typeof x === 'string' && x.trim() !== '' ? x.trim() : undefined,
    );
    const d = inferColumnDates(vals, orderHint);
    if (d) c.dates = d;
  }
}

/** Due and required date columns, and the formats their values need. */
export function pickDateFields(
  pool: ColumnPool,
  notes: SuggestNotes,
  reqRuns: Runs,
  now: Date,
  usd: boolean,
): DateFields {
  const { due, required } = pickDueAndRequired(pool, notes, reqRuns, now);
  const formats = dateFormats(notes, [due, required], usd);
  return { due, required, dueRule: due ? undefined : { days_after_ingest: DEFAULT_DUE_DAYS, at: '17:00' }, formats };
}

/** Due and required dates by name, else by order. */
function pickDueAndRequired(
  pool: ColumnPool,
  notes: SuggestNotes,
  reqRuns: Runs,
  now: Date,
): { due?: Column; required?: Column } {
  const n = pool.n;
  const future = (c: Column): boolean => c.dates!.ms.some((m) => m !== undefined && m > now.getTime());
  const dateCols = pool.columns.filter((c) => pool.free(c) && c.dates);
  const dues = dateCols
    .filter((c) => scoreOf(c, 'dueDate') >= 2 && scoreOf(c, 'dueDate') >= scoreOf(c, 'requiredDate'))
    .sort((a, b) => scoreOf(b, 'dueDate') - scoreOf(a, 'dueDate'));
  const reqs = dateCols.filter((c) => !dues.includes(c) && scoreOf(c, 'requiredDate') >= 2);
  let due = dues[0];
  let required = reqs[0];
  const unnamed = dateCols.filter((c) => !dues.includes(c) && !reqs.includes(c) && future(c));
  if (!due && !required && unnamed.length >= 2) {
    const [a, b] = unnamed as [Column, Column];
    const aFirst = a.dates!.ms.every((m, i) => m === undefined || b.dates!.ms[i] === undefined || m < b.dates!.ms[i]!);
    due = aFirst ? a : b;
    required = aFirst ? b : a;
    notes.say('fields.due_date', ref(due), 'low', `by order: ${q(due)} is before ${q(required)} on every row`);
    notes.review(
      'fields.due_date',
      `neither date column is named like a due date or a required date: ${q(due)} (the earlier) taken as the due date, ${q(required)} as the required date`,
    );
  } else if (
    !due &&
    required &&
    unnamed.length === 1 &&
    unnamed[0]!.dates!.ms.every(
      (m, i) => m === undefined || required!.dates!.ms[i] === undefined || m < required!.dates!.ms[i]!,
    )
  ) {
    due = unnamed[0];
    notes.say(
      'fields.due_date',
      ref(due!),
      'low',
      `by order: ${q(due!)} is before the required date ${q(required)} on every row`,
    );
    notes.review(
      'fields.due_date',
      `${q(due!)} is not named like a due date; taken as one because it comes before ${q(required)} on every row`,
    );
  } else if (due) {
    notes.say('fields.due_date', ref(due), 'high', `named like a due date; dates on ${due.nonEmpty} of ${n} rows`);
  }
  if (due) {
    pool.use(due);
    if (!isHeaderLevel(due, reqRuns))
      notes.say(
        'fields.due_date',
        ref(due),
        'medium',
        "differs between lines of one requisition: the first line's is taken",
      );
  } else {
    notes.say('due_date_rule', `${DEFAULT_DUE_DAYS} days`, 'low', 'no due date column');
    notes.review(
      'due_date_rule',
      `the file has no due date (bidding deadline) column: suppliers get ${DEFAULT_DUE_DAYS} days, closing at 17:00; set what procurement wants`,
    );
  }
  if (required) {
    pool.use(required);
    const firstLine = isHeaderLevel(required, reqRuns)
      ? ''
      : "; differs between lines of one requisition: the first line's is taken";
    if (unnamed.includes(required))
      notes.say('fields.required_date', ref(required), 'low', `by order: after ${q(due!)} on every row${firstLine}`);
    else notes.say('fields.required_date', ref(required), 'high', `named like a delivery/need-by date${firstLine}`);
  }
  for (const c of dateCols.filter(pool.free))
    notes.say(
      '(not used)',
      q(c),
      'medium',
      'a date column that is neither due nor required date (e.g. a document date)',
    );
  return { due, required };
}

/** The formats of the date columns used (each listed once), with a review point where the order is unsettled. */
function dateFormats(notes: SuggestNotes, columns: readonly (Column | undefined)[], usd: boolean): string[] {
  const dated = columns.filter((c): c is Column => c !== undefined);
  const formats: string[] = [];
  for (const c of dated) for (const f of c.dates!.formats) if (!formats.includes(f)) formats.push(f);
  const hasDm = formats.some((f) => /^d{1,2}[/-]M/.test(f));
  const hasMd = formats.some((f) => /^M{1,2}[/-]d/.test(f));
  if (hasDm && hasMd)
    notes.review(
      'dates.formats',
      'the date columns disagree on day/month order: only one order can be listed first; check the formats',
    );
  for (const c of dated) {
    const d = c.dates!;
    if (d.orderUndecided) {
      const taken = d.orderUndecided.taken === 'md' ? 'month/day (M/d)' : 'day/month (d/M)';
      notes.review(
        'dates.formats',
        `${q(c)}: d/M versus M/d cannot be told apart from the values (no day above 12, e.g. "${d.orderUndecided.example}"); ${taken} taken${usd ? ' because amounts are in USD' : ''}`,
      );
      notes.say(
        'dates.formats',
        d.formats.join(', '),
        'low',
        `${q(c)}: ${d.texts} text date(s), day/month order undecided`,
      );
    } else {
      notes.say(
        'dates.formats',
        d.formats.join(', '),
        'high',
        `${q(c)}: ${d.texts} text date(s)${d.cells ? ` and ${d.cells} Excel date cell(s)` : ''} all read${d.orderEvidence ? `; "${d.orderEvidence}" settles the day/month order` : ''}`,
      );
    }
  }
  if (formats.length === 0) formats.push('iso', 'excel_serial');
  notes.review(
    'dates.time_zone',
    "the time zone of the export's dates cannot be read from the file: UTC written; set the zone the ERP writes in (e.g. Europe/Berlin)",
  );
  return formats;
}
