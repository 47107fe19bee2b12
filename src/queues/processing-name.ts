/**
 * The name of a file taken from the inbox (`<token>_<original>` in processing/, archive/ and failed/): the ingest
 * job's payload names its file by it, so its format is part of that queue's contract (src/queues/ingest.ts). Made by
 * src/intake/file-mover.ts newProcessingName; read back here.
 */
import { basename } from 'node:path';

/** A single path component: not empty, no `/` or `\`, not `.` or `..`, no NUL. */
export function isPlainName(name: string): boolean {
  return name.length > 0 && name !== '.' && name !== '..' && !/[/\\\u0000]/.test(name) && basename(name) === name;
}

export interface ProcessingName {
  /** `<token>_<original>`: the name in processing/, archive/ and failed/. */
  name: string;
  /** `YYYYMMDDTHHMMSSZ-xxxxxx`: unique per take. */
  token: string;
  /** The inbox name, shown to people (possibly shortened when it was very long; it may hold backslashes). */
  original: string;
  /** When the file was taken (ms, UTC; second precision when parsed back from a name). */
  takenAt: number;
}

/** `_`: the original name follows as it is; `~`: with its backslashes (and `%`) percent-encoded. */
const TOKEN_RE = /^(\d{8}T\d{6}Z-[0-9a-f]{6})([_~])(.+)$/s;

export function decodeBackslashes(name: string): string {
  return name.replace(/%(25|5C)/g, (_, hex: string) => (hex === '25' ? '%' : '\\'));
}

/** Parse a name made by newProcessingName; undefined for anything else (a file we did not put there). */
export function parseProcessingName(name: string): ProcessingName | undefined {
  if (!isPlainName(name)) return undefined;
  const m = TOKEN_RE.exec(name);
  if (!m || !m[1] || !m[3]) return undefined;
  const token = m[1];
  const iso = `${token.slice(0, 4)}-${token.slice(4, 6)}-${token.slice(6, 8)}T${token.slice(9, 11)}:${token.slice(11, 13)}:${token.slice(13, 15)}Z`;
  const takenAt = Date.parse(iso);
  if (!Number.isFinite(takenAt)) return undefined;
  return { name, token, original: m[2] === '~' ? decodeBackslashes(m[3]) : m[3], takenAt };
}
