/**
 * What the sandbox counts about the calls it answered (per operation and status, arrival times, 429s, lost
 * commits), so tests and the soak can judge the client's behaviour from the service's side.
 */
import type { SandboxStore } from './store.ts';

export interface SandboxStats {
  /** operation -> status (number, or `drop` / `stall`) -> count. */
  calls: Record<string, Record<string, number>>;
  rfqsCreated: number;
  /** RFQs held per account (company), all states. */
  rfqsPerAccount: Record<string, number>;
  /** Arrival times (ms) of API calls (the last 100 000). */
  requestTimes: number[];
  /** Most API calls that arrived within any 1 s window. */
  maxPerSecond: number;
  sent429: number;
  commitThenFail: number;
}

const MAX_TIMES = 100_000;

export class CallStats {
  private calls: SandboxStats['calls'] = {};
  private times: number[] = [];
  private rfqsCreated = 0;
  private sent429 = 0;
  private commitFailures = 0;
  private readonly store: SandboxStore;

  constructor(store: SandboxStore) {
    this.store = store;
  }

  /** An API call arrived at `now` (ms). */
  arrived(now: number): void {
    this.times.push(now);
    if (this.times.length > MAX_TIMES) this.times = this.times.slice(-MAX_TIMES / 2);
  }

  count(op: string, status: number | string): void {
    const byStatus = (this.calls[op] ??= {});
    byStatus[String(status)] = (byStatus[String(status)] ?? 0) + 1;
    if (status === 429) this.sent429++;
  }

  rfqCreated(): void {
    this.rfqsCreated++;
  }

  commitFailed(): void {
    this.commitFailures++;
  }

  snapshot(): SandboxStats {
    return {
      calls: structuredClone(this.calls),
      rfqsCreated: this.rfqsCreated,
      rfqsPerAccount: this.store.countByCompany(),
      requestTimes: [...this.times],
      maxPerSecond: maxInWindow(this.times, 1000),
      sent429: this.sent429,
      commitThenFail: this.commitFailures,
    };
  }

  reset(): void {
    this.calls = {};
    this.times = [];
    this.rfqsCreated = 0;
    this.sent429 = 0;
    this.commitFailures = 0;
  }
}

/** Largest number of sorted timestamps inside any window of `windowMs`. */
function maxInWindow(times: readonly number[], windowMs: number): number {
  let best = 0;
  let start = 0;
  for (let end = 0; end < times.length; end++) {
    while (times[end]! - times[start]! >= windowMs) start++;
    best = Math.max(best, end - start + 1);
  }
  return best;
}
