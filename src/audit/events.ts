/**
 * The audit log's events: one JSON line per step of a requisition's path from file to award (docs/operations.md,
 * "Where is my requisition"). Every line carries the identity fields below where they are known, so a line alone
 * says which requisition, RFQ and file it is about; the other fields are the step's own. Never a secret: no token,
 * no URL with credentials, no message text (only ids, counts, paths and hashes).
 */
import { scrubSecrets } from '../core/index.ts';

export const AUDIT_EVENTS = [
  'file-taken',
  'file-read',
  'requisition-accepted',
  'requisition-held',
  'create-sent',
  'supplementary-rfq',
  'transition',
  'quotations-pulled',
  'comparison-written',
  'award-final',
  'erp-held',
  'erp-written',
  'notification-sent',
  'retention',
  'recovered',
] as const;
export type AuditEventName = (typeof AUDIT_EVENTS)[number];

/** The identity fields (all optional: each event has those it knows). */
export interface AuditIdentity {
  /** The ERP's line ids of the requisition (or of the RFQ's lines). */
  external_ids?: string[];
  /** The mapping profile. */
  profile?: string;
  /** The requisition's grouping key (e.g. the PR number); the requisition is `profile/key`. */
  key?: string;
  /** The RFQ's `_id` at the service. */
  rfq_id?: number;
  /** The RFQ's number (`rfq_no`) at the service, once known. */
  rfq_no?: number;
  /** The sourcing account (SOURCING_ACCOUNT) whose worker wrote the line. */
  account?: string;
  /** The input file's original name, and the sha256 of its bytes. */
  file?: string;
  file_sha256?: string;
}

/** One line of the audit log as written (the writer adds `at`, `host`, `pid`, `writer` and `seq`). */
export type AuditEvent = AuditIdentity & {
  event: AuditEventName;
  /** A short sentence for people (trace prints it). */
  summary: string;
} & Record<string, unknown>;

/** A line as read back. */
export type AuditLine = AuditEvent & {
  /** ISO 8601 UTC. */
  at: string;
  host: string;
  pid: number;
  /**
   * The writing process (`<pid>-<start, base 36>`) and its line number, 1, 2, 3... without a gap: a number the log
   * lacks between two it has is a line lost (src/audit/log-health.ts). Absent on lines written before they existed.
   */
  writer?: string;
  seq?: number;
};

/** Keys that must never reach the log, whatever an event passes (a defence in depth: events carry ids only). */
const SECRET_KEY = /token|secret|password|authorization|bearer|cookie/i;

/**
 * The event without any field whose name looks like a secret's, at any depth, and with the secrets the logger knows
 * (the token as read, bearer and basic credentials, passwords in URLs) scrubbed from every text (a service's error
 * text in a `reason`, say).
 */
export function withoutSecrets<T>(value: T): T {
  if (typeof value === 'string') return scrubSecrets(value) as T;
  if (Array.isArray(value)) return value.map((v: unknown) => withoutSecrets(v)) as T;
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      if (SECRET_KEY.test(k) || v === undefined) continue;
      out[k] = withoutSecrets(v);
    }
    return out as T;
  }
  return value;
}
