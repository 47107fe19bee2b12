/**
 * What rfq-sync writes and keeps: retention of files and records, a full disk and an audit log that cannot be
 * written, and done files for the ERP.
 */
export { whileAuditWritable } from './audit-wait.ts';
export { delayForDiskFull } from './disk-full.ts';
export { writeDoneFiles } from './done-files.ts';
export {
  lastRetention,
  type RetentionResult,
  type RetentionScheduleConfig,
  startRetentionSchedule,
} from './retention.ts';
