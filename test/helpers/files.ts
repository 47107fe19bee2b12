/**
 * Files a test reads or lays out: a pipeline's data folder (`makeDataDir`, the layout a worker expects), a folder's
 * entries (`ls`, `listTree`), whether a path stays inside a folder (`inside`), and the outputs people and the ERP
 * receive, read back (`readAwardCsv`, `reportNotes`). Scratch folders come from temp-dir.ts's `tempDir()`.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, readdir, rm } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import type { Folders } from '../../src/settings/folders.ts';
import { makeTempDir } from './temp-dir.ts';

export interface DataDir extends Pick<
  Folders,
  'root' | 'inbox' | 'processing' | 'archive' | 'failed' | 'outbox' | 'reports'
> {
  /** A fresh temp dir holding only `data/` (so anything written beside it is a path escape). */
  jail: string;
  remove(): Promise<void>;
}

export async function makeDataDir(tag: string): Promise<DataDir> {
  const jail = makeTempDir(`rfq-sync-${tag}-`);
  const root = join(jail, 'data');
  const d = {
    jail,
    root,
    inbox: join(root, 'inbox'),
    processing: join(root, 'processing'),
    archive: join(root, 'archive'),
    failed: join(root, 'failed'),
    outbox: join(root, 'outbox'),
    reports: join(root, 'outbox', 'reports'),
    remove: () => rm(jail, { recursive: true, force: true }),
  };
  for (const p of [d.inbox, d.processing, d.archive, d.failed, d.reports]) await mkdir(p, { recursive: true });
  return d;
}

/** A folder's entries, sorted; none when it does not exist. */
export function ls(dir: string): string[] {
  return existsSync(dir) ? readdirSync(dir).sort() : [];
}

/** The Note lines of a report's Summary sheet (ingest report and duplicate/refusal report alike). */
export async function reportNotes(path: string): Promise<string[]> {
  const { default: ExcelJS } = await import('exceljs');
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(path);
  const notes: string[] = [];
  wb.getWorksheet('Summary')?.eachRow((row) => {
    if (row.getCell(1).text === 'Note') notes.push(row.getCell(2).text);
  });
  return notes;
}

/** Award CSV rows as objects (header row names the columns). */
export function readAwardCsv(path: string): Array<Record<string, string>> {
  const [head, ...rows] = readFileSync(path, 'utf8').trim().split('\r\n');
  const cols = (head ?? '').split(',');
  return rows.map((r) =>
    Object.fromEntries(r.split(',').map((v, i) => [cols[i] ?? String(i), v.replace(/^"|"$/g, '')])),
  );
}

export function fileExists(path: string): boolean {
  return existsSync(path);
}

/** Every file under `dir`, as paths relative to it. */
export async function listTree(dir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (d: string): Promise<void> => {
    for (const e of await readdir(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) await walk(p);
      else out.push(relative(dir, p));
    }
  };
  await walk(dir);
  return out;
}

/** True when `p` is inside `dir` once resolved. */
export function inside(dir: string, p: string): boolean {
  const rel = relative(resolve(dir), resolve(p));
  return rel !== '' && !rel.startsWith('..') && !rel.startsWith('/');
}
