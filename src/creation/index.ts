/**
 * Exactly one RFQ per requisition: the idempotency store, the claim / reconcile / post / record protocol, and the
 * settling of a re-export (its changes reported, its header pushed).
 */
export { postedBodyOf } from './fingerprint.ts';
export { createHeaderPusher } from './header-push.ts';
export { createIdempotencyStore, type IdempotencyStore } from './idempotency-store.ts';
export {
  createReconcileCoordinator,
  type ParkedEntry,
  type ReconcileCoordinator,
  reconcileStatus,
} from './reconcile-coordinator.ts';
export { contentHashOf, createRfqOnce, type CreatorDeps } from './rfq-creator.ts';
export type { CreateOutcome } from './settle-existing.ts';
