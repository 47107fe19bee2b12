/**
 * npm run bench:ingest — ingestion throughput and memory.
 * Generates (in a temp folder) a 1,000,000-line CSV and a 200,000-row XLSX in the generic template, then measures,
 * each in its own child process so each peak RSS (process.resourceUsage().maxRSS) is its own:
 *   raw csv-parse on the CSV (same options, records counted, nothing else),
 *   our ingestFile on the CSV (sniff + UTF-8 check + parse + map + validate + group),
 *   raw exceljs streaming reader on the XLSX, and our ingestFile on the XLSX.
 * Targets (issue 3): ours/raw CSV rows/s >= 0.5; peak RSS < 256 MB (CSV) and < 600 MB (XLSX).
 * Options: --csv-lines N, --xlsx-rows N, --keep (leave the files).
 */
import { spawnSync } from 'node:child_process';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { once } from 'node:events';
import { parse } from 'csv-parse';
import ExcelJS from 'exceljs';
import { ingestFile, loadProfiles } from '../src/ingest/index.ts';
import { ExternalIdIndex } from '../src/ingest/external-id-index.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const HEADER = ['Requisition', 'Line', 'Item', 'Specification', 'UoM', 'Qty', 'Estimated Total', 'Title', 'Description', 'Due Date', 'Required Date', 'RFQ Type', 'Category', 'Location'];
const LINES_PER_REQ = 10;
const NOW = new Date('2026-11-22T10:00:00Z');

function dataRow(i: number): (string | number)[] {
  const req = `BENCH-${String(Math.floor(i / LINES_PER_REQ)).padStart(7, '0')}`;
  const line = (i % LINES_PER_REQ) + 1;
  return [req, line, `Hex bolt M${8 + (i % 5) * 2}x${40 + (i % 7) * 10} DIN 933`, 'zinc plated, 8.8', 'pc', 10 + (i % 90), `${(i % 1000) * 3}.${i % 100}`,
    `Bench requisition ${req}`, 'Generated for bench:ingest', '2027-06-30', '2027-07-31', i % 2 ? 'Private' : 'Public', 'Fasteners', 'Plant 1000'];
}

function csvLine(cells: (string | number)[]): string {
  return cells.map((c) => (typeof c === 'string' && /[",\n]/.test(c) ? `"${c.replace(/"/g, '""')}"` : String(c))).join(',') + '\n';
}

async function writeCsv(path: string, lines: number): Promise<void> {
  const out = createWriteStream(path);
  out.write(csvLine(HEADER));
  let buf = '';
  for (let i = 0; i < lines; i++) {
    buf += csvLine(dataRow(i));
    if (buf.length > 1 << 20) {
      if (!out.write(buf)) await once(out, 'drain');
      buf = '';
    }
  }
  out.end(buf);
  await once(out, 'finish');
}

async function writeXlsx(path: string, rows: number): Promise<void> {
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: path, useSharedStrings: true, useStyles: false });
  const ws = wb.addWorksheet('Requisitions');
  ws.addRow(HEADER).commit();
  for (let i = 0; i < rows; i++) {
    const r = dataRow(i);
    r[6] = Number(r[6]);
    ws.addRow(r).commit();
  }
  ws.commit();
  await wb.commit();
}

// ------------------------------------------------------------------ child measurements

interface Measure {
  rows: number;
  ms: number;
  maxRssMB: number;
  extra?: Record<string, number>;
}

async function child(kind: string, file: string): Promise<Measure> {
  const t0 = performance.now();
  let rows = 0;
  const extra: Record<string, number> = {};
  if (kind === 'raw-csv') {
    const parser = createReadStream(file, { highWaterMark: 256 * 1024 }).pipe(parse({ bom: true, relax_quotes: true, relax_column_count: true, skip_empty_lines: false }));
    for await (const _ of parser) rows++;
  } else if (kind === 'raw-xlsx') {
    const reader = new ExcelJS.stream.xlsx.WorkbookReader(file, { sharedStrings: 'cache', styles: 'cache', worksheets: 'emit' });
    for await (const ws of reader) for await (const _ of ws) rows++;
  } else if (kind === 'id-index') {
    // The cross-requisition external_id index alone: 1M ids, bytes held.
    const heap0 = process.memoryUsage();
    const idx = new ExternalIdIndex(4096);
    for (let i = 0; i < 1_000_000; i++) idx.claim(`SAP-${10000000 + Math.floor(i / 10)}-${(i % 10) * 10}`, i);
    const heap1 = process.memoryUsage();
    rows = idx.size;
    extra.tableBytes = idx.bytes;
    extra.heapAndBuffersDelta = heap1.heapUsed + heap1.arrayBuffers - heap0.heapUsed - heap0.arrayBuffers;
  } else {
    const profiles = await loadProfiles(join(ROOT, 'mappings'));
    let lines = 0;
    const limits = { maxFileBytes: 4 * 1024 ** 3, maxXlsxUncompressedBytes: 4 * 1024 ** 3, maxXlsxEntries: 10_000 };
    const s = await ingestFile(file, { profiles, limits, now: NOW, mappingName: 'generic' }, async (r) => {
      lines += r.lines.length;
    });
    rows = s.lines + s.rejectedRows + 1; // + header: rows read, comparable to the raw count
    extra.requisitions = s.requisitions;
    extra.lines = lines;
    extra.rejectedRows = s.rejectedRows;
  }
  const ms = performance.now() - t0;
  return { rows, ms, maxRssMB: process.resourceUsage().maxRSS / 1024, extra };
}

function runChild(kind: string, file: string): Measure {
  const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--child', kind, file], { encoding: 'utf8', maxBuffer: 1 << 20 });
  if (r.status !== 0) throw new Error(`${kind} failed: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').at(-1)!) as Measure;
}

// ------------------------------------------------------------------ main

const args = process.argv.slice(2);
if (args[0] === '--child') {
  const m = await child(args[1]!, args[2]!);
  process.stdout.write(`${JSON.stringify(m)}\n`);
} else {
  const opt = (name: string, def: number) => {
    const i = args.indexOf(name);
    return i >= 0 ? Number(args[i + 1]) : def;
  };
  const csvLines = opt('--csv-lines', 1_000_000);
  const xlsxRows = opt('--xlsx-rows', 200_000);
  const dir = await mkdtemp(join(tmpdir(), 'rfq-bench-ingest-'));
  try {
    const csv = join(dir, 'generic-bench.csv');
    const xlsx = join(dir, 'generic-bench.xlsx');
    let t = performance.now();
    await writeCsv(csv, csvLines);
    console.log(`generated ${csvLines.toLocaleString('en-US')}-line CSV (${((await stat(csv)).size / 1e6).toFixed(0)} MB) in ${((performance.now() - t) / 1000).toFixed(1)} s`);
    t = performance.now();
    await writeXlsx(xlsx, xlsxRows);
    console.log(`generated ${xlsxRows.toLocaleString('en-US')}-row XLSX (${((await stat(xlsx)).size / 1e6).toFixed(0)} MB) in ${((performance.now() - t) / 1000).toFixed(1)} s`);

    const fmt = (m: Measure) => `${Math.round(m.rows / (m.ms / 1000)).toLocaleString('en-US').padStart(9)} rows/s  ${(m.ms / 1000).toFixed(1).padStart(6)} s  peak RSS ${m.maxRssMB.toFixed(0).padStart(4)} MB`;
    const rawCsv = runChild('raw-csv', csv);
    console.log(`raw csv-parse  CSV : ${fmt(rawCsv)}`);
    const ourCsv = runChild('ours', csv);
    console.log(`ours           CSV : ${fmt(ourCsv)}  (${ourCsv.extra!.requisitions} requisitions, ${ourCsv.extra!.lines} lines, ${ourCsv.extra!.rejectedRows} rejected)`);
    const rawX = runChild('raw-xlsx', xlsx);
    console.log(`raw exceljs    XLSX: ${fmt(rawX)}`);
    const ourX = runChild('ours', xlsx);
    console.log(`ours           XLSX: ${fmt(ourX)}  (${ourX.extra!.requisitions} requisitions, ${ourX.extra!.lines} lines, ${ourX.extra!.rejectedRows} rejected)`);

    const idx = runChild('id-index', csv);
    console.log(`external_id index: ${idx.rows.toLocaleString('en-US')} ids in ${(idx.extra!.tableBytes! / 1e6).toFixed(1)} MB of typed arrays (heap+buffers delta ${(idx.extra!.heapAndBuffersDelta! / 1e6).toFixed(1)} MB)`);

    const ratio = ourCsv.rows / ourCsv.ms / (rawCsv.rows / rawCsv.ms);
    const ratioX = ourX.rows / ourX.ms / (rawX.rows / rawX.ms);
    console.log(`ratio ours/raw CSV : ${ratio.toFixed(2)} (target >= 0.5)  ${ratio >= 0.5 ? 'OK' : 'MISSED'}`);
    console.log(`ratio ours/raw XLSX: ${ratioX.toFixed(2)}`);
    console.log(`peak RSS ours CSV  : ${ourCsv.maxRssMB.toFixed(0)} MB (target < 256)  ${ourCsv.maxRssMB < 256 ? 'OK' : 'MISSED'}`);
    console.log(`peak RSS ours XLSX : ${ourX.maxRssMB.toFixed(0)} MB (target < 600)  ${ourX.maxRssMB < 600 ? 'OK' : 'MISSED'}`);
  } finally {
    if (!args.includes('--keep')) await rm(dir, { recursive: true, force: true });
  }
}
