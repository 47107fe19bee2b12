/**
 * Reading the whole audit log back, streamed (a year of files is never held whole): every host's files of the data
 * folder's `audit/`, oldest day first, line by line (`recover` re-seeds from it). Lines are split on the newline byte,
 * so a torn line ends at the next newline and the line after it is read whole; a line that is not a line of the log
 * (torn, or a field of the wrong type: src/audit/line-shape.ts) is counted and skipped, never guessed. `trace` reads
 * through the index instead (audit-index.ts, trace-query.ts).
 */
import { createReadStream } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { AuditLine } from './events.ts';
import { parseAuditLine } from './line-shape.ts';
import { wholeLines } from './log-file.ts';
import { auditDir, parseAuditFileName } from './log-names.ts';

export interface AuditReadStats {
  files: number;
  lines: number;
  /** Lines that could not be read (path:line), a file's unfinished last line included. */
  torn: string[];
}

/** The log's files, oldest day first (hosts by name within a day). */
export async function auditFiles(root: string): Promise<string[]> {
  const dir = auditDir(root);
  const names = (await readdir(dir).catch(() => [] as string[])).filter((n) => parseAuditFileName(n));
  return names.sort().map((n) => join(dir, n));
}

/** Every line of the log, file by file; `stats` counts what was read and what was skipped. */
export async function* readAudit(root: string, stats?: AuditReadStats): AsyncGenerator<AuditLine> {
  for (const path of await auditFiles(root)) {
    if (stats) stats.files++;
    let carry = Buffer.alloc(0);
    let n = 0;
    for await (const chunk of createReadStream(path)) {
      const buf = carry.length ? Buffer.concat([carry, chunk as Buffer]) : (chunk as Buffer);
      const { lines, rest } = wholeLines(buf, 0);
      for (const raw of lines) {
        n++;
        if (raw.len === 0) continue;
        const line = parseAuditLine(raw.bytes.toString('utf8'));
        if (!line) {
          stats?.torn.push(`${path}:${n}`);
          continue;
        }
        if (stats) stats.lines++;
        yield line;
      }
      carry = Buffer.from(buf.subarray(rest));
    }
    if (carry.length) stats?.torn.push(`${path}:${n + 1}`); // ends mid-line
  }
}
