/**
 * Where the audit log is and what its files are called: `<RFQ_SYNC_DIR>/audit/YYYY-MM-DD.<host>.jsonl`, one file per
 * UTC day and host (a shared data folder on a network share is not trusted with several hosts' appends to one file).
 */
import { join } from 'node:path';

/** The audit folder of a data folder. */
export function auditDir(root: string): string {
  return join(root, 'audit');
}

/** The host as it appears in file names: letters, digits, `.`, `_`, `-`. */
export function safeHost(h: string): string {
  return h.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 64) || 'host';
}

const FILE_NAME = /^(\d{4}-\d{2}-\d{2})\.([A-Za-z0-9._-]+)\.jsonl$/;

/** The UTC day and host of an audit file's name, or undefined for any other file. */
export function parseAuditFileName(name: string): { day: string; host: string } | undefined {
  const m = FILE_NAME.exec(name);
  return m ? { day: m[1]!, host: m[2]! } : undefined;
}

/** The day file of a host. */
export function auditFileName(day: string, host: string): string {
  return `${day}.${host}.jsonl`;
}
