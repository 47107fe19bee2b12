/**
 * Summary rows in the sample of `check --suggest`: a "Total" or "Summe" line, a line of nothing but numbers, a last
 * line whose amounts are the sums of the lines above. They are found before any column is read, because left in
 * they break everything after: a blank requisition cell looks like a continuation row, a label breaks a line counter
 * (the quantity is then taken for it), a total breaks the qty x price check. They are taken out of the sample and
 * written as the profile's skip_rows (mapping-profile.ts), so ingestion leaves them out too; the draft says so.
 */
import { Decimal } from 'decimal.js';
import { cellText, type Cell } from '../mapping-engine.ts';
import { parseNumber, type NumberFormat } from '../number-format.ts';
import type { SuggestNotes } from './evidence.ts';
import { inferNumberStyle, numberCore } from './numbers.ts';
import type { FileSample } from './sample.ts';

export type SkipRuleRaw = { column: string; equals: string[] } | { column: string; blank: true };

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

const DATE_LIKE = /^\d{1,4}[./-]\d{1,2}[./-]\d{1,4}/;

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
}

export interface SummaryRows {
  /** The sample without its summary rows. */
  sample: FileSample;
  rules: SkipRuleRaw[];
}

export function findSummaryRows(sample: FileSample, notes: SuggestNotes): SummaryRows {
  const first = labelAndNumberRows(sample);
  const found = [...first, ...trailingSumRows(sample, new Set(first.map((f) => f.at)))];
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
      `row(s) ${rowList} of the sample are summary rows (${[...new Set(found.map((f) => f.why))].join('; ')}), not requisition lines: these rules leave them out`,
    );
  } else {
    notes.review(
      'skip_rows',
      `row(s) ${rowList} look like summary rows (${found[0]!.why}) but no rule tells them from the lines (no column is blank only there): they will be rejected; remove them from the export or write a skip_rows rule`,
    );
  }
  return { sample: { ...sample, rows: rest }, rules };
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
    const lower = labels.map((l) => l.toLowerCase());
    if (rest.some((r) => lower.includes(cellText(r.cells[i]).toLowerCase()))) continue;
    rules.push({ column: header(i), equals: labels });
  }
  const covered = (f: Found) =>
    rules.some((r) => 'equals' in r && f.labelAt !== undefined && header(f.labelAt) === r.column);
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

function describeRule(r: SkipRuleRaw): string {
  return 'blank' in r ? `"${r.column}" blank` : `"${r.column}" is ${r.equals.map((e) => `"${e}"`).join(' or ')}`;
}
