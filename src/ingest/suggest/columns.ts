/**
 * The columns of the sample as `check --suggest` reasons on them: what each holds (texts, numbers in the file's style),
 * how a template and the evidence name it, and the pool of columns that no field has taken yet.
 */
import { Decimal } from 'decimal.js';
import { nameScore, type Concept } from './header-vocabulary.ts';
import { cellText, type Cell } from '../mapping-engine.ts';
import { normalizeHeader } from '../mapping-profile.ts';
import { parseNumber, type NumberFormat } from '../number-format.ts';
import type { ColumnDates } from './dates.ts';
import { inferNumberStyle, numberCore, type NumberStyle } from './numbers.ts';
import type { FileSample } from './sample.ts';

/** What one column of the sample holds. */
export interface Column {
  i: number;
  header: string;
  cells: Cell[];
  texts: string[];
  nonEmpty: number;
  distinct: number;
  /** Set when every non-empty value is a number (in the file's number style). */
  numbers?: (Decimal | undefined)[];
  dates?: ColumnDates;
  avgLen: number;
}

/** The sample's columns that a template can name (numbers and dates are read later). */
export function readColumns(sample: FileSample): Column[] {
  const columns: Column[] = [];
  const seenKeys = new Set<string>();
  sample.headers.forEach((h, i) => {
    const key = normalizeHeader(h);
    if (key === '' || seenKeys.has(key) || /[{}]/.test(h)) return; // unnamed, repeated, or braced: no template can name it
    seenKeys.add(key);
    const cells = sample.rows.map((r) => r.cells[i] ?? null);
    const texts = cells.map(cellText);
    const ne = texts.filter((t) => t !== '');
    columns.push({
      i,
      header: h,
      cells,
      texts,
      nonEmpty: ne.length,
      distinct: new Set(ne).size,
      avgLen: ne.reduce((a, t) => a + t.length, 0) / Math.max(1, ne.length),
    });
  });
  return columns;
}

/** The file's number style, from the text columns whose every value is number-like. */
export function columnNumberStyle(sample: FileSample, columns: readonly Column[]): NumberStyle {
  const numberTexts: string[] = [];
  let typed = 0;
  for (const c of columns) {
    const strs = c.cells.filter((x): x is string => typeof x === 'string' && x.trim() !== '');
    if (strs.length > 0 && strs.every((s) => numberCore(s) !== undefined)) numberTexts.push(...strs);
    typed += c.cells.filter((x) => typeof x === 'number').length;
  }
  const hint: '.' | ',' = sample.delimiter === ';' || sample.headers.some((h) => /[äöüß]/i.test(h)) ? ',' : '.';
  const style = inferNumberStyle(numberTexts, hint);
  // a workbook's number cells carry no separators: nothing to settle when no number written as text has one
  const undecided = style.votes['.'] === 0 && style.votes[','] === 0 && style.ambiguous === 0;
  return undecided && typed > 0 ? { ...style, typed, confidence: 'high', review: undefined } : style;
}

/** Sets `numbers` on each column whose every non-empty value reads as a number in `fmt`. */
export function readColumnNumbers(columns: readonly Column[], fmt: NumberFormat): void {
  for (const c of columns) {
    if (c.nonEmpty === 0) continue;
    // Stops at the first value that is not a number: text columns cost one parse, not one per row.
    const nums: (Decimal | undefined)[] = [];
    for (const x of c.cells) {
      if (x === null || (typeof x === 'string' && x.trim() === '')) nums.push(undefined);
      else if (typeof x === 'number') nums.push(new Decimal(x));
      else if (typeof x !== 'string') break;
      else if (numberCore(x) === undefined)
        break; // e.g. MAT-4711: a code, though ingestion would read it
      else {
        const r = parseNumber(x, fmt);
        if (!r.ok) break;
        nums.push(r.value);
      }
    }
    if (nums.length === c.cells.length) c.numbers = nums;
  }
}

/** Template column reference: braces in a header are written doubled. */
function templateName(header: string): string {
  return header.replace(/[{}]/g, (b) => b + b);
}

/** The column as a template names it: `{Header}`. */
export function ref(c: Column): string {
  return `{${templateName(c.header)}}`;
}

/** The column as the evidence and review points name it: `"Header"`. */
export function quoted(c: Column): string {
  return `"${c.header}"`;
}

/** How well the header names the concept (header-vocabulary.ts). */
export function scoreOf(c: Column, concept: Concept): number {
  return nameScore(c.header, concept);
}

/** Text, neither numbers nor dates, on some row. */
export function textual(c: Column): boolean {
  return !c.numbers && !c.dates && c.nonEmpty > 0;
}

/** The columns of the sample with those already taken by a field: each column feeds at most one choice. */
export class ColumnPool {
  private readonly used = new Set<Column>();
  readonly columns: readonly Column[];
  /** Data rows in the sample. */
  readonly n: number;
  private readonly headers: readonly string[];
  private readonly refuse: (reason: string) => never;

  constructor(columns: readonly Column[], sample: FileSample, refuse: (reason: string) => never) {
    this.columns = columns;
    this.n = sample.rows.length;
    this.headers = sample.headers;
    this.refuse = refuse;
  }

  readonly free = (c: Column): boolean => !this.used.has(c);

  use(c: Column): void {
    this.used.add(c);
  }

  /** Free columns that pass `ok` and are named like the concept, best named first (then leftmost). */
  best(concept: Concept, ok: (c: Column) => boolean, min = 2): Column[] {
    return this.columns
      .filter((c) => this.free(c) && ok(c) && nameScore(c.header, concept) >= min)
      .sort((a, b) => nameScore(b.header, concept) - nameScore(a.header, concept) || a.i - b.i);
  }

  /** A column for a field the schema requires, or a clear refusal naming the field (and what it must be). */
  need(c: Column | undefined, field: string, what = 'column'): Column {
    return (
      c ??
      this.refuse(
        `has no ${what} left that could be the ${field} (columns: ${this.headers
          .filter(Boolean)
          .map((h) => `"${h}"`)
          .join(', ')})`,
      )
    );
  }
}
