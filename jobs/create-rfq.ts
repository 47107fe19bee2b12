/**
 * create-rfq: one job per requisition -> exactly one RFQ (src/creation/rfq-creator.ts holds the protocol).
 *
 * Payload:  { requisition: Requisition } (src/queues/create-rfq.ts).
 * Job id:   `create~<profile>~<key>~<content hash>` (src/queues/create-rfq.ts): the same requisition with the same
 *           content enqueued twice (same file twice, same requisition in two files) is one job; changed content is
 *           another job, which the idempotency store turns into "changed lines reported" / a supplementary RFQ.
 * Reads:    the idempotency records, the rate limiter and Retry-After hold-off, the service's RFQ lists (reconcile).
 * Writes:   POST /v1/rfqs; PUT /v1/rfqs/{id} (a re-export's header changes, with PUSH_HEADER_CHANGES); the
 *           requisition's record; the RFQ's tracking record (src/tracking/rfq-tracker.ts).
 * Returns:  CreateOutcome (requisitionId, status created | adopted | existing | undecided, rfqId, changes, header,
 *           supplements). `undecided`: after a lost answer the match was ambiguous; the requisition is parked
 *           (nothing posted) until `rfq-sync resolve` (the job completes: a person acts, not a retry).
 * Errors:
 *   - another attempt holds the requisition, calls are rate limited or held by Retry-After: the job is moved back
 *     to delayed until then (DelayedError), no attempt spent, no worker slot blocked;
 *   - 401/403: the auth gate pauses create-rfq and poll, the job goes back to delayed (never failed);
 *   - Redis lost its state (ctx.state): the job goes back to delayed until `rfq-sync recover` renews the epoch;
 *   - 5xx, resets, time-outs, Redis errors, a claim not on REDIS_WAIT_REPLICAS replicas in time: thrown, BullMQ
 *     retries with exponential back-off (JOB_ATTEMPTS);
 *   - permanent refusal (other 4xx, invalid request, external_ids held by another requisition): the requisition
 *     is recorded `rejected` and the job fails with UnrecoverableError, so a person sees it in `rfq-sync failed
 *     list`; `failed retry` tries it once more (a re-export with corrected data is a new job anyway).
 */
import { DelayedError, UnrecoverableError, type Job } from 'bullmq';
import { AuthError, RateLimitError, type Requisition, AttemptBusyError, ThrottledError } from '../src/core/index.ts';
import type { WorkerServices } from '../src/worker/index.ts';
import type {
  jobSettings,
  outputSettings,
  reconcileSettings,
  redisSettings,
  serviceSettings,
  SettingValues,
} from '../src/settings/index.ts';
import {
  createHeaderPusher,
  createIdempotencyStore,
  createReconcileCoordinator,
  type ReconcileCoordinator,
  contentHashOf,
  createRfqOnce,
  type CreateOutcome,
  type CreatorDeps,
} from '../src/creation/index.ts';
import { replicationWait, type Queues } from '../src/redis/index.ts';
import {
  createRfqJobId as createJobIdOf,
  createRfqPayloadSchema,
  createRfqQueue,
  enqueueCreateRfq as addCreateJob,
  parseJob,
} from '../src/queues/index.ts';
import { createLagProbe } from '../src/account/index.ts';
import { trackRfq } from '../src/tracking/index.ts';
import { requisitionDecision } from '../src/notify/events/index.ts';
import type { AuditEvent } from '../src/audit/index.ts';
import { requisitionRecords } from '../src/requisitions/index.ts';
import { type AuditLines, type AuditLinesContext, requisitionIdentity } from './audit-lines.ts';

/**
 * How long a job set aside by a refused token waits before it looks again. Short on purpose: while the queue is
 * paused a due job just moves to the paused list, and the gate's resume promotes the others at once.
 */
export const AUTH_RETRY_MS = 2_000;

/** How long a create job waits while Redis's state is lost (the queue is paused too; this covers jobs taken before). */
export const LOST_STATE_RETRY_MS = 5_000;

/** The job id of a requisition's create-rfq job (src/queues/create-rfq.ts). */
export function createRfqJobId(r: Requisition): string {
  return createJobIdOf(r, contentHashOf(r));
}

/** Enqueue one requisition; the same requisition with the same content enqueued again is the same job. */
export async function enqueueCreateRfq(queues: Pick<Queues, 'createRfq'>, requisition: Requisition): Promise<Job> {
  return addCreateJob(queues.createRfq, requisition, contentHashOf(requisition));
}

/** What the create protocol is wired from: the context's Redis, clients, limiter and dialect, and these settings. */
export type CreateRfqContext = Pick<
  WorkerServices,
  'redis' | 'keys' | 'client' | 'listingClient' | 'limiter' | 'dialects' | 'logger'
> & {
  config: CreateRfqConfig;
} & Partial<Pick<WorkerServices, 'audit'>>;

/** The settings the create protocol reads: the POST's deadline, the reconcile's, replica waits and header pushes. */
export type CreateRfqConfig = Pick<
  SettingValues<typeof serviceSettings>,
  'SOURCING_CALL_DEADLINE_MS' | 'PUSH_HEADER_CHANGES'
> &
  SettingValues<typeof reconcileSettings> &
  Pick<SettingValues<typeof redisSettings>, 'REDIS_WAIT_REPLICAS' | 'REDIS_WAIT_TIMEOUT_MS'> &
  Pick<SettingValues<typeof outputSettings>, 'REQUISITION_CURRENCY'>;

/** The account's reconcile coordinator for this context (src/creation/reconcile-coordinator.ts). */
export function reconcilerOf(ctx: CreateRfqContext): ReconcileCoordinator {
  const c = ctx.config;
  return createReconcileCoordinator({
    redis: ctx.redis,
    keys: ctx.keys,
    listingClient: ctx.listingClient,
    dialect: () => ctx.dialects.get(),
    learnEcho: (echo, evidence) => ctx.dialects.learn({ echo, evidence }),
    lagSuspect: (evidence) =>
      ctx.dialects.learn({ lagStale: true, evidence: `list lag: measured again (${evidence})` }),
    logger: ctx.logger,
    settleFloorMs: c.SOURCING_LIST_SETTLE_MS,
    settleUnmeasuredMs: c.SOURCING_LIST_SETTLE_UNMEASURED_MS,
    maxIncompleteWalks: c.RECONCILE_MAX_WALKS,
  });
}

/**
 * The protocol's dependencies for this context: built once per worker by createRfqProcessor (one reconcile
 * coordinator and lag probe for all its jobs), or by a caller that runs the protocol itself.
 */
export function creatorDeps(ctx: CreateRfqContext): CreatorDeps {
  const c = ctx.config;
  const replicas = c.REDIS_WAIT_REPLICAS ?? 0;
  // The lease covers the whole POST: its deadline (request to the last byte of the answer, whatever trickles), the
  // replica wait between the lease and the request, and a margin for scheduling (the lease runs on Redis's clock,
  // so host clocks do not matter); what is left of it when the request goes out bounds the POST (rfq-creator.ts).
  const postLeaseMs = c.SOURCING_CALL_DEADLINE_MS + (replicas > 0 ? c.REDIS_WAIT_TIMEOUT_MS : 0) + 2_000;
  const lagProbe = createLagProbe({
    redis: ctx.redis,
    keys: ctx.keys,
    port: ctx.listingClient,
    dialects: ctx.dialects,
    logger: ctx.logger,
  });
  return {
    store: createIdempotencyStore(ctx.redis, ctx.keys),
    client: ctx.client,
    limiter: ctx.limiter,
    logger: ctx.logger,
    postDeadlineMs: c.SOURCING_CALL_DEADLINE_MS,
    postLeaseMs,
    claimLeaseMs: postLeaseMs,
    track: (rfqId, requisition) => trackRfq(ctx, { rfqId, requisition }),
    replicated:
      replicas > 0
        ? replicationWait({
            redis: ctx.redis,
            keys: ctx.keys,
            replicas,
            timeoutMs: c.REDIS_WAIT_TIMEOUT_MS,
          })
        : undefined,
    headerPusher: c.PUSH_HEADER_CHANGES
      ? createHeaderPusher({
          client: ctx.client,
          dialect: () => ctx.dialects.get(),
          learnEdit: (edit, evidence) => ctx.dialects.learn({ edit, evidence }),
        })
      : undefined,
    reconciler: reconcilerOf(ctx),
    onPosted: (rfqId, answeredAt) => lagProbe.afterCreate(rfqId, answeredAt),
    audit: ctx.audit,
  };
}

/** What this job returns: BullMQ keeps it as the job's return value. */
export type CreateRfqResult = CreateOutcome;

/** The queue's processor for a worker: the protocol's wiring is built here, once, and serves every job it runs. */
export function createRfqProcessor(ctx: CreateRfqContext & CreateJobContext): (job: Job) => Promise<CreateRfqResult> {
  const deps = creatorDeps(ctx);
  return (job) => processCreateRfq(ctx, deps, job);
}

/** What a create-rfq job reads of the context beside the protocol's wiring. */
type CreateJobContext = Pick<WorkerServices, 'authGate' | 'state' | 'notify' | 'tokens'> & {
  config: Pick<SettingValues<typeof jobSettings>, 'JOB_BACKOFF_MS'>;
};

export async function processCreateRfq(ctx: CreateJobContext, deps: CreatorDeps, job: Job): Promise<CreateRfqResult> {
  const { requisition } = parseJob(createRfqQueue, job).data;
  if (ctx.authGate.isPaused()) return delay(job, AUTH_RETRY_MS);
  // Redis lost its state (src/redis/state-epoch.ts): nothing is claimed until `rfq-sync recover`
  if (ctx.state.lost()) return delay(job, LOST_STATE_RETRY_MS);

  const tokenFingerprint = ctx.tokens.fingerprint(); // the token this attempt's calls go out with
  let outcome: CreateOutcome;
  try {
    outcome = await createRfqOnce(deps, requisition);
  } catch (err) {
    if (err instanceof AttemptBusyError || err instanceof ThrottledError) return delay(job, err.waitMs);
    if (err instanceof RateLimitError) return delay(job, err.retryAfterMs ?? ctx.config.JOB_BACKOFF_MS);
    if (err instanceof AuthError) {
      await ctx.authGate.pause(err.message, tokenFingerprint);
      return delay(job, AUTH_RETRY_MS);
    }
    throw err;
  }
  if (outcome.status === 'rejected') throw new UnrecoverableError(outcome.reason ?? 'rejected by the sourcing service');
  if (outcome.status === 'undecided') await ctx.notify.emit(decisionEvent(requisition, outcome));
  return outcome;
}

async function delay(job: Job, ms: number): Promise<never> {
  await job.moveToDelayed(Date.now() + Math.max(1, Math.ceil(ms)), job.token);
  throw new DelayedError();
}

/** IT is told that a requisition waits for `rfq-sync resolve`. */
function decisionEvent(r: Requisition, o: CreateOutcome) {
  return requisitionDecision.event({
    requisition: o.requisitionId,
    sourceFile: r.sourceFile,
    profile: r.profile,
    reason: o.reason ?? 'the match is ambiguous',
    candidates: o.rfqIds ?? [],
  });
}

/** What became of the requisition; a create refused for good is a step too (jobs/audit-lines.ts). */
export const auditLines: AuditLines<CreateRfqResult> = {
  end: createEvents,
  /**
   * The job fails with UnrecoverableError. Not a payload its schema refuses: no requisition was read (and such a
   * payload must fail named, whatever it holds).
   */
  failed(_ctx, job, err) {
    if (!(err instanceof Error) || err.name !== 'UnrecoverableError') return [];
    const payload = createRfqPayloadSchema.safeParse(job.data);
    if (!payload.success) return [];
    const r = payload.data.requisition;
    return [
      {
        event: 'create-sent',
        summary: `requisition ${r.profile}/${r.key} rejected: ${err.message}`,
        ...requisitionIdentity(r),
        outcome: 'rejected',
        reason: err.message.slice(0, 500),
      },
    ];
  },
};

async function createEvents(ctx: AuditLinesContext, job: Job, o: CreateRfqResult): Promise<AuditEvent[]> {
  const r = parseJob(createRfqQueue, job).data.requisition;
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
      ...requisitionIdentity(r),
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
