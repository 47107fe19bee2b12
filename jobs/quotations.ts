/**
 * quotations: pull the quotations of one RFQ and decide whether a new comparison version is due
 * (src/awarding/quotations-runner.ts).
 *
 * Payload:  { rfqId, reason: closed | check | award | manual } (src/queues/quotations.ts).
 * Reads:    GET /v1/quotations/<rfq_id> (and ?status=success for the award); the RFQ's tracking record.
 * Writes:   a snapshot of the quotations in Redis (size-capped; else the comparison job pulls again); enqueues the
 *           comparison job `comparison~<rfq>~v<n>` when the RFQ closed, completed, a revision_no rose, or every
 *           quotation got its qualification decision (the award becomes final).
 * Errors:   a quotation whose key cannot be read, and a field that cannot be read, are passed on to the workbook's
 *           notes (said once per RFQ, quotation and field), never blocking the others; an answer whose envelope
 *           cannot be read fails the job after 3 attempts with the reason (jobs/service-errors.ts); 401/403
 *           pause through the auth gate and delay the job; 429 holds every worker off and delays it; transient errors
 *           are retried with back-off; a bad payload is unrecoverable.
 */
import type { Job } from 'bullmq';
import { type AuditEvent, quotationsPulled } from '../src/audit/index.ts';
import { loadSnapshot, runQuotations, type QuotationsContext, type QuotationsResult } from '../src/awarding/index.ts';
import { trackingStore } from '../src/rfqs/index.ts';
import type { AuditLines, AuditLinesContext } from './audit-lines.ts';
import { parseJob, quotationsQueue } from '../src/queues/index.ts';
import { deferWhilePaused, handleServiceError, type ServiceErrorContext } from './service-errors.ts';

/** What this job returns: BullMQ keeps it as the job's return value. */
export type QuotationsJobResult = QuotationsResult;

export async function processQuotations(
  ctx: QuotationsContext & ServiceErrorContext,
  job: Job,
): Promise<QuotationsJobResult> {
  const { data } = parseJob(quotationsQueue, job);
  await deferWhilePaused(ctx, job);
  try {
    return await runQuotations(ctx, data);
  } catch (err) {
    return handleServiceError(ctx, job, err);
  }
}

/** A pull that asked for no comparison: what it pulled (jobs/audit-lines.ts). */
export const auditLines: AuditLines<QuotationsJobResult> = { end: quotationsEvents };

async function quotationsEvents(ctx: AuditLinesContext, job: Job, res: QuotationsJobResult): Promise<AuditEvent[]> {
  // a pull that asked for a comparison wrote its line before queueing it (src/awarding/quotations-runner.ts)
  if (res.skipped || res.version !== undefined) return [];
  const snap = await loadSnapshot(trackingStore(ctx), res.rfqId).catch(() => undefined);
  const { reason } = parseJob(quotationsQueue, job).data;
  return [
    quotationsPulled({
      rfqId: res.rfqId,
      count: res.quotations ?? 0,
      keys: Object.keys(snap?.revisions ?? {}),
      reason,
      winnerKey: res.winnerKey,
    }),
  ];
}
