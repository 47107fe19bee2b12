/**
 * Settings: The reconcile after a lost create answer (docs/architecture.md#reconcile-after-a-lost-answer): how long
 * the lists must settle before they may prove an RFQ absent, and how long a requisition may wait for lists that
 * cannot be proven complete before a person is asked.
 * Part of the one configuration schema (src/settings/config.ts); each default is documented above its field, and the README's
 * table is generated from these comments (scripts/config-doc.ts).
 */
import { int } from './fields.ts';

export const reconcileSettings = {
  /**
   * The least time the RFQ lists are given to show an RFQ whose create answer was lost, counted from the end of that
   * POST's lease, before a walk of the lists may conclude it absent (and post again), ms. The account's list lag
   * is measured on our own creates and twice it is used when longer; until it is measured,
   * SOURCING_LIST_SETTLE_UNMEASURED_MS. Default 2,000.
   */
  SOURCING_LIST_SETTLE_MS: int(0, 3_600_000).default(2_000),
  /**
   * The settle time of the lists while the account's list lag is not measured yet (no create of ours answered
   * since Redis was set up or lost its state), ms. Default 30,000.
   */
  SOURCING_LIST_SETTLE_UNMEASURED_MS: int(0, 3_600_000).default(30_000),
  /**
   * Walks of the RFQ lists that could have decided a lost answer but could not prove the lists complete (they kept
   * changing, counted hidden RFQs, could not be paged), after which the requisition is parked for a person
   * (`rfq-sync status`, `rfq-sync resolve`) instead of waiting on. Default 30.
   */
  RECONCILE_MAX_WALKS: int(1, 100_000).default(30),
};
