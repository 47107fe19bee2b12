/**
 * Settings: Polling the RFQ lists and the overview it refreshes.
 * Part of the one configuration schema (src/settings/config.ts); each default is documented above its field, and the table
 * of docs/operations.md is generated from these comments (scripts/config-doc.ts).
 */
import { int, cron } from './fields.ts';

export const pollingSettings = {
  /**
   * The longest a poll may run, ms: a poll slowed by a trickling service ends with an error instead of holding the
   * next slots (keep it below the POLL_CRON interval). Default 240,000 (4 minutes; the default interval is 5).
   */
  POLL_MAX_MS: int(1_000, 86_400_000).default(240_000),
  /**
   * The lease of the account's poll lock (one poll at a time), ms, renewed every quarter of it while the poll runs:
   * after a worker died in the middle of a poll, the next polls skip until it runs out. Default 120,000 (2 minutes).
   */
  POLL_LOCK_MS: int(1_000, 3_600_000).default(120_000),
  /** When to list RFQs by status. Default every 5 minutes. */
  POLL_CRON: cron.default('*/5 * * * *'),
  /** Polls an RFQ may be missing from every list before it is flagged. Default 3. */
  MISSING_POLLS_BEFORE_FLAG: int(1, 1000).default(3),
  /**
   * The overview (`<outbox>/overview.xlsx`) is rewritten after every poll and, within this many ms, after comparison
   * workbooks are written: one rewrite for all the comparisons of that window. Default 5,000; 0: after polls only.
   */
  OVERVIEW_REFRESH_MS: int(0, 3_600_000).default(5_000),
};
