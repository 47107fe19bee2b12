/**
 * A re-export's header (title, dates, description) against the RFQ's: pushed or reported. Its own file so the creator
 * stays readable; it needs only the store's header fields, the pusher and the logger.
 */
import type { Logger, Requisition } from '../core/index.ts';
import { requisitionId } from '../redis/index.ts';
import type { HeaderPusher } from './header-push.ts';
import type { IdempotencyStore } from './idempotency-store.ts';
import {
  headerChanges,
  headerOf,
  type HeaderOutcome,
  type PostedHeader,
  toCreateRfqRequest,
} from '../requisitions/index.ts';

/** The part of the creator's deps (CreatorDeps in rfq-creator.ts) the header needs. */
export interface HeaderSettleDeps {
  store: Pick<IdempotencyStore, 'saveHeader' | 'saveHeaderChanges'>;
  logger: Logger;
  /** Pushes the changes with the edit call (PUSH_HEADER_CHANGES); absent: they are only reported. */
  headerPusher?: HeaderPusher;
}

/**
 * The re-export's title, dates and description against the RFQ's as posted (or last pushed): pushed with the edit
 * call when a pusher is configured, reported otherwise. A record from before headers were kept takes this
 * export's header as its baseline (nothing to compare against).
 */
export async function settleHeader(
  deps: HeaderSettleDeps,
  r: Requisition,
  rfqId: number,
  was: PostedHeader | undefined,
): Promise<HeaderOutcome | undefined> {
  const id = requisitionId(r);
  const now = headerOf(toCreateRfqRequest(r));
  if (!was) {
    await deps.store.saveHeader(id, now);
    return undefined;
  }
  const changes = headerChanges(was, now);
  if (changes.length === 0) return undefined;
  const outcome: HeaderOutcome = deps.headerPusher
    ? await deps.headerPusher.push(rfqId, changes)
    : { changes, pushed: false, reason: 'PUSH_HEADER_CHANGES is off: change it at the service by hand if needed' };
  if (outcome.pushed) await deps.store.saveHeader(id, now);
  await deps.store.saveHeaderChanges(id, outcome);
  const fields = changes.map((c) => c.field).join(', ');
  if (outcome.pushed)
    deps.logger.info(
      { event: 'rfq.header-pushed', requisition: id, rfqId, changes },
      `requisition ${id}: ${fields} of RFQ ${rfqId} updated from the re-export${outcome.reason ? ` (${outcome.reason})` : ''}`,
    );
  else
    deps.logger.warn(
      { event: 'requisition.header-changed', requisition: id, rfqId, changes },
      `requisition ${id} was exported again with a changed ${fields} after RFQ ${rfqId} was created; not pushed: ${outcome.reason}`,
    );
  return outcome;
}
