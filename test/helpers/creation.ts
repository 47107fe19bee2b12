/** Creation in-process: one requisition through the exactly-once protocol, and the check of what reached the service. */
import { AttemptBusyError, ThrottledError } from '../../src/core/index.ts';
import { createRfqOnce, type CreatorDeps } from '../../src/creation/rfq-creator.ts';
import type { CreateOutcome } from '../../src/creation/settle-existing.ts';
import type { Requisition } from '../../src/core/requisition.ts';
import type { StoredRfq } from '../../src/sandbox/store.ts';
import { sleep } from './wait.ts';

/**
 * One requisition through the creation protocol as its create-rfq job runs it, in-process: an attempt that must wait
 * (another attempt holds it, calls are throttled, the lists must settle or be walked) sleeps the time it names and
 * tries again, until the protocol says what happened.
 */
export async function createAsJob(deps: CreatorDeps, r: Requisition): Promise<CreateOutcome> {
  for (;;) {
    try {
      return await createRfqOnce(deps, r);
    } catch (err) {
      if (!(err instanceof AttemptBusyError || err instanceof ThrottledError)) throw err;
      await sleep(err.waitMs);
    }
  }
}

/** Every external_id of these requisitions appears in exactly one RFQ at the sandbox, and nothing else does. */
export function checkExactlyOnce(
  rfqs: StoredRfq[],
  reqs: Requisition[],
): { duplicates: string[]; missing: string[]; rfqCount: number } {
  const seen = new Map<string, number>();
  for (const r of rfqs)
    for (const l of r.lines) if (l.external_id) seen.set(l.external_id, (seen.get(l.external_id) ?? 0) + 1);
  const duplicates = [...seen].filter(([, n]) => n > 1).map(([e]) => e);
  const missing = reqs.flatMap((r) => r.lines.map((l) => l.external_id)).filter((e) => !seen.has(e));
  return { duplicates, missing, rfqCount: rfqs.length };
}
