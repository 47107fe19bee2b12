/**
 * Idempotency records in Redis: the claim / reconcile / record protocol of docs/architecture.md#exactly-once-creation.
 * Every state change is one Lua script, so a crash between two Redis calls cannot leave half a claim or half a record,
 * and two workers cannot lose each other's write. Written otherwise, each one command (atomic in itself) of fields no
 * script reads to decide anything:
 *   header         saveHeader: one HSET of the RFQ's header as now at the service (after a POST or a pushed edit);
 *                  the last writer wins, and both wrote what the service then held;
 *   changes, headerChanges, changesAt   saveChanges / saveHeaderChanges: one MULTI with the `changed` index, the
 *                  report of the latest re-export (the last writer's is the latest).
 *
 * Identity: a requisition is `${profile}/${key}` (requisitionId in redis-keys.ts): the mapping profile plus the
 * grouping key of the export (e.g. the PR number), not the file, so the same requisition in two files is one.
 * A supplementary requisition (lines added by a re-export) is `${profile}/${key}#supp-<hash of its external_ids>`.
 *
 * Records (keys.requisition(id), a hash):
 *   state        pending  - claimed, known that nothing was posted (after a refusal such as 429/401, or a reconcile
 *                           that found nothing before the post failed without leaving the process)
 *                creating - an attempt may have posted: the next attempt reconciles before posting
 *                created  - rfqId is known; never posted again
 *                rejected - permanently refused (4xx, invalid request, external_ids held by another requisition);
 *                           the same content is never retried, a changed re-export is
 *                undecided - after a lost answer, the reconcile found an ambiguous match (reason): nothing is posted
 *                           or adopted until a person decides (`rfq-sync resolve`)
 *   posted       JSON array of every body posted for it (fingerprint.ts PostedBody, once per fingerprint); each is also
 *                indexed by its title and line count in keys.key('posted', near) (a set of requisition ids: who may
 *                own an RFQ of that shape); firstPostAt (ms); postUntil (ms): the lease of the last POST, which ends
 *                before it (the reconcile proves absence only from lists read SOURCING_LIST_SETTLE_MS after it)
 *   token, leaseUntil   the attempt holding the requisition and until when (Redis clock, ms); another attempt
 *                       waits for the lease (it may still be posting) before it reconciles and posts
 *   claimed      JSON array, every external_id this requisition has claimed (the reconcile search set)
 *   lines        JSON {external_id: [product, spec, uom, qty, estimated_price]} of the lines in the RFQ (fingerprints)
 *   positions    JSON {external_id: position} in the RFQ; rfqId, createdAt, how (posted | adopted)
 *   contentHash  hash of the request body last claimed or rejected; reason, rejectedAt; changes (JSON), supplements
 *   header       JSON PostedHeader (header-push.ts): the RFQ's title and dates as posted or last pushed;
 *                (changesAt also indexes the requisition in keys.key('changed'), a zset id -> ms, for `status`)
 *                headerChanges (JSON HeaderOutcome): a re-export's header changes, pushed or only reported
 * keys.externalIds: hash external_id -> requisition id (the claim table).
 */
import type { Redis } from 'ioredis';
import { UnexpectedError, type Requisition, type RequisitionLine } from '../core/index.ts';
import { requisitionId, type RedisKeys } from '../redis/index.ts';
import {
  lineFingerprint,
  type HeaderOutcome,
  type LineChange,
  type LineFingerprint,
  type PostedBody,
  type PostedHeader,
  requisitionRecords,
  type RequisitionRecords,
  type RequisitionState,
} from '../requisitions/index.ts';
import type { RateLimiter } from '../account/index.ts';
import {
  defineIdempotencyScripts,
  type ClaimReply,
  type ConflictReply,
  type IdempotencyScripts,
} from './idempotency-scripts.ts';

export type ClaimResult =
  | { status: 'claimed'; previous: RequisitionState | undefined; claimed: string[]; posting: boolean }
  | { status: 'created'; rfqId: number }
  | { status: 'rejected'; reason: string }
  | { status: 'undecided'; reason: string }
  | { status: 'busy'; waitMs: number }
  | { status: 'conflict'; conflicts: Array<{ externalId: string; heldBy: string }> };

// ------------------------------------------------------------------------------------------------ store

/** The protocol's store; its reads are the requisition records' (src/requisitions/). */
export interface IdempotencyStore extends RequisitionRecords {
  /**
   * With `permit`, a claim that needs no reconcile also takes a rate-limit permit and begins the post when one is
   * free (`posting: true`: post now, no acquire/beginPost).
   */
  claim(
    r: Requisition,
    token: string,
    contentHash: string,
    leaseMs: number,
    permit?: { limiter: RateLimiter; postLeaseMs: number },
    posted?: PostedBody,
  ): Promise<ClaimResult>;
  /** After a reconcile that found nothing: a refusal of this attempt's post may now set `pending`. */
  markReconciled(id: string, token: string): Promise<boolean>;
  /** Returns false when the requisition is no longer this attempt's (do not post). */
  beginPost(id: string, token: string, leaseMs: number, posted: PostedBody): Promise<boolean>;
  /** The reconcile is ambiguous: `undecided` until a person resolves it. False when the attempt no longer holds it. */
  park(id: string, token: string, reason: string): Promise<boolean>;
  /** `resolve --post`: undecided -> pending (the next attempt posts). False when it was not undecided. */
  unparkToPost(id: string): Promise<boolean>;
  /** `rfq-sync recover`: a requisition whose RFQ may exist, seeded to reconcile before any post (seedForRecovery-4.lua). */
  seedForRecovery(
    r: Requisition,
    contentHash: string,
    posted: PostedBody,
  ): Promise<
    | { status: 'seeded' }
    | { status: 'exists'; state: string }
    | { status: 'conflict'; conflicts: Array<{ externalId: string; heldBy: string }> }
  >;
  endAttempt(id: string, token: string, outcome: 'pending' | 'creating' | 'release'): Promise<void>;
  record(
    r: Requisition,
    rfqId: number,
    lines: Array<{ line: RequisitionLine; position: number }>,
    how: 'posted' | 'adopted',
    release: readonly string[],
  ): Promise<{ status: 'recorded' | 'same' } | { status: 'duplicate'; existingRfqId: number }>;
  reject(r: Requisition, token: string, reason: string, contentHash: string): Promise<boolean>;
  /** Forget a rejection so an operator's retry may try again (`failed retry`). */
  clearRejection(id: string): Promise<void>;
  saveChanges(id: string, changes: LineChange[]): Promise<void>;
  /** The RFQ's header as it now is at the service (after a POST or a pushed edit). */
  saveHeader(id: string, header: PostedHeader): Promise<void>;
  saveHeaderChanges(id: string, outcome: HeaderOutcome): Promise<void>;
  addSupplement(id: string, supplementId: string): Promise<void>;
  /** Requisition ids, oldest first. */
  list(offset?: number, count?: number): Promise<string[]>;
  count(): Promise<number>;
}

/** The account's keys and the scripts defined on its connection: what every operation below works on. */
interface StoreState {
  redis: Redis;
  keys: RedisKeys;
  scripts: IdempotencyScripts;
}

export function createIdempotencyStore(redis: Redis, keys: RedisKeys): IdempotencyStore {
  const s: StoreState = {
    redis,
    keys,
    scripts: defineIdempotencyScripts(redis),
  };
  const recordKey = (id: string) => [keys.requisition(id)];

  return {
    ...requisitionRecords(redis, keys),
    claim: async (r, token, contentHash, leaseMs, permit, posted) =>
      claimResultOf(await claimScript(s, r, token, contentHash, leaseMs, permit, posted)),
    markReconciled: async (id, token) => (await s.scripts.markReconciled(recordKey(id), [token])) === 1,
    beginPost: async (id, token, leaseMs, posted) =>
      (await s.scripts.beginPost(
        [keys.requisition(id), keys.key('posted', posted.near)],
        [token, leaseMs, posted.fp, JSON.stringify(posted), id],
      )) === 1,
    park: async (id, token, reason) => (await s.scripts.park(recordKey(id), [token, reason])) === 1,
    unparkToPost: async (id) => (await s.scripts.unparkToPost(recordKey(id), [])) === 1,
    seedForRecovery: async (r, contentHash, posted) => seedForRecovery(s, r, contentHash, posted),
    endAttempt: async (id, token, outcome) => {
      await s.scripts.endAttempt(recordKey(id), [token, outcome]);
    },
    record: async (r, rfqId, lines, how, release) => recordRfq(s, r, rfqId, lines, how, release),
    reject: async (r, token, reason, contentHash) => rejectRequisition(s, r, token, reason, contentHash),
    clearRejection: async (id) => {
      await s.scripts.clearRejection(recordKey(id), []);
    },
    saveChanges: async (id, changes) => saveChangedField(s, id, 'changes', JSON.stringify(changes)),
    saveHeader: async (id, header) => {
      await redis.hset(keys.requisition(id), 'header', JSON.stringify(header));
    },
    saveHeaderChanges: async (id, outcome) => saveChangedField(s, id, 'headerChanges', JSON.stringify(outcome)),
    addSupplement: async (id, supplementId) => {
      await s.scripts.addSupplement(recordKey(id), [supplementId]);
    },
    list: async (offset = 0, count = 1000) => redis.zrange(keys.requisitions, offset, offset + count - 1),
    count: async () => redis.zcard(keys.requisitions),
  };
}

const idOf = (r: Requisition) => `${r.profile}/${r.key}`;
const meta = (r: Requisition) => [r.key, r.profile, r.sourceFile, r.title];

/** Runs claim-7.lua; with a permit, the script may also take a rate-limit permit and begin the post. */
async function claimScript(
  s: StoreState,
  r: Requisition,
  token: string,
  contentHash: string,
  leaseMs: number,
  permit: { limiter: RateLimiter; postLeaseMs: number } | undefined,
  posted: PostedBody | undefined,
): Promise<ClaimReply> {
  const { keys } = s;
  const id = idOf(r);
  const l = permit?.limiter;
  return s.scripts.claim(
    [
      keys.externalIds,
      keys.requisition(id),
      keys.requisitions,
      l?.keys.window ?? keys.key('rate', 'window'),
      l?.keys.hold ?? keys.key('rate', 'hold'),
      l?.keys.tat ?? keys.key('rate', 'tat'),
      keys.key('posted', posted?.near ?? 'none'),
    ],
    [
      id,
      token,
      leaseMs,
      contentHash,
      ...meta(r),
      l ? l.perSecond : '',
      l ? l.windowMs : 0,
      l ? `${token}:claim` : '',
      permit?.postLeaseMs ?? 0,
      posted?.fp ?? '',
      posted ? JSON.stringify(posted) : '',
      ...r.lines.map((x) => x.external_id),
    ],
  );
}

/** The claim script's answer as a ClaimResult. */
function claimResultOf(res: ClaimReply): ClaimResult {
  switch (res[0]) {
    case 'created':
      return { status: 'created', rfqId: Number(res[1]) };
    case 'rejected':
      return { status: 'rejected', reason: res[1] };
    case 'undecided':
      return { status: 'undecided', reason: res[1] };
    case 'busy':
      return { status: 'busy', waitMs: Number(res[1]) };
    case 'conflict':
      return { status: 'conflict', conflicts: conflictsOf(res) };
    case 'claimed':
    case 'posting':
      return {
        status: 'claimed',
        previous: (res[1] || undefined) as RequisitionState | undefined,
        claimed: JSON.parse(res[2]) as string[],
        posting: res[0] === 'posting',
      };
    default:
      throw new UnexpectedError(`claim script answered ${JSON.stringify(res)}`);
  }
}

/** A script's `conflict` answer: external_id, holder pairs after the status. */
function conflictsOf(res: ConflictReply): Array<{ externalId: string; heldBy: string }> {
  const conflicts: Array<{ externalId: string; heldBy: string }> = [];
  for (let i = 1; i + 1 < res.length; i += 2) conflicts.push({ externalId: res[i]!, heldBy: res[i + 1]! });
  return conflicts;
}

async function seedForRecovery(
  s: StoreState,
  r: Requisition,
  contentHash: string,
  posted: PostedBody,
): ReturnType<IdempotencyStore['seedForRecovery']> {
  const { keys } = s;
  const id = requisitionId(r);
  const res = await s.scripts.seedForRecovery(
    [keys.externalIds, keys.requisition(id), keys.requisitions, keys.key('posted', posted.near)],
    [
      id,
      contentHash,
      r.key,
      r.profile,
      r.sourceFile,
      r.title,
      posted.fp,
      JSON.stringify(posted),
      ...r.lines.map((l) => l.external_id),
    ],
  );
  if (res[0] === 'seeded') return { status: 'seeded' };
  if (res[0] === 'exists') return { status: 'exists', state: res[1] };
  return { status: 'conflict', conflicts: conflictsOf(res) };
}

async function recordRfq(
  s: StoreState,
  r: Requisition,
  rfqId: number,
  lines: Array<{ line: RequisitionLine; position: number }>,
  how: 'posted' | 'adopted',
  release: readonly string[],
): ReturnType<IdempotencyStore['record']> {
  const { keys } = s;
  const id = idOf(r);
  const positions: Record<string, number> = {};
  const fps: Record<string, LineFingerprint> = {};
  for (const { line, position } of lines) {
    positions[line.external_id] = position;
    fps[line.external_id] = lineFingerprint(line);
  }
  const res = await s.scripts.record(
    [keys.externalIds, keys.requisition(id), keys.rfq(rfqId), keys.trackedRfqs, keys.key('recon', 'created')],
    [
      id,
      rfqId,
      JSON.stringify(positions),
      JSON.stringify(fps),
      how,
      r.key,
      r.sourceFile,
      r.profile,
      r.title,
      ...release,
    ],
  );
  if (res[0] === 'duplicate') return { status: 'duplicate', existingRfqId: Number(res[1]) };
  return { status: res[0] === 'same' ? 'same' : 'recorded' };
}

async function rejectRequisition(
  s: StoreState,
  r: Requisition,
  token: string,
  reason: string,
  contentHash: string,
): Promise<boolean> {
  const id = idOf(r);
  const res = await s.scripts.reject(
    [s.keys.requisition(id), s.keys.requisitions],
    [id, token, reason, contentHash, ...meta(r)],
  );
  return res === 1;
}

/** A re-export's changes (`changes` or `headerChanges`), stamped and indexed in keys.key('changed') for `status`. */
async function saveChangedField(s: StoreState, id: string, field: string, json: string): Promise<void> {
  const now = Date.now();
  await s.redis
    .multi()
    .hset(s.keys.requisition(id), field, json, 'changesAt', String(now))
    .zadd(s.keys.key('changed'), now, id)
    .exec();
}
