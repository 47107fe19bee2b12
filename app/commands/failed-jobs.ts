/**
 * Failed jobs across all queues: what `rfq-sync failed list` shows and `failed retry [ID|--all]` re-runs.
 * A job is named `<queue>:<id>` (a job id never contains `:`, queues.ts); a bare id is looked up in every queue.
 * Retrying a create-rfq job whose requisition was rejected first clears the rejection: an operator's retry is
 * deliberate, not the blind retry the protocol forbids (docs/architecture.md#the-protocol, step 6).
 */
import type { Job, Queue } from 'bullmq';
import type { WorkerContext } from '../../jobs/index.ts';
import { createIdempotencyStore } from '../../src/creation/index.ts';
import { QUEUE_NAMES } from '../../src/queues/index.ts';

export interface FailedJobInfo {
  /** `<queue>:<id>`, accepted by retryFailed. */
  ref: string;
  queue: string;
  id: string;
  name: string;
  /** What the job was about: requisition id, file name... */
  subject: string;
  failedReason: string;
  attemptsMade: number;
  /** Unix ms. */
  failedAt: number | undefined;
  enqueuedAt: number;
}

type Ctx = Pick<WorkerContext, 'queues' | 'redis' | 'keys'>;

function subjectOf(job: Job): string {
  const d = job.data as Record<string, unknown> | undefined;
  const r = d?.requisition as { profile?: string; key?: string; sourceFile?: string } | undefined;
  if (r?.key) return `requisition ${r.profile}/${r.key}${r.sourceFile ? ` (${r.sourceFile})` : ''}`;
  for (const k of ['file', 'fileName', 'path', 'name', 'processingName'])
    if (typeof d?.[k] === 'string') return String(d[k]);
  if (typeof d?.rfqId === 'number' || typeof d?.rfqId === 'string') return `RFQ ${String(d.rfqId)}`;
  if (typeof d?.route === 'string') return `notification of route ${d.route}`;
  return '';
}

function info(queue: Queue, job: Job): FailedJobInfo {
  const id = String(job.id);
  return {
    ref: `${queue.name}:${id}`,
    queue: queue.name,
    id,
    name: job.name,
    subject: subjectOf(job),
    failedReason: job.failedReason ?? '',
    attemptsMade: job.attemptsMade,
    failedAt: job.finishedOn,
    enqueuedAt: job.timestamp,
  };
}

/** Every failed job, oldest failure first (at most `limit` per queue, default 1,000). */
export async function listFailed(ctx: Pick<Ctx, 'queues'>, opts: { limit?: number } = {}): Promise<FailedJobInfo[]> {
  const limit = opts.limit ?? 1000;
  const out: FailedJobInfo[] = [];
  for (const q of ctx.queues.all) {
    const jobs = await q.getFailed(0, limit - 1);
    for (const j of jobs) if (j) out.push(info(q, j));
  }
  return out.sort((a, b) => (a.failedAt ?? 0) - (b.failedAt ?? 0));
}

export interface RetryResult {
  retried: string[];
  notFound: string[];
}

/** Retry one failed job (`<queue>:<id>` or a bare id) or, with 'all', every failed job. */
export async function retryFailed(ctx: Ctx, ref: string): Promise<RetryResult> {
  const result: RetryResult = { retried: [], notFound: [] };
  const targets: Array<{ queue: Queue; job: Job }> = [];
  if (ref === 'all') {
    for (const queue of ctx.queues.all) {
      for (const job of await queue.getFailed(0, -1)) if (job) targets.push({ queue, job });
    }
  } else {
    const i = ref.indexOf(':');
    const queues = i > 0 ? ctx.queues.all.filter((q) => q.name === ref.slice(0, i)) : ctx.queues.all;
    const id = i > 0 ? ref.slice(i + 1) : ref;
    for (const queue of queues) {
      const job = await queue.getJob(id);
      if (job && (await job.isFailed())) targets.push({ queue, job });
    }
    if (targets.length === 0) result.notFound.push(ref);
  }
  const store = createIdempotencyStore(ctx.redis, ctx.keys);
  for (const { queue, job } of targets) {
    const r = (job.data as { requisition?: { profile?: string; key?: string } } | undefined)?.requisition;
    if (queue.name === QUEUE_NAMES.createRfq && r?.profile && r.key)
      await store.clearRejection(`${r.profile}/${r.key}`);
    await job.retry('failed');
    result.retried.push(`${queue.name}:${String(job.id)}`);
  }
  return result;
}
