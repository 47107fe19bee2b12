/**
 * What the pages of one list read so far prove about an RFQ not found in them, for a list in `_id` order: pages read
 * from one end without a gap hold every RFQ of the account on that side of the last `_id` read, so an RFQ beyond it
 * is not in the list, and the rest need not be read. Pure (tested on its own).
 *
 * The order is never assumed: the caller brings the evidence (the lists it read in full were in that order), and
 * every page read here is checked against it (in order within the page, beyond the pages read before from the same
 * end, short of those read from the other end) and against page 1's `meta.total` (a list that changed while read
 * may have shifted an RFQ past the pages read). Any contradiction `breaks` the coverage: the caller reads the list
 * in full instead.
 */
export type IdOrder = 'ascending' | 'descending';

export class ListCoverage {
  /** Every RFQ of the list with an `_id` at most this was read. */
  private low = -Infinity;
  /** Every RFQ of the list with an `_id` at least this was read. */
  private high = Infinity;
  private frontNext = 1;
  private backNext: number | undefined;
  private total: number | undefined;
  /** The whole list was read. */
  complete = false;
  /** Why the pages read contradict the order (the coverage then proves nothing). */
  broken: string | undefined;
  private readonly order: IdOrder;

  constructor(order: IdOrder) {
    this.order = order;
  }

  /**
   * One page read: its number, the `_id`s it held in its order (an unreadable `_id` is `undefined`), the list's
   * last page where known and `meta.total`. False once the coverage is broken.
   */
  add(page: number, ids: Array<number | undefined>, lastPage: number | undefined, total: number | undefined): boolean {
    if (this.broken) return false;
    if (page === 1) {
      this.total = total;
      this.backNext = lastPage;
    } else if (total !== this.total) return this.fail(`meta.total went from ${this.total} to ${total} while read`);
    if (ids.some((id) => id === undefined)) return this.fail(`page ${page} holds a record without a readable _id`);
    const known = ids as number[];
    const up = this.order === 'ascending';
    for (let i = 1; i < known.length; i++)
      if (up ? known[i]! <= known[i - 1]! : known[i]! >= known[i - 1]!)
        return this.fail(`page ${page} is not in ${this.order} _id order`);
    if (known.length === 0) {
      if (page === this.frontNext) this.complete = true;
      return true;
    }
    const min = Math.min(...known);
    const max = Math.max(...known);
    if (page === this.frontNext) {
      // ascending: page 1 holds the lowest ids; descending: the highest
      if (up ? min <= this.low : max >= this.high) return this.fail(`page ${page} goes back in _id order`);
      if (up) this.low = max;
      else this.high = min;
      this.frontNext++;
      if (page === lastPage) this.complete = true;
    } else if (page === this.backNext) {
      if (up ? max >= this.high : min <= this.low) return this.fail(`page ${page} goes back in _id order`);
      if (up) this.high = min;
      else this.low = max;
      this.backNext--;
    } else return this.fail(`page ${page} read out of sequence`);
    if (this.low >= this.high) return this.fail('the pages read from both ends overlap');
    if (this.backNext !== undefined && this.backNext < this.frontNext) this.complete = true;
    return true;
  }

  /** The list was read to its end by following its links (no more pages). */
  ended(): void {
    if (!this.broken) this.complete = true;
  }

  /** True when an RFQ with this `_id` that was not found is proven not to be in the list. */
  absent(id: number): boolean {
    return !this.broken && (this.complete || id <= this.low || id >= this.high);
  }

  private fail(why: string): false {
    this.broken = why;
    return false;
  }
}

/**
 * The order of `_id`s over lists read in full, page by page (each list's ids in the order read): `ascending` or
 * `descending` when every list is strictly in it and they crossed at least two page boundaries between them (the
 * evidence), else undefined.
 */
export function idOrderOf(lists: ReadonlyArray<ReadonlyArray<ReadonlyArray<number>>>): IdOrder | undefined {
  let boundaries = 0;
  const fits = { ascending: true, descending: true };
  for (const pages of lists) {
    const ids = pages.flat();
    boundaries += Math.max(0, pages.filter((p) => p.length > 0).length - 1);
    for (let i = 1; i < ids.length; i++) {
      if (ids[i]! <= ids[i - 1]!) fits.ascending = false;
      if (ids[i]! >= ids[i - 1]!) fits.descending = false;
    }
  }
  if (boundaries < 2) return undefined;
  return fits.ascending ? 'ascending' : fits.descending ? 'descending' : undefined;
}
