/** What the quotation pulls and comparison runs need from the worker context (a WorkerContext satisfies it). */
import type { WorkerServices } from '../worker/index.ts';
import type {
  Folders,
  folderSettings,
  notifySettings,
  outputSettings,
  pollingSettings,
  SettingValues,
} from '../settings/index.ts';

/** The settings awarding reads: the workbook's, the price history's, the done files', the notices' and the overview's. */
export type AwardingConfig = SettingValues<typeof outputSettings> &
  Pick<SettingValues<typeof pollingSettings>, 'OVERVIEW_REFRESH_MS'> &
  Pick<SettingValues<typeof folderSettings>, 'OUTBOX_DONE_FILES'> &
  Pick<SettingValues<typeof notifySettings>, 'NOTIFY_MIN_QUOTATIONS'> & {
    account: string;
    folders: Pick<Folders, 'outbox' | 'comparisons' | 'awards'>;
  };

/**
 * `dialects` is optional: without it (tests of awarding alone) an RFQ is found with the lower-case filter; `notify`
 * too: without it nobody is told; `erp` too: without it no ERP files are written.
 */
export type AwardingContext = Pick<WorkerServices, 'logger' | 'redis' | 'keys' | 'queues' | 'client'> & {
  config: AwardingConfig;
} & Partial<Pick<WorkerServices, 'dialects' | 'notify' | 'audit' | 'erp'>>;
