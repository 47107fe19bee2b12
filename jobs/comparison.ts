/**
 * comparison: write one version of an RFQ's outputs, its comparison workbook and award CSV and any other output
 * registered in src/comparison/outputs.ts (src/awarding/comparison-runner.ts).
 *
 * Payload:  { rfqId, version } (src/queues/comparison.ts). Job id `comparison~<rfq>~v<n>`: each
 *           version is written once.
 * Reads:    the quotations snapshot and the tracked RFQ in Redis (re-pulls the quotations when the snapshot was
 *           too large or is gone).
 * Writes:   outbox/comparisons/<name>-v<n>.xlsx and, only when the award is final (every quotation decided, or
 *           completed with the winner) and every line's ERP external_id is certain (echoed, or by a position that still
 *           holds what was posted: else withheld, kept for `status`), outbox/awards/<name>-v<n>.csv, each to a temporary name then renamed; records the version and the revision numbers it reflects (a newer pull asks for v<n+1>)
 *           with the overview's summary of it; asks for an overview rewrite (enqueueOverview: one per OVERVIEW_REFRESH_MS window).
 * Errors:   a refused token (only a re-pull calls the service) pauses through the auth gate and delays the job;
 *           a full outbox disk delays the job until space returns (never fails: src/outbox/disk-full.ts); an RFQ whose
 *           identity the service keeps writing unreadably fails the job after 3 attempts with the reason; other disk
 *           errors are retried with back-off; a bad payload is unrecoverable.
 */
import type { Job } from 'bullmq';
import { type AwardingContext, runComparison, type ComparisonResult } from '../src/awarding/index.ts';
import { comparisonQueue, parseJob } from '../src/queues/index.ts';
import type { AuditLines } from './audit-lines.ts';
import { handleServiceError, type ServiceErrorContext } from './service-errors.ts';

/** What this job returns: BullMQ keeps it as the job's return value. */
export type ComparisonJobResult = ComparisonResult;

export async function processComparison(
  ctx: AwardingContext & ServiceErrorContext,
  job: Job,
): Promise<ComparisonJobResult> {
  const { data } = parseJob(comparisonQueue, job);
  try {
    return await runComparison(ctx, data);
  } catch (err) {
    return handleServiceError(ctx, job, err);
  }
}

/** None at the end: written by the comparison itself, before its files are told of (src/awarding/comparison-runner.ts). */
export const auditLines: AuditLines<ComparisonJobResult> = {};
