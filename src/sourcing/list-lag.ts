/**
 * The list lag of the account, part of its dialect (dialect.ts): how long an RFQ of ours, once its create was
 * answered, takes to show in the lists. Many services serve lists from a search index or a read replica; the reconcile
 * proves an RFQ absent only from lists read well after that (src/creation/list-settle.ts). Measured on our own
 * creates, since detection must not create anything: the list is read (page 1 and the last page, where a list
 * sorted by creation shows a new RFQ; the whole list when it is short) at growing intervals until the RFQ shows, or
 * one of ours created after it does (lists show RFQs in the order they were committed: a later one listed means this
 * one is; while we create more, ours may already have been pushed off the last page by them).
 * The figure is an upper bound (the time of the answer that first showed it), which errs on the safe side.
 */
import type { SourcingPort } from './port.ts';
import type { ListFilter } from './types.ts';

export interface LagProbeOptions {
  /** Give up after this long, ms. */
  maxMs: number;
  /** Lists of at most this many pages are read whole each round (one sorted by due date shows it anywhere). */
  wholeListPages: number;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

export interface LagMeasurement {
  /** Undefined when the RFQ did not show in time. */
  lagMs?: number;
  evidence: string;
  requests: number;
}

const defaultSleep = (ms: number) =>
  new Promise<void>((resolve) => {
    setTimeout(resolve, ms).unref();
  });

/**
 * Reads `list` until RFQ `rfqId` (whose create was answered at `answeredAt`, this host's ms) shows, or one of
 * `later()` (our RFQs created after it) does.
 */
export async function measureListLag(
  port: Pick<SourcingPort, 'listRfqPages'>,
  list: ListFilter,
  rfqId: number,
  answeredAt: number,
  o: LagProbeOptions & { later?: () => Promise<ReadonlySet<number>> },
): Promise<LagMeasurement> {
  const now = o.now ?? Date.now;
  const sleep = o.sleep ?? defaultSleep;
  let requests = 0;
  let later: ReadonlySet<number> = new Set();
  let short = false; // the whole list fits in wholeListPages pages (from page 1's total and size)
  const shows = async (pages: 'edges' | 'all'): Promise<boolean> => {
    for await (const page of port.listRfqPages(list, { pages, onInvalid: () => undefined })) {
      requests++;
      if (page.page === 1 && page.listSize !== undefined)
        short = page.listSize <= Math.max(1, page.rfqs.length) * o.wholeListPages;
      if (page.rfqs.some((r) => r._id === rfqId || later.has(r._id))) return true;
    }
    return false;
  };
  for (let step = 100; ; step = Math.min(2_000, Math.round(step * 1.5))) {
    later = (await o.later?.()) ?? later;
    const seen = (await shows('edges')) || (short && (await shows('all')));
    const t = now();
    const lag = Math.max(0, t - answeredAt);
    if (seen)
      return {
        lagMs: lag,
        evidence: `list lag: ${lag} ms (our RFQ ${rfqId} was listed ${lag} ms after its create was answered)`,
        requests,
      };
    if (lag >= o.maxMs)
      return {
        evidence: `list lag: not measured (our RFQ ${rfqId} was not on the first or last page of its list within ${o.maxMs} ms)`,
        requests,
      };
    await sleep(step);
  }
}
