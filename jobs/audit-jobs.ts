/**
 * The audit lines of the jobs (src/audit/, docs/operations.md "Where is my requisition"): what each job did, as one
 * line per step, written by the worker (jobs/worker.ts) after the job's processor returned and BEFORE BullMQ records
 * the job done, so no job is reported done without its line. A worker killed in between leaves the job unfinished:
 * its re-run (the stalled-job check) finds the work done and writes the line then (the builders below know the
 * "already done" answers: a file finished by an earlier attempt, an RFQ already recorded, a message already sent).
 * Lines written while a job runs, before the step they record, are built where the step happens: the file taken and
 * each requisition accepted (here and in jobs/ingest.ts), each transition (src/tracking/poll/poll-apply.ts), a pull that
 * asks for a comparison (src/awarding/quotations-runner.ts), a comparison version and its award
 * (src/awarding/comparison-runner.ts). Pure mapping plus reads of the records named; never a secret.
 */
import { join } from 'node:path';
import type { Job } from 'bullmq';
import { type AuditEvent, quotationsPulled } from '../src/audit/index.ts';
import type { WorkerContext } from '../src/worker/index.ts';
import type { Requisition } from '../src/core/index.ts';
import type { CreateOutcome } from '../src/creation/index.ts';
import { requisitionRecords } from '../src/requisitions/index.ts';
import { type IngestResult } from '../src/intake/index.ts';
import { createRfqPayloadSchema, parseProcessingName, type QueueKey } from '../src/queues/index.ts';
import { createMessageStore, type DeliveryResult } from '../src/notify/index.ts';
import { trackingStore } from '../src/rfqs/index.ts';
import { loadSnapshot, type QuotationsResult, type ComparisonResult } from '../src/awarding/index.ts';

/** What each queue's job returns (as jobs/worker.ts JobResults names them; that file imports this one). */
interface JobResults {
  ingest: IngestResult;
  createRfq: CreateOutcome;
  quotations: QuotationsResult;
  comparison: ComparisonResult;
  notify: DeliveryResult;
}

export type AuditJobContext = Pick<WorkerContext, 'audit' | 'redis' | 'keys'> & {
  config: { folders: Pick<WorkerContext['config']['folders'], 'reports'> };
};

/** Before the processor: an ingest job's file is taken. */
export async function auditJobStart(ctx: AuditJobContext, key: QueueKey, job: Job): Promise<void> {
  if (key !== 'ingest') return;
  const d = job.data as { sha256?: string; processingName?: string } | null; // unchecked yet: the job parses it
  const p = parseProcessingName(d?.processingName ?? '');
  if (!p || !d?.sha256) return;
  await ctx.audit.write({
    event: 'file-taken',
    summary: `file ${p.original} taken from the inbox (sha256 ${d.sha256.slice(0, 12)}…)`,
    file: p.original,
    file_sha256: d.sha256,
    processing: d.processingName,
  });
}

/** An ingest job's requisition, before it is queued for creation. */
export function requisitionAccepted(r: Requisition, sha256: string): AuditEvent {
  return {
    event: 'requisition-accepted',
    summary: `requisition ${r.profile}/${r.key} accepted (${r.lines.length} line(s)), queued for creation`,
    ...identityOf(r),
    file_sha256: sha256,
    title: r.title,
    due_date: r.due_date,
  };
}

/** After the processor returned, before the job is recorded done. */
export async function auditJobEnd(ctx: AuditJobContext, key: QueueKey, job: Job, result: unknown): Promise<void> {
  const events = await eventsOf(ctx, key, job, result);
  for (const e of events) await ctx.audit.write(e);
}

/**
 * A create refused for good (the job fails with UnrecoverableError): its outcome is a step too. Not a payload its
 * schema refuses: no requisition was read (and such a payload must fail named, whatever it holds).
 */
export async function auditJobFailed(ctx: AuditJobContext, key: QueueKey, job: Job, err: unknown): Promise<void> {
  if (key !== 'createRfq' || (err as Error)?.name !== 'UnrecoverableError') return;
  const payload = createRfqPayloadSchema.safeParse(job.data);
  if (!payload.success) return;
  const r = payload.data.requisition;
  await ctx.audit.write({
    event: 'create-sent',
    summary: `requisition ${r.profile}/${r.key} rejected: ${(err as Error).message}`,
    ...identityOf(r),
    outcome: 'rejected',
    reason: (err as Error).message.slice(0, 500),
  });
}

async function eventsOf(ctx: AuditJobContext, key: QueueKey, job: Job, result: unknown): Promise<AuditEvent[]> {
  switch (key) {
    case 'ingest':
      return ingestEvents(ctx, job, result as JobResults['ingest']);
    case 'createRfq':
      return createEvents(ctx, job, result as JobResults['createRfq']);
    case 'quotations':
      return quotationsEvents(ctx, job, result as JobResults['quotations']);
    case 'comparison':
      return []; // written by the comparison itself, before its files are told of (src/awarding/comparison-runner.ts)
    case 'notify':
      return notifyEvents(ctx, result as JobResults['notify']);
    case 'poll':
      return []; // each transition is written before it is stored (src/tracking/poll/poll-apply.ts)
  }
}

function identityOf(r: Requisition) {
  return { profile: r.profile, key: r.key, external_ids: r.lines.map((l) => l.external_id), file: r.sourceFile };
}

function ingestEvents(ctx: AuditJobContext, job: Job, res: JobResults['ingest']): AuditEvent[] {
  const sha = (job.data as { sha256: string }).sha256;
  const base = { file: res.file, file_sha256: sha, outcome: res.status };
  const report = 'report' in res ? join(ctx.config.folders.reports, res.report) : undefined;
  switch (res.status) {
    case 'done': {
      const out: AuditEvent[] = [
        {
          event: 'file-read',
          summary: `file ${res.file} read${res.profile ? ` with profile ${res.profile}` : ''}: ${res.requisitions} requisition(s) queued, ${res.heldRequisitions} held, ${res.rejectedRows} row(s) rejected; archived`,
          ...base,
          ...(res.profile ? { profile: res.profile } : {}),
          report,
          requisitions: res.requisitions,
          held: res.heldRequisitions,
          rejected_rows: res.rejectedRows,
        },
      ];
      for (const h of res.held ?? [])
        out.push({
          event: 'requisition-held',
          summary: `requisition ${res.profile}/${h.key} of ${res.file} held back: ${h.reason}`,
          ...base,
          ...(res.profile ? { profile: res.profile } : {}),
          key: h.key,
          reason: h.reason,
          report,
        });
      if (res.heldRequisitions > 0 && !res.held)
        out.push({
          event: 'requisition-held',
          summary: `${res.heldRequisitions} requisition(s) of ${res.file} held back${res.firstProblem ? `: ${res.firstProblem}` : ''} (every problem in the report)`,
          ...base,
          held: res.heldRequisitions,
          reason: res.firstProblem,
          report,
        });
      return out;
    }
    case 'refused':
      return [
        { event: 'file-read', summary: `file ${res.file} refused: ${res.reason}`, ...base, reason: res.reason, report },
      ];
    case 'held':
      return [
        { event: 'file-read', summary: `file ${res.file} held: ${res.reason}`, ...base, reason: res.reason, report },
      ];
    case 'held-for-vendors':
      return [
        {
          event: 'requisition-held',
          summary: `${res.requisitions} requisition(s) of ${res.file} held in the inbox: ${res.reason}`,
          ...base,
          held: res.requisitions,
          reason: res.reason,
          report,
        },
      ];
    case 'changed':
      return [{ event: 'file-read', summary: `file ${res.file} changed while read: back in the inbox`, ...base }];
    case 'already-finished':
      return [
        { event: 'file-read', summary: `file ${res.file} finished by an earlier attempt (${res.where})`, ...base },
      ];
  }
}

async function createEvents(ctx: AuditJobContext, job: Job, o: JobResults['createRfq']): Promise<AuditEvent[]> {
  const r = (job.data as { requisition: Requisition }).requisition;
  const store = requisitionRecords(ctx.redis, ctx.keys);
  const rec = await store.get(o.requisitionId);
  const id = `${r.profile}/${r.key}`;
  const summary: Partial<Record<CreateOutcome['status'], string>> = {
    adopted: `RFQ ${o.rfqId} adopted for requisition ${id}: the answer to its create was lost, the RFQ was found at the service (nothing posted twice)`,
    existing: `requisition ${id} already has RFQ ${o.rfqId} (${rec?.how ?? 'created'} earlier)${o.changes?.length ? `; ${o.changes.length} changed line(s) reported` : ''}`,
    undecided: `requisition ${id} parked: needs \`rfq-sync resolve\` (${o.reason ?? 'the match is ambiguous'})`,
    rejected: `requisition ${id} rejected: ${o.reason ?? ''}`,
  };
  // a 201 wrote its line before the RFQ was recorded (src/creation/rfq-creator.ts): only the other outcomes here
  const out: AuditEvent[] = [];
  if (o.status !== 'created')
    out.push({
      event: 'create-sent',
      summary: summary[o.status]!,
      ...identityOf(r),
      outcome: o.status,
      ...(o.rfqId !== undefined ? { rfq_id: o.rfqId } : {}),
      ...(rec?.how ? { how: rec.how } : {}),
      ...(rec?.positions && Object.keys(rec.positions).length ? { positions: rec.positions } : {}),
      ...(o.reason ? { reason: o.reason } : {}),
      ...(o.rfqIds?.length ? { candidates: o.rfqIds } : {}),
      ...(o.changes?.length ? { changed_lines: o.changes.map((c) => c.externalId) } : {}),
      due_date: r.due_date,
    });
  for (const s of o.supplements ?? []) {
    const supp = await store.get(s.requisitionId);
    out.push({
      event: 'supplementary-rfq',
      summary: `supplementary RFQ ${s.rfqId ?? '-'} (${s.status}) for the new lines of requisition ${id}`,
      profile: r.profile,
      key: s.requisitionId.slice(r.profile.length + 1),
      parent: id,
      external_ids: Object.keys(supp?.positions ?? {}),
      file: r.sourceFile,
      outcome: s.status,
      ...(s.rfqId !== undefined ? { rfq_id: s.rfqId } : {}),
      ...(supp?.positions ? { positions: supp.positions } : {}),
    });
  }
  return out;
}

async function quotationsEvents(ctx: AuditJobContext, job: Job, res: JobResults['quotations']): Promise<AuditEvent[]> {
  // a pull that asked for a comparison wrote its line before queueing it (src/awarding/quotations-runner.ts)
  if (res.skipped || res.version !== undefined) return [];
  const snap = await loadSnapshot(trackingStore(ctx), res.rfqId).catch(() => undefined);
  const reason = (job.data as { reason?: string }).reason;
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

/**
 * A message sent: its route and id, and what it told of (kinds, RFQs, requisitions), read back from the message's
 * events (taking a message again returns the same events and changes nothing).
 */
async function notifyEvents(ctx: AuditJobContext, res: JobResults['notify']): Promise<AuditEvent[]> {
  if (res.status !== 'sent' && res.status !== 'already-sent') return [];
  const events = await createMessageStore(ctx.redis, ctx.keys.key)
    .take(res.route, res.message)
    .catch(() => []);
  const data = events.map((e) => (e.data ?? {}) as { rfqId?: unknown; requisition?: unknown });
  const rfqIds = [...new Set(data.flatMap((d) => (typeof d.rfqId === 'number' ? [d.rfqId] : [])))];
  const requisitions = [...new Set(data.flatMap((d) => (typeof d.requisition === 'string' ? [d.requisition] : [])))];
  const kinds = [...new Set(events.map((e) => e.kind))];
  const one = requisitions.length === 1 ? /^([^/]+)\/(.+)$/.exec(requisitions[0]!) : null;
  return [
    {
      event: 'notification-sent',
      summary: `notification ${res.message} (${kinds.join(', ') || `${res.events} event(s)`}) sent on route ${res.route}${res.repeated ? ', once more after a crash' : ''}`,
      route: res.route,
      message_id: res.message,
      events: res.events,
      kinds,
      outcome: res.status,
      ...(rfqIds.length === 1 ? { rfq_id: rfqIds[0] } : {}),
      ...(rfqIds.length > 0 ? { rfq_ids: rfqIds } : {}),
      ...(one ? { profile: one[1], key: one[2] } : {}),
    },
  ];
}

/** Run one job's processor with its audit lines around it (jobs/worker.ts). */
export async function audited(
  ctx: AuditJobContext,
  key: QueueKey,
  job: Job,
  process: (job: Job) => Promise<unknown>,
): Promise<unknown> {
  await auditJobStart(ctx, key, job);
  let result: unknown;
  try {
    result = await process(job);
  } catch (err) {
    await auditJobFailed(ctx, key, job, err);
    throw err;
  }
  await auditJobEnd(ctx, key, job, result);
  return result;
}
