/**
 * Which sheet (or HTML table) a read takes, written once for every format that has several: the one named (any
 * case), or, with no name, the first in order that holds any value, visible sheets before hidden ones.
 */
import { SheetNotFoundError } from '../../core/index.ts';

export interface SheetInfo {
  name: string;
  /** `visible`, `hidden` or `veryHidden`. */
  state: string;
}

/** Names are compared in any case. */
export function sameName(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

/** The order sheets are tried in: visible ones first, each group in tab order. */
export function triedOrder<S extends SheetInfo>(sheets: readonly S[]): S[] {
  return [...sheets.filter((s) => s.state === 'visible'), ...sheets.filter((s) => s.state !== 'visible')];
}

/**
 * The sheets of `sheets` that `wanted` names (refused with the sheets there are when none), or all of them in
 * tried order, the first holding any value taken (firstWithRows).
 */
export function sheetsToTry<S extends SheetInfo>(sheets: readonly S[], wanted: string | undefined): S[] {
  if (wanted === undefined) return triedOrder(sheets);
  const named = sheets.find((s) => sameName(s.name, wanted));
  if (!named)
    throw new SheetNotFoundError(
      wanted,
      sheets.map((s) => s.name),
    );
  return [named];
}

/** The rows of the first sheet that yields any (a reader yields rows from a sheet's first non-empty one). */
export async function* firstWithRows<S, Batch>(
  sheets: readonly S[],
  read: (sheet: S) => AsyncIterable<Batch> | Iterable<Batch>,
): AsyncGenerator<Batch> {
  for (const sheet of sheets) {
    let any = false;
    for await (const batch of read(sheet)) {
      any = true;
      yield batch;
    }
    if (any) return;
  }
}
