/**
 * Summary rows and trailers in the sample of `check --suggest`: a "Total" or "Summe" line, a line of nothing but
 * numbers, a last line whose amounts are the sums of the lines above; and the lines that break the data's pattern, a
 * cell or two of text where the lines fill many: a trailer under the last line ("End of report", "Rows: 7") or a
 * footer repeated between the lines ("Page 1 of 3"). They are found before any column is read, because left in they
 * break everything after: a blank requisition cell looks like a continuation row, a label breaks a line counter (the
 * quantity is then taken for it), a total breaks the qty x price check, a trailer's text in a column of numbers makes
 * it a text column. They are taken out of the sample and written as the profile's skip_rows (mapping-profile.ts), a
 * label with digits as a pattern (`Rows: \d+`, so the next export's count is left out too), so ingestion leaves
 * them out too; the draft says so.
 */
import { Decimal } from 'decimal.js';
import { cellText, type Cell } from '../mapping-engine.ts';
import { parseNumber, type NumberFormat } from '../number-format.ts';
import type { SuggestNotes } from './evidence.ts';
import { DATE_LIKE, inferNumberStyle, numberCore } from './numbers.ts';
import type { FileSample } from './sample.ts';

export type SkipRuleRaw =
  { column: string; equals: string[] } | { column: string; matches: string } | { column: string; blank: true };

/**
 * Labels of a totals line, compared in lower case without a trailing colon or currency: English, German, French,
 * Dutch, Italian, Spanish, Portuguese, the Nordic languages, Polish, Czech.
 */
const SUMMARY_WORDS = new Set([
  'total',
  'totals',
  'grand total',
  'subtotal',
  'sub-total',
  'sub total',
  'sum',
  'summe',
  'gesamt',
  'gesamtsumme',
  'summe gesamt',
  'gesamtbetrag',
  'zwischensumme',
  'endsumme',
  'total général',
  'total general',
  'sous-total',
  'somme',
  'totaal',
  'totaal generaal',
  'subtotaal',
  'totale',
  'totale generale',
  'subtotale',
  'suma',
  'suma total',
  'total geral',
  'totalt',
  'summa',
  'i alt',
  'yhteensä',
  'razem',
  'celkem',
]);

/** A cell's text as a summary label, when it is one. */
function isSummaryLabel(text: string): boolean {
  if (text.length > 32 || /^[\s\d]/.test(text)) return false; // labels are short words
  const t = text
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .replace(/[\s:.]+$/, '')
    .replace(/\s+(?:[a-z]{3}|[€$£¥])$/, '')
    .trim();
  return SUMMARY_WORDS.has(t);
}

/** Text a person reads (a word, a code), not a number or a date. */
function isText(c: Cell): boolean {
  if (c === null || c === undefined || typeof c === 'number' || typeof c === 'boolean' || c instanceof Date)
    return false;
  const t = c.trim();
  return t !== '' && numberCore(t) === undefined && !DATE_LIKE.test(t);
}

function isNumberLike(c: Cell): boolean {
  return typeof c === 'number' || (typeof c === 'string' && numberCore(c) !== undefined);
}

interface Found {
  /** Index into sample.rows. */
  at: number;
  why: string;
  /** The column holding the label, for label rows. */
  labelAt?: number;
  trailer?: true;
}

export interface SummaryRows {
  /** The sample without its summary rows. */
  sample: FileSample;
  rules: SkipRuleRaw[];
}

export function findSummaryRows(sample: FileSample, notes: SuggestNotes): SummaryRows {
  const first = labelAndNumberRows(sample);
  const trailers = trailerRows(sample, new Set(first.map((f) => f.at)));
  const found = [...first, ...trailers, ...trailingSumRows(sample, new Set([...first, ...trailers].map((f) => f.at)))];
  if (found.length === 0) return { sample, rules: [] };
  found.sort((a, b) => a.at - b.at);
  const skipped = new Set(found.map((f) => f.at));
  const rest = sample.rows.filter((_, i) => !skipped.has(i));
  const rules = rulesFor(sample, found, rest);
  const rowList = found.map((f) => sample.rows[f.at]!.row).join(', ');
  if (rules.length > 0) {
    notes.say(
      'skip_rows',
      rules.map(describeRule).join('; '),
      'high',
      `row(s) ${rowList}: ${[...new Set(found.map((f) => f.why))].join('; ')}`,
    );
    notes.explain(
      'skip_rows',
      `row(s) ${rowList} of the sample are ${kindOf(found)} (${[...new Set(found.map((f) => f.why))].join('; ')}), not requisition lines: these rules leave them out`,
    );
  } else {
    notes.review(
      'skip_rows',
      `row(s) ${rowList} look like ${kindOf(found)} (${found[0]!.why}) but no rule tells them from the lines (no column is blank only there): they will be rejected; remove them from the export or write a skip_rows rule`,
    );
  }
  return { sample: { ...sample, rows: rest }, rules };
}

function kindOf(found: readonly Found[]): string {
  const trailers = found.filter((f) => f.trailer).length;
  return trailers === 0 ? 'summary rows' : trailers === found.length ? 'trailers' : 'summary rows and trailers';
}

/** Rows labelled as totals, and rows of numbers only (no product, no key: no line of any requisition). */
function labelAndNumberRows(sample: FileSample): Found[] {
  const out: Found[] = [];
  sample.rows.forEach((r, at) => {
    const labelAt = r.cells.findIndex((c) => typeof c === 'string' && isSummaryLabel(c));
    if (labelAt >= 0) {
      out.push({ at, labelAt, why: `"${cellText(r.cells[labelAt])}" labels a totals line` });
      return;
    }
    if (!r.cells.some(isText) && r.cells.some(isNumberLike)) out.push({ at, why: 'numbers only, no text' });
  });
  return out;
}

/**
 * Rows that break the data's pattern: one or two cells, all text, where the lines fill at least three times as many;
 * under the last line (a trailer), or with the same words (digits aside) on two rows or more (a page footer). A row
 * of one cell of a continuation export holds a line's values (numbers), never text alone.
 */
function trailerRows(sample: FileSample, already: Set<number>): Found[] {
  const filled = sample.rows.map((r) => r.cells.filter((c) => cellText(c) !== '').length);
  const sorted = filled.filter((_, i) => !already.has(i)).sort((a, b) => a - b);
  const typical = sorted[Math.floor(sorted.length / 2)] ?? 0;
  const sparse = (i: number) =>
    !already.has(i) && filled[i]! <= 2 && filled[i]! * 3 <= typical && sample.rows[i]!.cells.every(textOrBlank);
  const candidates = sample.rows.flatMap((_, i) => (sparse(i) ? [i] : []));
  let last = sample.rows.length - 1;
  while (last >= 0 && (already.has(last) || sparse(last))) last--;
  const label = (i: number) => {
    const cells = sample.rows[i]!.cells;
    const at = cells.findIndex((c) => cellText(c) !== '');
    return { at, text: cellText(cells[at]) };
  };
  const wording = (i: number) => labelPattern(label(i).text);
  const times = new Map<string, number>();
  for (const i of candidates) times.set(wording(i), (times.get(wording(i)) ?? 0) + 1);
  return candidates.flatMap((i) => {
    const { at, text } = label(i);
    if (i > last) return [{ at: i, labelAt: at, trailer: true as const, why: `"${text}" under the last line` }];
    if (times.get(wording(i))! < 2) return [];
    return [
      {
        at: i,
        labelAt: at,
        trailer: true as const,
        why: `"${text}" repeated between the lines (a page footer, a group line)`,
      },
    ];
  });
}

function textOrBlank(c: Cell): boolean {
  return cellText(c) === '' || isText(c);
}

/** A label as a skip_rows pattern: its text, digits standing for any number ("Rows: 7" -> `Rows: \d+`). */
function labelPattern(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\d+/g, '\\d+');
}

/**
 * The last rows, when each has at most one text cell (a label this vocabulary does not know), a column blank that
 * every other row fills, and an amount whose value is the sum of its column over the rows above (a totals line).
 */
function trailingSumRows(sample: FileSample, already: Set<number>): Found[] {
  const rows = sample.rows;
  let fmt: NumberFormat | undefined; // read only for a row that passes the cheap tests (most samples have none)
  const out: Found[] = [];
  for (let at = rows.length - 1; at >= 2; at--) {
    if (already.has(at)) continue;
    const r = rows[at]!;
    const texts = r.cells.flatMap((c, i) => (isText(c) ? [i] : []));
    if (texts.length > 1) break; // a line of the export: it names things
    const above = rows.slice(0, at).filter((_, i) => !already.has(i));
    const blankOnlyHere = r.cells.some((c, i) => cellText(c) === '' && above.every((a) => cellText(a.cells[i]) !== ''));
    fmt ??= styleOf(sample);
    const sums = blankOnlyHere && r.cells.some((c, i) => isNumberLike(c) && sumsAbove(c, i, above, fmt!));
    if (!sums) break; // only the trailing rows: a sum-like line in the middle is a line
    const label = texts.length === 1 ? `"${cellText(r.cells[texts[0]!])}" with ` : '';
    out.push({ at, ...(label ? { labelAt: texts[0]! } : {}), why: `${label}the sums of the lines above` });
  }
  return out;
}

function sumsAbove(c: Cell, i: number, above: FileSample['rows'], fmt: NumberFormat): boolean {
  const value = parse(c, fmt);
  if (!value || value.isZero()) return false;
  let sum = new Decimal(0);
  let n = 0;
  for (const a of above) {
    const v = a.cells[i];
    if (cellText(v) === '') continue;
    const x = parse(v, fmt);
    if (!x) return false;
    sum = sum.plus(x);
    n++;
  }
  return n >= 2 && sum.equals(value);
}

function parse(c: Cell | undefined, fmt: NumberFormat): Decimal | undefined {
  if (typeof c === 'number') return new Decimal(c);
  if (typeof c !== 'string') return undefined;
  const r = parseNumber(c, fmt);
  return r.ok ? r.value : undefined;
}

function styleOf(sample: FileSample): NumberFormat {
  const texts = sample.rows.flatMap((r) => r.cells.filter((c): c is string => typeof c === 'string'));
  return inferNumberStyle(texts, sample.delimiter === ';' ? ',' : '.').format;
}

/**
 * The rules that leave the found rows out and keep every other row: the label's column equals the labels; else a
 * column blank on all of them and filled on every other row.
 */
function rulesFor(sample: FileSample, found: Found[], rest: FileSample['rows']): SkipRuleRaw[] {
  const header = (i: number) => sample.headers[i] ?? '';
  const rules: SkipRuleRaw[] = [];
  const labelled = found.filter((f) => f.labelAt !== undefined && header(f.labelAt!) !== '');
  for (const i of new Set(labelled.map((f) => f.labelAt!))) {
    const labels = [
      ...new Set(labelled.filter((f) => f.labelAt === i).map((f) => cellText(sample.rows[f.at]!.cells[i]))),
    ];
    const rule = labelRule(header(i), labels);
    const hits = 'equals' in rule ? equalsAny(rule.equals) : matchesPattern(rule.matches);
    if (rest.some((r) => hits(cellText(r.cells[i])))) continue;
    rules.push(rule);
  }
  const covered = (f: Found) =>
    rules.some((r) => !('blank' in r) && f.labelAt !== undefined && header(f.labelAt) === r.column);
  const others = found.filter((f) => !covered(f));
  if (others.length === 0) return rules;
  const blankCol = sample.headers.findIndex(
    (h, i) =>
      h !== '' &&
      others.every((f) => cellText(sample.rows[f.at]!.cells[i]) === '') &&
      rest.every((r) => cellText(r.cells[i]) !== ''),
  );
  return blankCol >= 0 ? [...rules, { column: header(blankCol), blank: true }] : rules;
}

/** The labels as one rule: `equals` them, or `matches` their patterns when a label holds digits (a count, a page). */
function labelRule(column: string, labels: string[]): Exclude<SkipRuleRaw, { blank: true }> {
  if (!labels.some((l) => /\d/.test(l))) return { column, equals: labels };
  return { column, matches: [...new Set(labels.map(labelPattern))].join('|') };
}

function equalsAny(labels: readonly string[]): (text: string) => boolean {
  const lower = labels.map((l) => l.toLowerCase());
  return (t) => lower.includes(t.toLowerCase());
}

/** As ingestion reads a `matches` rule (mapping-profile.ts): the whole text, any case. */
function matchesPattern(pattern: string): (text: string) => boolean {
  const re = new RegExp(`^(?:${pattern})$`, 'iu');
  return (t) => re.test(t);
}

function describeRule(r: SkipRuleRaw): string {
  if ('blank' in r) return `"${r.column}" blank`;
  if ('matches' in r) return `"${r.column}" matches ${r.matches}`;
  return `"${r.column}" is ${r.equals.map((e) => `"${e}"`).join(' or ')}`;
}
