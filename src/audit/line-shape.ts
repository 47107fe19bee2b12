/**
 * What a line of the audit log must be to be read: whole JSON (a torn line is not), an object with the fields every
 * line has (`at` an ISO 8601 time, `event`, `summary` and `host` texts) and identity fields of their types. A line
 * that is not is skipped and counted by the reader, never guessed at: one line whose `at` is a number must not break
 * a timeline (it used to make the lookup page answer 500). Lines are split on the byte 0x0A, which never occurs
 * inside a UTF-8 sequence, so a torn line ends at the next newline and the line after it reads whole.
 */
import type { AuditLine } from './events.ts';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const TEXT_FIELDS = ['profile', 'key', 'account', 'file', 'file_sha256', 'parent', 'writer'] as const;
const NUMBER_FIELDS = ['rfq_id', 'rfq_no', 'seq', 'pid'] as const;

/** The line as read, or undefined when it is not a line of the log (torn, or a field of the wrong type). */
export function parseAuditLine(text: string): AuditLine | undefined {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!v || typeof v !== 'object' || Array.isArray(v)) return undefined;
  const l = v as Record<string, unknown>;
  if (typeof l.at !== 'string' || !ISO.test(l.at)) return undefined;
  if (typeof l.event !== 'string' || typeof l.summary !== 'string' || typeof l.host !== 'string') return undefined;
  for (const f of TEXT_FIELDS) if (l[f] !== undefined && typeof l[f] !== 'string') return undefined;
  for (const f of NUMBER_FIELDS) if (l[f] !== undefined && !Number.isSafeInteger(l[f])) return undefined;
  if (l.external_ids !== undefined && !(Array.isArray(l.external_ids) && l.external_ids.every(isText)))
    return undefined;
  if (l.rfq_ids !== undefined && !(Array.isArray(l.rfq_ids) && l.rfq_ids.every((n) => Number.isSafeInteger(n))))
    return undefined;
  return l as AuditLine;
}

const isText = (x: unknown): x is string => typeof x === 'string';

/** The requisition a line is about (`profile/key`), when it names one. */
export function requisitionOf(l: Pick<AuditLine, 'profile' | 'key'>): string | undefined {
  return l.profile !== undefined && l.key !== undefined ? `${l.profile}/${l.key}` : undefined;
}
