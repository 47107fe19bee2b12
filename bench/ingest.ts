/**
 * npm run bench:ingest — ingestion throughput and memory.
 * Generates (in a temp folder) CSVs of 1, 2 and 3 million lines and XLSX files of 100k, 200k and 400k rows in the
 * generic template, then measures each, in its own child process so each peak RSS (process.resourceUsage().maxRSS)
 * is its own: the raw reader as the baseline (csv-parse with the same options / exceljs' streaming reader, rows
 * counted, nothing else) and our ingestFile (sniff + UTF-8 check + parse + map + validate + group).
 * Targets: ours/raw CSV rows/s >= 0.5; CSV peak RSS < 400 MB at 3M lines; XLSX peak RSS < 600 MB at 200k rows and
 * flat from 100k to 400k rows (at most x1.25 for 4x the rows).
 * The formats read besides (bench/ingest-formats.ts): a 65,535-row binary .xls (BIFF8's maximum per sheet), a
 * 100,000-row XML Spreadsheet 2003 .xls and a 100,000-row HTML table, each against the library's own raw parse
 * (SheetJS / htmlparser2). Targets: ours/raw rows/s >= 0.6; peak RSS of the in-memory formats below the budget of
 * MAX_IN_MEMORY_READ_BYTES (docs/mapping.md), of HTML below the CSV bound.
 * Options: --csv-lines N,N,..., --xlsx-rows N,N,..., --xls-rows N, --xml-rows N, --html-rows N, --formats-only (the
 * new formats' cases alone; by default every case runs), --repeat N (the new formats' raw and ours runs, alternated,
 * the fastest of each compared; default 3), --formats K,K (only these of the new formats: xls, xml2003, ods, html,
 * sap), --keep (leave the files).
 */
import { spawnSync } from 'node:child_process';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { once } from 'node:events';
import { parse } from 'csv-parse';
import ExcelJS from 'exceljs';
import { ingestFile, loadProfiles } from '../src/ingest/index.ts';
import { ExternalIdIndex } from '../src/ingest/external-id-index.ts';
import { formatCases } from './ingest-formats-run.ts';
import { FORMAT_KINDS, FORMAT_WRITERS, rawParse } from './ingest-formats.ts';
import { GENERIC_HEADER } from '../test/helpers/generic-template.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const HEADER = GENERIC_HEADER;
const LINES_PER_REQ = 10;
const NOW = new Date('2026-11-22T10:00:00Z');

function dataRow(i: number): (string | number)[] {
  const req = `BENCH-${String(Math.floor(i / LINES_PER_REQ)).padStart(7, '0')}`;
  const line = (i % LINES_PER_REQ) + 1;
  return [
    req,
    line,
    `Hex bolt M${8 + (i % 5) * 2}x${40 + (i % 7) * 10} DIN 933`,
    'zinc plated, 8.8',
    'pc',
    10 + (i % 90),
    `${(i % 1000) * 3}.${i % 100}`,
    `Bench requisition ${req}`,
    'Generated for bench:ingest',
    '2027-06-30',
    '2027-07-31',
    i % 2 ? 'Private' : 'Public',
    'Fasteners',
    'Plant 1000',
  ];
}

function csvLine(cells: (string | number)[]): string {
  return (
    cells.map((c) => (typeof c === 'string' && /[",\n]/.test(c) ? `"${c.replace(/"/g, '""')}"` : String(c))).join(',') +
    '\n'
  );
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
  if ((FORMAT_KINDS as readonly string[]).includes(kind)) {
    rows = await rawParse(kind as (typeof FORMAT_KINDS)[number], file);
  } else if (kind.startsWith('write-')) {
    // the new formats' files are written in a child of their own: SheetJS' writers take GBs the parent would keep
    const [what, n] = kind.slice('write-'.length).split(':');
    rows = Number(n);
    await FORMAT_WRITERS[what as keyof typeof FORMAT_WRITERS](file, HEADER, dataRow, rows);
  } else if (kind === 'raw-csv') {
    const parser = createReadStream(file, { highWaterMark: 256 * 1024 }).pipe(
      parse({ bom: true, relax_quotes: true, relax_column_count: true, skip_empty_lines: false }),
    );
    for await (const _ of parser) rows++;
  } else if (kind === 'raw-xlsx') {
    const reader = new ExcelJS.stream.xlsx.WorkbookReader(file, {
      sharedStrings: 'cache',
      styles: 'cache',
      worksheets: 'emit',
    });
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
  const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--child', kind, file], {
    encoding: 'utf8',
    maxBuffer: 1 << 20,
  });
  if (r.status !== 0) throw new Error(`${kind} failed: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').at(-1)!) as Measure;
}

// ------------------------------------------------------------------ main

const args = process.argv.slice(2);
if (args[0] === '--child') {
  const m = await child(args[1]!, args[2]!);
  process.stdout.write(`${JSON.stringify(m)}\n`);
} else {
  const sizes = (name: string, def: number[]) => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1]!.split(',').map(Number) : def;
  };
  const formatsOnly = args.includes('--formats-only');
  const repeat = sizes('--repeat', [3])[0]!;
  const csvSizes = formatsOnly ? [] : sizes('--csv-lines', [1_000_000, 2_000_000, 3_000_000]);
  const xlsxSizes = formatsOnly ? [] : sizes('--xlsx-rows', [100_000, 200_000, 400_000]);
  const dir = await mkdtemp(join(tmpdir(), 'rfq-bench-ingest-'));
  try {
    if (formatsOnly) {
      const only = args.includes('--formats') ? args[args.indexOf('--formats') + 1]!.split(',') : undefined;
      await formatCases(dir, sizes, runChild, repeat, only);
      if (!args.includes('--keep')) await rm(dir, { recursive: true, force: true });
      process.exit(0);
    }
    const fmt = (m: Measure) =>
      `${Math.round(m.rows / (m.ms / 1000))
        .toLocaleString('en-US')
        .padStart(9)} rows/s ${(m.ms / 1000).toFixed(1).padStart(6)} s ${m.maxRssMB.toFixed(0).padStart(5)} MB`;
    const csvRows: Array<{ n: number; raw: Measure; ours: Measure }> = [];
    for (const n of csvSizes) {
      const csv = join(dir, `generic-bench-${n}.csv`);
      await writeCsv(csv, n);
      csvRows.push({ n, raw: runChild('raw-csv', csv), ours: runChild('ours', csv) });
      await rm(csv, { force: true });
    }
    const xlsxRows: Array<{ n: number; raw: Measure; ours: Measure }> = [];
    for (const n of xlsxSizes) {
      const xlsx = join(dir, `generic-bench-${n}.xlsx`);
      await writeXlsx(xlsx, n);
      xlsxRows.push({ n, raw: runChild('raw-xlsx', xlsx), ours: runChild('ours', xlsx) });
      await rm(xlsx, { force: true });
    }

    console.log(
      'format  size          raw (baseline, same process kind)          ours (sniff+parse+map+validate+group)      speed  RSS ours/raw',
    );
    for (const [kind, rows] of [
      ['CSV', csvRows],
      ['XLSX', xlsxRows],
    ] as const) {
      for (const r of rows) {
        const speed = r.ours.rows / r.ours.ms / (r.raw.rows / r.raw.ms);
        console.log(
          `${kind.padEnd(6)}  ${r.n.toLocaleString('en-US').padStart(9)}  ${fmt(r.raw)}  ${fmt(r.ours)}  ${speed.toFixed(2).padStart(5)}  ${(r.ours.maxRssMB / r.raw.maxRssMB).toFixed(2)}`,
        );
      }
    }

    await formatCases(dir, sizes, runChild, repeat);

    const idxCsv = join(dir, 'generic-bench-index.csv');
    await writeCsv(idxCsv, 1_000_000);
    const idx = runChild('id-index', idxCsv);
    console.log(
      `external_id index: ${idx.rows.toLocaleString('en-US')} ids in ${(idx.extra!.tableBytes! / 1e6).toFixed(1)} MB of typed arrays (heap+buffers delta ${(idx.extra!.heapAndBuffersDelta! / 1e6).toFixed(1)} MB)`,
    );

    const first = <T>(a: T[]) => a[0]!;
    const last = <T>(a: T[]) => a[a.length - 1]!;
    const ok = (b: boolean) => (b ? 'OK' : 'MISSED');
    const csvSpeed = Math.min(...csvRows.map((r) => r.ours.rows / r.ours.ms / (r.raw.rows / r.raw.ms)));
    console.log(`CSV speed ours/raw, slowest size: ${csvSpeed.toFixed(2)} (target >= 0.5)  ${ok(csvSpeed >= 0.5)}`);
    if (csvRows.length > 1) {
      const perMillion =
        (last(csvRows).ours.maxRssMB - first(csvRows).ours.maxRssMB) / ((last(csvRows).n - first(csvRows).n) / 1e6);
      console.log(
        `CSV memory growth: ${perMillion.toFixed(0)} MB per million lines (${first(csvRows).n.toLocaleString('en-US')} -> ${last(csvRows).n.toLocaleString('en-US')})`,
      );
    }
    const csvMax = last(csvRows);
    console.log(
      `CSV peak RSS at ${csvMax.n.toLocaleString('en-US')} lines: ${csvMax.ours.maxRssMB.toFixed(0)} MB (target < 400 at 3M)  ${ok(csvMax.n < 3_000_000 || csvMax.ours.maxRssMB < 400)}`,
    );
    const at200 = xlsxRows.find((r) => r.n === 200_000);
    if (at200)
      console.log(
        `XLSX peak RSS at 200,000 rows: ${at200.ours.maxRssMB.toFixed(0)} MB (target < 600)  ${ok(at200.ours.maxRssMB < 600)}`,
      );
    if (xlsxRows.length > 1) {
      // flat: no memory per row read. What grows is exceljs' shared-strings cache (the raw reader grows too) and the
      // external_id index (~25 bytes per line); a leak per row (the old reader) grew 2.3x from 200k to 400k rows.
      const a = first(xlsxRows);
      const b = last(xlsxRows);
      const growth = b.ours.maxRssMB / a.ours.maxRssMB;
      console.log(
        `XLSX memory ${a.n.toLocaleString('en-US')} -> ${b.n.toLocaleString('en-US')} rows: ours ${a.ours.maxRssMB.toFixed(0)} -> ${b.ours.maxRssMB.toFixed(0)} MB (x${growth.toFixed(2)}), ` +
          `raw reader ${a.raw.maxRssMB.toFixed(0)} -> ${b.raw.maxRssMB.toFixed(0)} MB (target: flat, ours x1.25 at most for ${(b.n / a.n).toFixed(0)}x the rows)  ${ok(growth <= 1.25)}`,
      );
    }
  } finally {
    if (!args.includes('--keep')) await rm(dir, { recursive: true, force: true });
  }
}
