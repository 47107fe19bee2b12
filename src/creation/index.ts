/**
 * Exactly one RFQ per requisition: the idempotency store, the claim / reconcile / post / record protocol, and what
 * a re-export changes.
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
export { previewChanges, type ReexportChange } from './reexport-changes.ts';
export {
  AttemptBusyError,
  contentHashOf,
  type CreateOutcome,
  createRfqOnce,
  type CreatorDeps,
  toCreateRfqRequest,
} from './rfq-creator.ts';
