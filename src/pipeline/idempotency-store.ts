/**
 * Idempotency records in Redis: the claim / reconcile / record protocol of docs/architecture.md#exactly-once-creation.
 * Every state change is one Lua script, so a crash between two Redis calls cannot leave half a claim or half a record.
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
 *   postedFps    comma-separated fingerprints (fingerprint.ts) of every body posted for it; firstPostAt (ms)
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
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Requisition, RequisitionLine } from '../requisition.ts';
import type { HeaderOutcome, PostedHeader } from './header-push.ts';
import { requisitionId, type RedisKeys } from './redis-keys.ts';
import { ratePermitLua, type RateLimiter } from './rate-limiter.ts';
import { defineScript, type ScriptCaller } from './redis-scripts.ts';

export type RequisitionState = 'pending' | 'creating' | 'created' | 'rejected' | 'undecided';

/** Product, specification, uom, qty, estimated_price: what "the line changed" means for a re-export. */
export type LineFingerprint = [string, string, string, number, number | null];

export function lineFingerprint(l: RequisitionLine): LineFingerprint {
  return [l.product_name, l.specification ?? '', l.uom ?? '', l.qty, l.estimated_price ?? null];
}

export function hashOf(value: unknown, length = 16): string {
  return createHash('sha256').update(JSON.stringify(value)).digest('hex').slice(0, length);
}

export type ClaimResult =
  | { status: 'claimed'; previous: RequisitionState | undefined; claimed: string[]; posting: boolean }
  | { status: 'created'; rfqId: number }
  | { status: 'rejected'; reason: string }
  | { status: 'undecided'; reason: string }
  | { status: 'busy'; waitMs: number }
  | { status: 'conflict'; conflicts: Array<{ externalId: string; heldBy: string }> };

export interface RequisitionRecord {
  id: string;
  state: RequisitionState;
  key?: string;
  profile?: string;
  sourceFile?: string;
  title?: string;
  rfqId?: number;
  createdAt?: number;
  how?: 'posted' | 'adopted';
  positions: Record<string, number>;
  lines: Record<string, LineFingerprint>;
  claimed: string[];
  attempts: number;
  reason?: string;
  changes?: LineChange[];
  supplements: string[];
  /** Fingerprints of every body posted for it (fingerprint.ts). */
  postedFps: string[];
  /** Redis ms of its first POST. */
  firstPostAt?: number;
  /** The RFQ's header as posted (or last pushed); absent on records made before headers were kept. */
  header?: PostedHeader;
  /** The last re-export's header changes. */
  headerChanges?: HeaderOutcome;
}

export interface LineChange {
  externalId: string;
  /** `changed`: a line of the RFQ differs in the re-export; `conflict`: a new line's external_id is held elsewhere. */
  kind: 'changed' | 'conflict';
  fields?: Array<{ field: string; was: string | number | null; now: string | number | null }>;
  heldBy?: string;
}

// ------------------------------------------------------------------------------------------------ scripts

/*
 * Claim.
 * KEYS[1] claim table (hash external_id -> requisition id)
 * KEYS[2] the requisition's record (hash)
 * KEYS[3] requisition index (zset id -> first-seen ms)
 * KEYS[4] rate-limit window, KEYS[5] Retry-After hold-off, KEYS[6] rate schedule (rate-limiter.ts)
 * ARGV[1] requisition id      ARGV[2] attempt token     ARGV[3] lease ms         ARGV[4] content hash
 * ARGV[5] key                 ARGV[6] profile           ARGV[7] source file      ARGV[8] title
 * ARGV[9] calls per window ('' = take no permit)  ARGV[10] window ms  ARGV[11] permit member  ARGV[12] post lease ms
 * ARGV[13] fingerprint of the body to post   ARGV[14..] external_ids
 * When nothing needs reconciling and a permit is free, the same step takes the permit and marks the requisition
 * `creating` (as beginPost does): the caller posts at once.
 * Returns {'created', rfqId} | {'rejected', reason} | {'undecided', reason} | {'busy', waitMs} | {'conflict', id1, holder1, ...}
 *       | {'claimed', previousState, claimedJson, permitWaitMs} | {'posting', previousState, claimedJson}
 */
const CLAIM = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local rec = KEYS[2]
local state = redis.call('HGET', rec, 'state')
if state == 'created' then return {'created', redis.call('HGET', rec, 'rfqId')} end
if state == 'undecided' then return {'undecided', redis.call('HGET', rec, 'reason') or ''} end
if state == 'rejected' and redis.call('HGET', rec, 'contentHash') == ARGV[4] then
  return {'rejected', redis.call('HGET', rec, 'reason') or ''}
end
if state == 'creating' or state == 'pending' then
  local lease = tonumber(redis.call('HGET', rec, 'leaseUntil') or '0') or 0
  if lease > now and redis.call('HGET', rec, 'token') ~= ARGV[2] then return {'busy', tostring(lease - now)} end
end
local conflicts = {}
for i = 14, #ARGV do
  local holder = redis.call('HGET', KEYS[1], ARGV[i])
  if holder and holder ~= ARGV[1] then
    conflicts[#conflicts + 1] = ARGV[i]
    conflicts[#conflicts + 1] = holder
  end
end
if #conflicts > 0 then
  table.insert(conflicts, 1, 'conflict')
  return conflicts
end
local claimed = {}
local seen = {}
local old = redis.call('HGET', rec, 'claimed')
if old then
  for _, e in ipairs(cjson.decode(old)) do
    if not seen[e] then seen[e] = true; claimed[#claimed + 1] = e end
  end
end
for i = 14, #ARGV do
  redis.call('HSET', KEYS[1], ARGV[i], ARGV[1])
  if not seen[ARGV[i]] then seen[ARGV[i]] = true; claimed[#claimed + 1] = ARGV[i] end
end
local claimedJson = cjson.encode(claimed)
-- a rejected requisition re-exported with other content starts afresh: nothing was posted for it
local previous = state
if state == 'rejected' then previous = 'pending' end
redis.call('HSET', rec, 'state', (previous == 'creating') and 'creating' or 'pending',
  'token', ARGV[2], 'leaseUntil', tostring(now + tonumber(ARGV[3])), 'attemptAt', tostring(now),
  'contentHash', ARGV[4], 'key', ARGV[5], 'profile', ARGV[6], 'sourceFile', ARGV[7], 'title', ARGV[8],
  'claimed', claimedJson)
redis.call('HDEL', rec, 'reason', 'rejectedAt')
redis.call('HINCRBY', rec, 'attempts', 1)
redis.call('ZADD', KEYS[3], 'NX', now, ARGV[1])
if ARGV[9] == '' or previous == 'creating' then return {'claimed', previous or '', claimedJson, '0'} end
${ratePermitLua({ window: 'KEYS[4]', hold: 'KEYS[5]', tat: 'KEYS[6]' }, 'ARGV[9]', 'ARGV[10]', '0', 'ARGV[11]')}
if wait > 0 then return {'claimed', previous or '', claimedJson, tostring(wait)} end
redis.call('HSET', rec, 'state', 'creating', 'reconciled', ARGV[2], 'leaseUntil', tostring(now + tonumber(ARGV[12])))
local fps = redis.call('HGET', rec, 'postedFps') or ''
if not string.find(',' .. fps .. ',', ',' .. ARGV[13] .. ',', 1, true) then
  redis.call('HSET', rec, 'postedFps', (fps == '') and ARGV[13] or (fps .. ',' .. ARGV[13]))
end
redis.call('HSETNX', rec, 'firstPostAt', tostring(now))
return {'posting', previous or '', claimedJson}
`;

/*
 * About to post: still ours? then mark `creating` (from here on the outcome may be ambiguous) with a fresh lease,
 * and note the fingerprint of what is posted. KEYS[1] record. ARGV[1] token, ARGV[2] lease ms, ARGV[3] fingerprint.
 * Returns 1, or 0 when another attempt took the requisition over.
 */
const BEGIN_POST = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local state = redis.call('HGET', KEYS[1], 'state')
if redis.call('HGET', KEYS[1], 'token') ~= ARGV[1] or (state ~= 'pending' and state ~= 'creating') then return 0 end
-- from pending, nothing existed before this post: a refusal of it may go back to pending (see END_ATTEMPT)
if state == 'pending' then redis.call('HSET', KEYS[1], 'reconciled', ARGV[1]) end
redis.call('HSET', KEYS[1], 'state', 'creating', 'leaseUntil', tostring(now + tonumber(ARGV[2])))
local fps = redis.call('HGET', KEYS[1], 'postedFps') or ''
if not string.find(',' .. fps .. ',', ',' .. ARGV[3] .. ',', 1, true) then
  redis.call('HSET', KEYS[1], 'postedFps', (fps == '') and ARGV[3] or (fps .. ',' .. ARGV[3]))
end
redis.call('HSETNX', KEYS[1], 'firstPostAt', tostring(now))
return 1
`;

/*
 * Park a requisition whose reconcile is ambiguous (KEYS[1] record; ARGV[1] token, ARGV[2] reason): only from
 * `creating` and only by the attempt holding it. Returns 1 when parked.
 */
const PARK = `
if redis.call('HGET', KEYS[1], 'token') ~= ARGV[1] or redis.call('HGET', KEYS[1], 'state') ~= 'creating' then return 0 end
redis.call('HSET', KEYS[1], 'state', 'undecided', 'reason', ARGV[2], 'leaseUntil', '0')
return 1
`;

/*
 * Seed a requisition for `rfq-sync recover` (Redis lost its state; the requisition's RFQ may exist): only where no
 * record exists, as `creating` with its external_ids claimed and the fingerprint of the body it would post noted as
 * posted, so the next attempt reconciles (walk, match by external_id or fingerprint) before any post.
 * KEYS[1] claim table, KEYS[2] record, KEYS[3] requisition index.
 * ARGV[1] requisition id, ARGV[2] content hash, ARGV[3] key, ARGV[4] profile, ARGV[5] source file, ARGV[6] title,
 * ARGV[7] fingerprint, ARGV[8..] external_ids.
 * Returns {'seeded'} | {'exists', state} | {'conflict', external_id, holder, ...}
 */
const SEED_FOR_RECOVERY = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local state = redis.call('HGET', KEYS[2], 'state')
if state then return {'exists', state} end
local conflicts = {}
for i = 8, #ARGV do
  local holder = redis.call('HGET', KEYS[1], ARGV[i])
  if holder and holder ~= ARGV[1] then
    conflicts[#conflicts + 1] = ARGV[i]
    conflicts[#conflicts + 1] = holder
  end
end
if #conflicts > 0 then
  table.insert(conflicts, 1, 'conflict')
  return conflicts
end
local claimed = {}
for i = 8, #ARGV do
  redis.call('HSET', KEYS[1], ARGV[i], ARGV[1])
  claimed[#claimed + 1] = ARGV[i]
end
redis.call('HSET', KEYS[2], 'state', 'creating', 'leaseUntil', '0', 'attemptAt', tostring(now), 'contentHash', ARGV[2],
  'key', ARGV[3], 'profile', ARGV[4], 'sourceFile', ARGV[5], 'title', ARGV[6], 'claimed', cjson.encode(claimed),
  'postedFps', ARGV[7], 'recovered', tostring(now))
redis.call('ZADD', KEYS[3], 'NX', now, ARGV[1])
return {'seeded'}
`;

/*
 * A person decided to post again (`rfq-sync resolve --post`): undecided -> pending, known that nothing of ours is
 * at the service. KEYS[1] record. Returns 1 when it was undecided.
 */
const UNPARK_TO_POST = `
if redis.call('HGET', KEYS[1], 'state') ~= 'undecided' then return 0 end
redis.call('HSET', KEYS[1], 'state', 'pending', 'leaseUntil', '0')
redis.call('HDEL', KEYS[1], 'reason', 'token')
return 1
`;

/*
 * The attempt is over without an answer that settles it. KEYS[1] record. ARGV[1] token, ARGV[2] one of
 *   'pending'  - this attempt's post was refused (429, 401/403): nothing was created, provided nothing existed
 *                before it either (`reconciled` = this token: it came from pending or reconciled and found nothing);
 *   'creating' - the post may have created the RFQ (5xx, reset, time-out): the next attempt reconciles;
 *   'release'  - failed before posting: state unchanged.
 * Always drops the lease so the next attempt need not wait for it. Returns 0 when the attempt no longer holds it.
 */
const END_ATTEMPT = `
local state = redis.call('HGET', KEYS[1], 'state')
if redis.call('HGET', KEYS[1], 'token') ~= ARGV[1] or (state ~= 'pending' and state ~= 'creating') then return 0 end
if ARGV[2] == 'creating' then
  redis.call('HSET', KEYS[1], 'state', 'creating')
  redis.call('HDEL', KEYS[1], 'reconciled')
elseif ARGV[2] == 'pending' and redis.call('HGET', KEYS[1], 'reconciled') == ARGV[1] then
  redis.call('HSET', KEYS[1], 'state', 'pending')
end
redis.call('HSET', KEYS[1], 'leaseUntil', '0')
return 1
`;

/*
 * Record the RFQ: one step for the requisition, its claim table entries and the tracking record.
 * KEYS[1] claim table  KEYS[2] record  KEYS[3] RFQ tracking hash  KEYS[4] tracked RFQ set
 * ARGV[1] requisition id  ARGV[2] rfqId  ARGV[3] positions JSON  ARGV[4] lines JSON  ARGV[5] how
 * ARGV[6] requisition key  ARGV[7] source file  ARGV[8] profile  ARGV[9] title
 * ARGV[10..] external_ids to release (claimed by the requisition but not in an adopted RFQ)
 * Returns {'recorded'} | {'same'} | {'duplicate', existingRfqId}
 */
const RECORD = `
local t = redis.call('TIME')
local now = tostring(tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000))
local rec = KEYS[2]
if redis.call('HGET', rec, 'state') == 'created' then
  local existing = redis.call('HGET', rec, 'rfqId')
  if existing == ARGV[2] then return {'same'} end
  return {'duplicate', existing}
end
redis.call('HSET', rec, 'state', 'created', 'rfqId', ARGV[2], 'positions', ARGV[3], 'lines', ARGV[4], 'how', ARGV[5],
  'createdAt', now, 'leaseUntil', '0')
redis.call('HDEL', rec, 'reason', 'rejectedAt')
local kept = {}
for e, _ in pairs(cjson.decode(ARGV[3])) do kept[e] = true end
local claimed = {}
for i = 10, #ARGV do
  if redis.call('HGET', KEYS[1], ARGV[i]) == ARGV[1] then redis.call('HDEL', KEYS[1], ARGV[i]) end
end
local old = redis.call('HGET', rec, 'claimed')
if old then
  for _, e in ipairs(cjson.decode(old)) do if kept[e] then claimed[#claimed + 1] = e end end
  redis.call('HSET', rec, 'claimed', cjson.encode(claimed))
end
redis.call('HSETNX', KEYS[3], 'requisitionKey', ARGV[6])
redis.call('HSETNX', KEYS[3], 'requisitionId', ARGV[1])
redis.call('HSETNX', KEYS[3], 'sourceFile', ARGV[7])
redis.call('HSETNX', KEYS[3], 'profile', ARGV[8])
redis.call('HSETNX', KEYS[3], 'title', ARGV[9])
redis.call('HSETNX', KEYS[3], 'createdAt', now)
redis.call('SADD', KEYS[4], ARGV[2])
return {'recorded'}
`;

/*
 * Permanent refusal. KEYS[1] record  KEYS[2] requisition index
 * ARGV[1] requisition id  ARGV[2] token ('' when nothing was claimed)  ARGV[3] reason  ARGV[4] content hash
 * ARGV[5] key  ARGV[6] profile  ARGV[7] source file  ARGV[8] title
 * Never overrides `created` or `undecided` (an RFQ may exist), nor an attempt another worker holds. Returns 1 when written.
 */
const REJECT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local state = redis.call('HGET', KEYS[1], 'state')
if state == 'created' or state == 'undecided' then return 0 end
if (state == 'creating' or state == 'pending') and redis.call('HGET', KEYS[1], 'token') ~= ARGV[2] then
  local lease = tonumber(redis.call('HGET', KEYS[1], 'leaseUntil') or '0') or 0
  if state == 'creating' or lease > now then return 0 end
end
redis.call('HSET', KEYS[1], 'state', 'rejected', 'reason', ARGV[3], 'rejectedAt', tostring(now), 'contentHash', ARGV[4],
  'key', ARGV[5], 'profile', ARGV[6], 'sourceFile', ARGV[7], 'title', ARGV[8], 'leaseUntil', '0')
redis.call('ZADD', KEYS[2], 'NX', now, ARGV[1])
return 1
`;

/* Mark that THIS attempt reconciled and found nothing. KEYS[1] record, ARGV[1] token. */
const MARK_RECONCILED = `
if redis.call('HGET', KEYS[1], 'token') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'reconciled', ARGV[1])
return 1
`;

// ------------------------------------------------------------------------------------------------ store

export interface IdempotencyStore {
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
    fingerprint?: string,
  ): Promise<ClaimResult>;
  /** After a reconcile that found nothing: a refusal of this attempt's post may now set `pending`. */
  markReconciled(id: string, token: string): Promise<boolean>;
  /** Returns false when the requisition is no longer this attempt's (do not post). */
  beginPost(id: string, token: string, leaseMs: number, fingerprint: string): Promise<boolean>;
  /** The reconcile is ambiguous: `undecided` until a person resolves it. False when the attempt no longer holds it. */
  park(id: string, token: string, reason: string): Promise<boolean>;
  /** `resolve --post`: undecided -> pending (the next attempt posts). False when it was not undecided. */
  unparkToPost(id: string): Promise<boolean>;
  /** `rfq-sync recover`: a requisition whose RFQ may exist, seeded to reconcile before any post (SEED_FOR_RECOVERY). */
  seedForRecovery(r: Requisition, contentHash: string, fingerprint: string): Promise<{ status: 'seeded' } | { status: 'exists'; state: string } | { status: 'conflict'; conflicts: Array<{ externalId: string; heldBy: string }> }>;
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
  /** Requisitions whose re-export changed them after their RFQ existed, latest first (keys.key('changed')). */
  recentlyChanged(count: number): Promise<Array<{ id: string; at: number }>>;
  addSupplement(id: string, supplementId: string): Promise<void>;
  /** Holders of these external_ids (undefined when free). */
  holders(externalIds: readonly string[]): Promise<Array<string | undefined>>;
  get(id: string): Promise<RequisitionRecord | undefined>;
  /** Requisition ids, oldest first. */
  list(offset?: number, count?: number): Promise<string[]>;
  count(): Promise<number>;
}

export function createIdempotencyStore(redis: Redis, keys: RedisKeys): IdempotencyStore {
  const claimS = defineScript(redis, 'rfqSyncClaim5', 6, CLAIM);
  const beginS = defineScript(redis, 'rfqSyncBeginPost2', 1, BEGIN_POST);
  const endS = defineScript(redis, 'rfqSyncEndAttempt', 1, END_ATTEMPT);
  const recordS = defineScript(redis, 'rfqSyncRecord', 4, RECORD);
  const rejectS = defineScript(redis, 'rfqSyncReject', 2, REJECT);
  const reconciledS = defineScript(redis, 'rfqSyncMarkReconciled', 1, MARK_RECONCILED);
  const parkS = defineScript(redis, 'rfqSyncPark', 1, PARK);
  const unparkS = defineScript(redis, 'rfqSyncUnparkToPost', 1, UNPARK_TO_POST);
  const seedS = defineScript(redis, 'rfqSyncSeedForRecovery', 3, SEED_FOR_RECOVERY);
  const idOf = (r: Requisition) => `${r.profile}/${r.key}`;
  const meta = (r: Requisition) => [r.key, r.profile, r.sourceFile, r.title];

  return {
    async claim(r, token, contentHash, leaseMs, permit, fingerprint = '') {
      const id = idOf(r);
      const l = permit?.limiter;
      const res = (await claimS(
        [
          keys.externalIds, keys.requisition(id), keys.requisitions,
          l?.keys.window ?? keys.key('rate', 'window'), l?.keys.hold ?? keys.key('rate', 'hold'), l?.keys.tat ?? keys.key('rate', 'tat'),
        ],
        [
          id, token, leaseMs, contentHash, ...meta(r),
          l ? l.perSecond : '', l ? l.windowMs : 0, l ? `${token}:claim` : '', permit?.postLeaseMs ?? 0, fingerprint,
          ...r.lines.map((x) => x.external_id),
        ],
      )) as string[];
      switch (res[0]) {
        case 'created':
          return { status: 'created', rfqId: Number(res[1]) };
        case 'rejected':
          return { status: 'rejected', reason: res[1] ?? '' };
        case 'undecided':
          return { status: 'undecided', reason: res[1] ?? '' };
        case 'busy':
          return { status: 'busy', waitMs: Number(res[1]) };
        case 'conflict': {
          const conflicts: Array<{ externalId: string; heldBy: string }> = [];
          for (let i = 1; i + 1 < res.length; i += 2) conflicts.push({ externalId: res[i]!, heldBy: res[i + 1]! });
          return { status: 'conflict', conflicts };
        }
        case 'claimed':
        case 'posting':
          return {
            status: 'claimed',
            previous: (res[1] || undefined) as RequisitionState | undefined,
            claimed: JSON.parse(res[2] ?? '[]') as string[],
            posting: res[0] === 'posting',
          };
        default:
          throw new Error(`claim script answered ${String(res[0])}`);
      }
    },
    async markReconciled(id, token) {
      return Number(await reconciledS([keys.requisition(id)], [token])) === 1;
    },
    async beginPost(id, token, leaseMs, fingerprint) {
      return Number(await beginS([keys.requisition(id)], [token, leaseMs, fingerprint])) === 1;
    },
    async park(id, token, reason) {
      return Number(await parkS([keys.requisition(id)], [token, reason])) === 1;
    },
    async unparkToPost(id) {
      return Number(await unparkS([keys.requisition(id)], [])) === 1;
    },
    async seedForRecovery(r, contentHash, fingerprint) {
      const id = requisitionId(r);
      const res = (await seedS(
        [keys.externalIds, keys.requisition(id), keys.requisitions],
        [id, contentHash, r.key, r.profile, r.sourceFile, r.title, fingerprint, ...r.lines.map((l) => l.external_id)],
      )) as string[];
      if (res[0] === 'seeded') return { status: 'seeded' };
      if (res[0] === 'exists') return { status: 'exists', state: res[1] ?? '' };
      const conflicts: Array<{ externalId: string; heldBy: string }> = [];
      for (let i = 1; i + 1 < res.length; i += 2) conflicts.push({ externalId: res[i]!, heldBy: res[i + 1]! });
      return { status: 'conflict', conflicts };
    },
    async endAttempt(id, token, outcome) {
      await endS([keys.requisition(id)], [token, outcome]);
    },
    async record(r, rfqId, lines, how, release) {
      const id = idOf(r);
      const positions: Record<string, number> = {};
      const fps: Record<string, LineFingerprint> = {};
      for (const { line, position } of lines) {
        positions[line.external_id] = position;
        fps[line.external_id] = lineFingerprint(line);
      }
      const res = (await recordS(
        [keys.externalIds, keys.requisition(id), keys.rfq(rfqId), keys.trackedRfqs],
        [id, rfqId, JSON.stringify(positions), JSON.stringify(fps), how, r.key, r.sourceFile, r.profile, r.title, ...release],
      )) as string[];
      if (res[0] === 'duplicate') return { status: 'duplicate', existingRfqId: Number(res[1]) };
      return { status: res[0] === 'same' ? 'same' : 'recorded' };
    },
    async reject(r, token, reason, contentHash) {
      const id = idOf(r);
      return Number(await rejectS([keys.requisition(id), keys.requisitions], [id, token, reason, contentHash, ...meta(r)])) === 1;
    },
    async clearRejection(id) {
      // Only a rejected record: compare-and-set through WATCH would be overkill for an operator command; a record
      // that is not rejected has no contentHash change here, so the claim decides as usual.
      const rec = keys.requisition(id);
      if ((await redis.hget(rec, 'state')) === 'rejected') await redis.hset(rec, 'contentHash', 'cleared-for-retry');
    },
    async saveChanges(id, changes) {
      const now = Date.now();
      await redis.multi().hset(keys.requisition(id), 'changes', JSON.stringify(changes), 'changesAt', String(now)).zadd(keys.key('changed'), now, id).exec();
    },
    async saveHeader(id, header) {
      await redis.hset(keys.requisition(id), 'header', JSON.stringify(header));
    },
    async saveHeaderChanges(id, outcome) {
      const now = Date.now();
      await redis.multi().hset(keys.requisition(id), 'headerChanges', JSON.stringify(outcome), 'changesAt', String(now)).zadd(keys.key('changed'), now, id).exec();
    },
    async recentlyChanged(count) {
      const flat = await redis.zrevrange(keys.key('changed'), 0, count - 1, 'WITHSCORES');
      const out: Array<{ id: string; at: number }> = [];
      for (let i = 0; i + 1 < flat.length; i += 2) out.push({ id: flat[i]!, at: Number(flat[i + 1]) });
      return out;
    },
    async addSupplement(id, supplementId) {
      const rec = keys.requisition(id);
      const list = JSON.parse((await redis.hget(rec, 'supplements')) ?? '[]') as string[];
      if (!list.includes(supplementId)) await redis.hset(rec, 'supplements', JSON.stringify([...list, supplementId]));
    },
    async holders(externalIds) {
      if (externalIds.length === 0) return [];
      const res = await redis.hmget(keys.externalIds, ...externalIds);
      return res.map((h) => h ?? undefined);
    },
    async get(id) {
      const h = await redis.hgetall(keys.requisition(id));
      if (!h.state) return undefined;
      return {
        id,
        state: h.state as RequisitionState,
        key: h.key,
        profile: h.profile,
        sourceFile: h.sourceFile,
        title: h.title,
        rfqId: h.rfqId ? Number(h.rfqId) : undefined,
        createdAt: h.createdAt ? Number(h.createdAt) : undefined,
        how: h.how as 'posted' | 'adopted' | undefined,
        positions: JSON.parse(h.positions ?? '{}') as Record<string, number>,
        lines: JSON.parse(h.lines ?? '{}') as Record<string, LineFingerprint>,
        claimed: JSON.parse(h.claimed ?? '[]') as string[],
        attempts: Number(h.attempts ?? 0),
        reason: h.reason,
        changes: h.changes ? (JSON.parse(h.changes) as LineChange[]) : undefined,
        supplements: JSON.parse(h.supplements ?? '[]') as string[],
        postedFps: h.postedFps ? h.postedFps.split(',') : [],
        firstPostAt: h.firstPostAt ? Number(h.firstPostAt) : undefined,
        header: h.header ? (JSON.parse(h.header) as PostedHeader) : undefined,
        headerChanges: h.headerChanges ? (JSON.parse(h.headerChanges) as HeaderOutcome) : undefined,
      };
    },
    async list(offset = 0, count = 1000) {
      return redis.zrange(keys.requisitions, offset, offset + count - 1);
    },
    async count() {
      return redis.zcard(keys.requisitions);
    },
  };
}

/** Convenience for scripts and tests that need the raw callers. */
export type { ScriptCaller };
