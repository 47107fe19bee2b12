/**
 * Every Redis key of ours, in one place. All live under `${REDIS_PREFIX}:${account}:` so two sourcing accounts
 * sharing one Redis never collide (BullMQ's keys sit under the same namespace, `...:bull:`, see queues.ts).
 * Owners are named per key; a module that needs a new key adds it here (a named key above, or a family of
 * KEY_FAMILIES below with the files that read and write it: test/architecture/redis-access.test.ts holds every other
 * file to the owners' functions).
 */

/** The families of further keys (`key(family, ...parts)`), each with the files that read and write it. */
export const KEY_FAMILIES = {
  /** The claimant index of a posted body's title and line count (recovery and the reconcile walk match on it). */
  posted: ['src/creation/idempotency-store.ts', 'src/creation/reconcile-walker.ts'],
  /** Requisitions whose re-export changed them after their RFQ existed, by time. */
  changed: ['src/creation/idempotency-store.ts', 'src/requisitions/requisition-records.ts'],
  /** The shared rate limit's window, hold-off and schedule (claim-7.lua takes a permit in the claim's step). */
  rate: ['src/account/rate-limiter.ts', 'src/creation/idempotency-store.ts'],
  /** The reconcile coordinator's entries, walks and gate; the list-lag probe's lock; record-5's created index. */
  recon: ['src/creation/reconcile-coordinator.ts', 'src/account/lag-probe.ts', 'src/creation/idempotency-store.ts'],
  dialect: ['src/account/dialect-store.ts'],
  /** The token problems seen while paused (the pause itself is `authPause`). */
  auth: ['src/account/token-problems.ts'],
  /** Written before a WAIT for the replicas. */
  'replication-mark': ['src/redis/replication.ts'],
  epoch: ['src/redis/state-epoch.ts'],
  'state-lost': ['src/redis/state-epoch.ts'],
  'held-files': ['src/intake/held-files.ts'],
  'category-held-files': ['src/intake/category-held-files.ts'],
  intake: ['src/intake/intake-folder.ts'],
  'mapping-sets': ['src/intake/mapping-sets.ts'],
  retention: ['src/outbox/retention.ts'],
  /** The tracking store's records, lists, snapshots, poll history and lock. */
  trk: ['src/rfqs/store.ts'],
  awards: ['src/rfqs/withheld-awards.ts'],
  /** Final awards whose ERP files wait for the vendor cross-reference (RFQ id -> the award). */
  erp: ['src/awarding/erp-held.ts'],
  /** Every supplier seen in a quotation (key -> name), for `rfq-sync vendors --xref-draft`. */
  suppliers: ['src/vendors/suppliers-seen.ts'],
  /** The start of the last poll a webhook asked for (pollWake-1.lua). */
  hook: ['src/tracking/poll/poll-wake.ts'],
  /** The webhook path's figures and its targeted checks' budget per interval. */
  hint: ['src/rfqs/hint-stats.ts', 'src/tracking/poll/hint-check.ts'],
  vendors: ['src/vendors/vendor-store.ts'],
  /** The price history: final awards per product, and the set of products (src/awarding/price-history.ts). */
  prices: ['src/awarding/price-history.ts'],
  /** The notification routes' windows, marks and messages. */
  notify: ['src/notify/message-store.ts'],
  /** The audit log's faults, per host (its folder cannot be written): for `status`. */
  audit: ['src/audit/fault-record.ts'],
} as const satisfies Record<string, readonly string[]>;

export type KeyFamily = keyof typeof KEY_FAMILIES;

export interface RedisKeys {
  /** `${REDIS_PREFIX}:${account}`: the namespace itself. */
  readonly base: string;

  // ---- idempotency (src/creation/idempotency-store.ts)
  /** Hash external_id -> requisition id holding it (the claim table). */
  readonly externalIds: string;
  /** Hash of one requisition's record: state, token, rfqId, lines... (see idempotency-store.ts). */
  requisition(requisitionId: string): string;
  /** Sorted set of requisition ids, scored by first-seen time (ms): for `status` and reports. */
  readonly requisitions: string;

  // ---- RFQ tracking (src/tracking/**, minimal record written by create-rfq)
  /** Hash per created RFQ: requisitionKey, requisitionId, sourceFile, profile, title, createdAt (+ tracker fields). */
  rfq(rfqId: number | string): string;
  /** Set of RFQ ids the poller follows. */
  readonly trackedRfqs: string;

  // ---- file ledger (src/intake/file-*.ts)
  /** Hash sha256 -> JSON of what became of the file. */
  readonly fileLedger: string;

  // ---- auth pause (src/account/auth-gate.ts)
  /** Hash: reason, since (ms), tokenFingerprint. Present while creation and polling are paused. */
  readonly authPause: string;

  /** A further key under the namespace, of a family of KEY_FAMILIES: `${base}:${family}:${parts.join(':')}`. */
  readonly key: (family: KeyFamily, ...parts: Array<string | number>) => string;
}

export function redisKeys(prefix: string, account: string): RedisKeys {
  const base = `${prefix}:${account}`;
  return {
    base,
    externalIds: `${base}:ext`,
    requisition: (id) => `${base}:req:${id}`,
    requisitions: `${base}:reqs`,
    rfq: (rfqId) => `${base}:rfq:${rfqId}`,
    trackedRfqs: `${base}:rfqs:tracked`,
    fileLedger: `${base}:files`,
    authPause: `${base}:auth:pause`,
    key: (family, ...parts) => [base, family, ...parts].join(':'),
  };
}

/** Set of the accounts whose workers ran under this prefix (for commands given no account). */
export function accountsKey(prefix: string): string {
  return `${prefix}:accounts`;
}

/**
 * Identity of a requisition: its mapping profile plus its grouping key (e.g. the PR number), `${profile}/${key}`.
 * The source file is deliberately not part of it: the same requisition in two files, or re-exported later, is the
 * same requisition.
 */
export function requisitionId(r: { profile: string; key: string }): string {
  return `${r.profile}/${r.key}`;
}
