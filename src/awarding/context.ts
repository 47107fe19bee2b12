/** What the quotation pulls and comparison runs need from the worker context (a WorkerContext satisfies it). */
import type { WorkerContext } from '../worker/index.ts';
import type { WorkerConfig } from '../settings/index.ts';

/** The settings awarding reads: the workbook's, the price history's, the done files', the notices' and the overview's. */
export type AwardingConfig = Pick<
  WorkerConfig,
  | 'OVERVIEW_REFRESH_MS'
  | 'REQUISITION_CURRENCY'
  | 'TIME_ZONE'
  | 'QUOTATION_PRICE_BASIS'
  | 'PRINT_PAPER'
  | 'COMPARISON_SIGN_OFF'
  | 'PRICE_HISTORY_DAYS'
  | 'OUTBOX_DONE_FILES'
  | 'NOTIFY_MIN_QUOTATIONS'
  | 'account'
> & { folders: Pick<WorkerConfig['folders'], 'outbox' | 'comparisons' | 'awards'> };

/**
 * `dialects` is optional: without it (tests of awarding alone) an RFQ is found with the lower-case filter; `notify`
 * too: without it nobody is told.
 */
export type AwardingContext = Pick<WorkerContext, 'logger' | 'redis' | 'keys' | 'queues' | 'client'> & {
  config: AwardingConfig;
} & Partial<Pick<WorkerContext, 'dialects' | 'notify' | 'audit'>>;
