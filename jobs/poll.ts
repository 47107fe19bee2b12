/**
 * poll: one poll of the tracked RFQs that can still change (src/tracking/poll/poll-runner.ts).
 *
 * Payload:  { slot, scheduledAt } (src/queues/poll.ts). Job id `poll~<slot>`: one poll per cron
 *           slot however many workers schedule it; `poll~now~<ms>` for `rfq-sync poll`; `poll~hook~<ms>` for a
 *           webhook of the service (src/tracking/poll/poll-wake.ts: one waiting at most, WEBHOOK_MIN_INTERVAL_MS apart).
 * Reads:    what the listing strategy of the dialect says (src/sourcing/listing-strategy.ts): the open and closed
 *           lists, all pages, then for tracked RFQs that left them one GET /v1/rfqs/{id} each or the cancelled and
 *           completed lists from their newest end, whichever costs fewer requests (no proven filter: the detail
 *           calls or the unfiltered list); the tracked RFQs in Redis; the vendor
 *           directory (GET /v1/vendors, else /v1/vendor/) once the stored one is an hour old (never failing the poll).
 * Writes:   transitions (with their time) of the RFQs this service created, missing-RFQ flags, the last poll
 *           result; the vendor directory (src/vendors/vendor-store.ts); enqueues quotations jobs (closed, completed,
 *           revision checks) and the next comparison version of an RFQ whose award file was withheld when a new
 *           version of its record is listed;
 *           outbox/overview.xlsx (temporary name, then renamed) at the end of every poll; first, the ERP files of
 *           awards held for the vendor cross-reference that now knows their winners (src/awarding/erp-hold.ts).
 * Errors:   401/403 pause polling through the auth gate and delay the job (never failed); 429 holds every worker
 *           off for Retry-After and delays the job; 5xx/time-outs are retried with back-off (3 attempts, the next
 *           slot supersedes a failed poll); a bad payload is unrecoverable. An overview that cannot be written is
 *           logged and leaves the poll done.
 *
 * Jobs named `overview` ({ requestedAt }, src/queues/poll.ts, id `overview~<window>`, added by comparison jobs):
 *           rewrite outbox/overview.xlsx from the tracked RFQs in Redis; no service call. A failure is retried
 *           (3 attempts), then left to the next poll.
 */
import type { Job } from 'bullmq';
import { type TrackingContext, runPoll, type PollResult } from '../src/tracking/index.ts';
import {
  type AwardingContext,
  type OverviewWritten,
  releaseHeldErpFiles,
  writeAccountOverview,
} from '../src/awarding/index.ts';
import { OVERVIEW_JOB, pollQueue, parseJob } from '../src/queues/index.ts';
import type { AuditLines } from './audit-lines.ts';
import { deferWhilePaused, handleServiceError, type ServiceErrorContext } from './service-errors.ts';

/** What this job returns: BullMQ keeps it as the job's return value (an overview job: the overview written). */
export type PollJobResult = PollResult | OverviewWritten;

export async function processPoll(
  ctx: TrackingContext & AwardingContext & ServiceErrorContext,
  job: Job,
): Promise<PollJobResult> {
  const parsed = parseJob(pollQueue, job);
  if (parsed.name === OVERVIEW_JOB) return writeAccountOverview(ctx);
  const { data } = parsed;
  // Held ERP files first (no service call): an award the vendor cross-reference now knows is written before this
  // poll's overview is.
  await releaseHeldErpFiles(ctx).catch((err: unknown) =>
    ctx.logger.error(
      { err, event: 'erp.release_failed' },
      'held ERP files could not be written; tried again next poll',
    ),
  );
  await deferWhilePaused(ctx, job);
  try {
    return await runPoll(ctx, data, () => writeAccountOverview(ctx));
  } catch (err) {
    return handleServiceError(ctx, job, err);
  }
}

/** None at the end: each transition is written before it is stored (src/tracking/poll/poll-apply.ts). */
export const auditLines: AuditLines<PollJobResult> = {};
