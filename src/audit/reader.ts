/**
 * Reading the audit log back: every host's files of the data folder's `audit/`, line by line (streamed: a year of
 * files is never held whole), oldest file first. A line that does not parse (a torn line could only come from a
 * disk that filled mid-write) is counted and skipped, never guessed.
 */
import { createReadStream } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { AuditLine } from './events.ts';
import { auditDir, parseAuditFileName } from './writer.ts';

export interface AuditReadStats {
  files: number;
  lines: number;
  /** Lines that were not whole JSON objects (path:line). */
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
    const rl = createInterface({ input: createReadStream(path, 'utf8'), crlfDelay: Infinity });
    let n = 0;
    for await (const text of rl) {
      n++;
      if (text === '') continue;
      let line: unknown;
      try {
        line = JSON.parse(text);
      } catch {
        line = undefined;
      }
      if (!line || typeof line !== 'object' || typeof (line as AuditLine).event !== 'string') {
        stats?.torn.push(`${path}:${n}`);
        continue;
      }
      if (stats) stats.lines++;
      yield line as AuditLine;
    }
  }
}

/** Every line for which `keep` holds. */
export async function collectAudit(
  root: string,
  keep: (l: AuditLine) => boolean,
  stats?: AuditReadStats,
): Promise<AuditLine[]> {
  const out: AuditLine[] = [];
  for await (const l of readAudit(root, stats)) if (keep(l)) out.push(l);
  return out;
}
