/**
 * The shape of the rows that `check --suggest` reads from the values: runs of equal values (a requisition's lines
 * come together), counters that restart per run (line numbers), and columns the same on every line of a run.
 */
import type { Decimal } from 'decimal.js';
import type { Column } from './columns.ts';

export interface Runs {
  contiguous: boolean;
  runs: number;
  blanks: number;
  /** Run index of each row (blank rows belong to the run above). */
  runOf: number[];
}

/** The consecutive runs of equal values in a column (blank below a value = the same run). */
export function valueRuns(texts: readonly string[]): Runs {
  const seen = new Set<string>();
  let current: string | undefined;
  let count = 0;
  let blanks = 0;
  let contiguous = true;
  const runOf: number[] = [];
  for (const t of texts) {
    if (t === '') {
      if (current !== undefined) blanks++;
      runOf.push(Math.max(0, count - 1));
      continue;
    }
    if (t !== current) {
      if (seen.has(t)) contiguous = false;
      seen.add(t);
      current = t;
      count++;
    }
    runOf.push(count - 1);
  }
  return { contiguous, runs: count, blanks, runOf };
}

/** Whole numbers rising within each run, unique per run. */
export function isCounter(nums: readonly Decimal[], runOf: readonly number[]): boolean {
  if (nums.length === 0 || !nums.every((x) => x !== undefined && x.isInteger() && x.gt(0))) return false;
  for (let i = 1; i < nums.length; i++) if (runOf[i] === runOf[i - 1] && !nums[i]!.gt(nums[i - 1]!)) return false;
  return true;
}

/** The counter starts each requisition low (1, 10, 100): a line number, not a coincidentally rising value. */
export function startsLow(nums: readonly Decimal[], runOf: readonly number[]): boolean {
  let multi = false;
  for (let i = 0; i < nums.length; i++) {
    if (i > 0 && runOf[i] === runOf[i - 1]) multi = true;
    if ((i === 0 || runOf[i] !== runOf[i - 1]) && ![1, 10, 100].includes(nums[i]!.toNumber())) return false;
  }
  return multi;
}

const headerLevel = new WeakMap<Column, boolean>();

/** The same value on every line of each requisition (blanks allowed): a header field. */
export function isHeaderLevel(c: Column, r: Runs): boolean {
  let known = headerLevel.get(c);
  if (known === undefined) headerLevel.set(c, (known = computeHeaderLevel(c, r)));
  return known;
}

function computeHeaderLevel(c: Column, r: Runs): boolean {
  const first = new Map<number, string>();
  for (let i = 0; i < c.texts.length; i++) {
    const t = c.texts[i]!;
    if (t === '') continue;
    const run = r.runOf[i]!;
    const f = first.get(run);
    if (f === undefined) first.set(run, t);
    else if (f !== t) return false;
  }
  return true;
}
