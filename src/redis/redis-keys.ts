/**
 * Every Redis key of ours, in one place. All live under `${REDIS_PREFIX}:${account}:` so two sourcing accounts
 * sharing one Redis never collide (BullMQ's keys sit under the same namespace, `...:bull:`, see queues.ts).
 * Owners are named per key; a module that needs a new key adds it here.
 */

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

  // ---- auth pause (src/creation/auth-gate.ts)
  /** Hash: reason, since (ms), tokenFingerprint. Present while creation and polling are paused. */
  readonly authPause: string;

  /** Any further key under the namespace: `${base}:${parts.join(':')}`. */
  key(...parts: Array<string | number>): string;
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
    key: (...parts) => `${base}:${parts.join(':')}`,
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
