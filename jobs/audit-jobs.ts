/**
 * The audit lines of the jobs (src/audit/, docs/operations.md "Where is my requisition"): what each job did, as one
 * line per step, written by the worker (jobs/worker.ts) after the job's processor returned and BEFORE BullMQ records
 * the job done, so no job is reported done without its line. A worker killed in between leaves the job unfinished:
 * its re-run (the stalled-job check) finds the work done and writes the line then (each builder below also knows the
 * "already done" answers: an RFQ already recorded, a version already written, a message already sent). The lines a
 * job writes while it runs (the file taken, each requisition accepted, each transition) are written before the step
 * they record. Pure mapping plus reads of the files and records named; never a secret.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { basename, isAbsolute, join } from 'node:path';
import type { Job } from 'bullmq';
import { Decimal } from 'decimal.js';
import type { AuditEvent } from '../src/audit/events.ts';
import type { WorkerContext } from '../src/pipeline/context.ts';
import type { QueueKey } from '../src/redis/queues.ts';
import type { Requisition } from '../src/requisition.ts';
import { createIdempotencyStore } from '../src/creation/idempotency-store.ts';
import { parseProcessingName } from '../src/intake/file-mover.ts';
import { trackingStore } from '../src/tracking/context.ts';
import { loadSnapshot } from '../src/tracking/snapshot.ts';
import type { IngestResult } from '../src/intake/ingest-run.ts';
import type { CreateOutcome } from '../src/creation/rfq-creator.ts';
import type { QuotationsResult } from '../src/tracking/quotations-runner.ts';
import type { ComparisonResult } from '../src/tracking/comparison-runner.ts';
import type { DeliveryResult } from '../src/notify/delivery.ts';

/** What each queue's job returns (as jobs/worker.ts JobResults names them; that file imports this one). */
interface JobResults {
  ingest: IngestResult;
  createRfq: CreateOutcome;
  quotations: QuotationsResult;
  comparison: ComparisonResult;
  notify: DeliveryResult;
}

export type AuditJobContext = Pick<WorkerContext, 'audit' | 'redis' | 'keys'> & {
  config: { folders: Pick<WorkerContext['config']['folders'], 'reports' | 'comparisons' | 'awards'> };
};

/** Before the processor: an ingest job's file is taken. */
export async function auditJobStart(ctx: AuditJobContext, key: QueueKey, job: Job): Promise<void> {
  if (key !== 'ingest') return;
  const d = job.data as { sha256?: string; processingName?: string };
  const p = parseProcessingName(d.processingName ?? '');
  if (!p || !d.sha256) return;
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

/** A create refused for good (the job fails with UnrecoverableError): its outcome is a step too. */
export async function auditJobFailed(ctx: AuditJobContext, key: QueueKey, job: Job, err: unknown): Promise<void> {
  if (key !== 'createRfq' || (err as Error)?.name !== 'UnrecoverableError') return;
  const r = (job.data as { requisition?: Requisition }).requisition;
  if (!r?.lines) return;
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
      return comparisonEvents(ctx, result as JobResults['comparison']);
    case 'notify':
      return notifyEvents(result as JobResults['notify']);
    case 'poll':
      return []; // each transition is written before it is stored (src/tracking/poll-apply.ts)
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
      if (res.heldRequisitions > 0)
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
  const store = createIdempotencyStore(ctx.redis, ctx.keys);
  const rec = await store.get(o.requisitionId);
  const id = `${r.profile}/${r.key}`;
  const summary: Record<string, string> = {
    created: `RFQ ${o.rfqId} created for requisition ${id} (${r.lines.length} line(s) sent)`,
    adopted: `RFQ ${o.rfqId} adopted for requisition ${id}: the answer to its create was lost, the RFQ was found at the service (nothing posted twice)`,
    existing: `requisition ${id} already has RFQ ${o.rfqId} (${rec?.how ?? 'created'} earlier)${o.changes?.length ? `; ${o.changes.length} changed line(s) reported` : ''}`,
    undecided: `requisition ${id} parked: needs \`rfq-sync resolve\` (${o.reason ?? 'the match is ambiguous'})`,
    rejected: `requisition ${id} rejected: ${o.reason ?? ''}`,
  };
  const out: AuditEvent[] = [
    {
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
    },
  ];
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
  if (res.skipped) return [];
  const snap = await loadSnapshot(trackingStore(ctx), res.rfqId).catch(() => undefined);
  const keys = Object.keys(snap?.revisions ?? {});
  const reason = (job.data as { reason?: string }).reason;
  return [
    {
      event: 'quotations-pulled',
      summary: `${res.quotations ?? 0} quotation(s) pulled for RFQ ${res.rfqId} (${reason})${res.version ? `; comparison v${res.version} asked for` : ''}`,
      rfq_id: res.rfqId,
      count: res.quotations ?? 0,
      keys,
      reason,
      ...(res.winnerKey ? { winner: res.winnerKey } : {}),
      ...(res.version ? { version: res.version } : {}),
    },
  ];
}

async function comparisonEvents(ctx: AuditJobContext, res: JobResults['comparison']): Promise<AuditEvent[]> {
  let { workbook, awardCsv } = res;
  if (res.skipped) {
    // a re-run after a crash between the version's record and its line: the record names what was written
    const rec = await trackingStore(ctx).get(res.rfqId);
    if (!/already written/.test(res.skipped) || rec?.comparison?.version !== res.version) return [];
    ({ workbook, awardCsv } = rec.comparison);
  }
  if (!workbook) return [];
  const f = ctx.config.folders;
  const book = isAbsolute(workbook) ? workbook : join(f.comparisons, workbook);
  const no = /^RFQ-(\d+)-\d+/.exec(basename(workbook));
  const rfq = { rfq_id: res.rfqId, ...(no ? { rfq_no: Number(no[1]) } : {}) };
  const out: AuditEvent[] = [
    {
      event: 'comparison-written',
      summary: `comparison workbook v${res.version} written for RFQ ${res.rfqId}`,
      ...rfq,
      version: res.version,
      workbook: book,
      sha256: await sha256Of(book),
    },
  ];
  if (awardCsv && awardCsv.endsWith(`-v${res.version}.csv`)) {
    const award = isAbsolute(awardCsv) ? awardCsv : join(f.awards, awardCsv);
    const text = await readFile(award, 'utf8').catch(() => '');
    const a = awardOf(text);
    out.push({
      event: 'award-final',
      summary: `award final for RFQ ${res.rfqId}: ${a.suppliers.join(', ') || '-'}; total ${
        Object.entries(a.totals)
          .map(([c, v]) => (c === 'XXX' ? `${v} (no currency given)` : `${v} ${c}`))
          .join(' + ') || '-'
      }`,
      ...rfq,
      version: res.version,
      award,
      sha256: text ? createHash('sha256').update(text).digest('hex') : undefined,
      ...(res.winnerKey ? { winner: res.winnerKey } : {}),
      lines: a.lines,
      totals: a.totals,
    });
  }
  return out;
}

async function sha256Of(path: string): Promise<string | undefined> {
  const buf = await readFile(path).catch(() => undefined);
  return buf ? createHash('sha256').update(buf).digest('hex') : undefined;
}

/** Supplier per line and the totals per currency, exactly (decimal), from the award file's text. */
function awardOf(text: string): {
  lines: Array<{ external_id: string; supplier: string; line_total: string }>;
  totals: Record<string, string>;
  suppliers: string[];
} {
  const rows = text.split(/\r?\n/).filter(Boolean);
  const head = csvFields(rows[0] ?? '');
  const col = (name: string) => head.indexOf(name);
  const lines: Array<{ external_id: string; supplier: string; line_total: string }> = [];
  const sums = new Map<string, Decimal>();
  for (const row of rows.slice(1)) {
    const v = csvFields(row);
    const total = v[col('line_total')] ?? '';
    const currency = v[col('currency')] || 'XXX'; // ISO 4217's code for "no currency"
    lines.push({
      external_id: v[col('external_id')] ?? '',
      supplier: v[col('supplier_name')] ?? '',
      line_total: total,
    });
    if (/^-?\d+(\.\d+)?$/.test(total)) sums.set(currency, (sums.get(currency) ?? new Decimal(0)).plus(total));
  }
  const totals = Object.fromEntries([...sums].map(([c, d]) => [c, d.toFixed(2)]));
  return { lines, totals, suppliers: [...new Set(lines.map((l) => l.supplier))] };
}

/** One RFC 4180 row (quoted fields, doubled quotes). */
function csvFields(row: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < row.length; i++) {
    const c = row[i]!;
    if (quoted) {
      if (c === '"' && row[i + 1] === '"') {
        cur += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cur += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      out.push(cur);
      cur = '';
    } else cur += c;
  }
  out.push(cur);
  return out;
}

function notifyEvents(res: JobResults['notify']): AuditEvent[] {
  if (res.status !== 'sent' && res.status !== 'already-sent') return [];
  return [
    {
      event: 'notification-sent',
      summary: `notification ${res.message} sent on route ${res.route} (${res.events} event(s))${res.repeated ? ', once more after a crash' : ''}`,
      route: res.route,
      message_id: res.message,
      events: res.events,
      outcome: res.status,
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
