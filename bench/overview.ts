/**
 * `npm run bench:overview`: the overview workbook (outbox/overview.xlsx) for 10,000 tracked RFQs, read from a real
 * redis-server and written as the poll writes it (read the records, sort by due date, stream the styled workbook,
 * rename). Baseline, measured in the same run: the same 10,000 rows written as a bare exceljs streaming workbook
 * without styles (values only). Each runs in its own child process, so its peak RSS (maxRSS) is its own.
 * Target (issue 14 item 8): under 5 s.
 *
 *   node bench/overview.ts [--rfqs 10000] [--keep FILE]
 */
import { spawnSync } from 'node:child_process';
import { copyFile, mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import ExcelJS from 'exceljs';
import { Redis } from 'ioredis';
import { excelDateInZone } from '../src/comparison/sheets/dates.ts';
import { loadConfig } from '../src/settings/config.ts';
import { redisKeys } from '../src/redis/redis-keys.ts';
import { startEmbeddedRedis } from '../src/redis/embedded-redis.ts';
import { overviewRow, writeAccountOverview } from '../src/awarding/overview.ts';
import type { TrackedRfq } from '../src/rfqs/record.ts';
import { trackingStore } from '../src/rfqs/store.ts';

const { values: args } = parseArgs({
  options: {
    rfqs: { type: 'string', default: '10000' },
    keep: { type: 'string' },
    child: { type: 'string' },
    redis: { type: 'string' },
    dir: { type: 'string' },
  },
});
const RFQS = Number(args.rfqs);
const PREFIX = 'bench';
const ACCOUNT = 'bench';
const TZ = 'Europe/Berlin';

/** A deterministic mix: 40 % open, 30 % closed with a draft award, 20 % completed and final, 10 % cancelled. */
function record(i: number): TrackedRfq {
  const rfqId = 200_000 + i;
  const kind = i % 10;
  const state: TrackedRfq['state'] = kind < 4 ? 'open' : kind < 7 ? 'closed' : kind < 9 ? 'completed' : 'cancelled';
  const currency = i % 7 === 0 ? 'USD' : 'EUR';
  const estimate = 1000 + ((i * 7919) % 90_000);
  const best = Math.round(estimate * (0.85 + ((i * 31) % 25) / 100) * 100) / 100;
  const rec: TrackedRfq = {
    rfqId,
    seq: 0,
    state,
    trackedAt: Date.UTC(2026, 10, 1),
    missingPolls: 0,
    transitions: [],
    dueDate: Date.UTC(2026, 10, 26) + ((i * 104_729) % (60 * 86_400_000)),
    requisition: {
      key: `PR-${1_000_000 + i}`,
      sourceFile: `ME5A_export_2026-11-${String(1 + (i % 25)).padStart(2, '0')}.csv`,
      profile: 'sap-me5a',
      title: `MRO order ${i}: hex bolts, seals and gaskets`,
      currency,
    },
  };
  if (state === 'closed' || state === 'completed') {
    const savings = (estimate - best).toFixed(2);
    rec.comparison = {
      version: 1 + (i % 3),
      writtenAt: Date.UTC(2026, 10, 20),
      revisions: {},
      award: state === 'completed',
      workbook: `RFQ-${4000 + i}-${rfqId}-MRO order ${i}-v${1 + (i % 3)}.xlsx`,
      summary: {
        quotations: 1 + (i % 12),
        bestTotal: best.toFixed(2),
        currency,
        savings,
        savingsPct: (Number(savings) / estimate).toFixed(6),
        recommended:
          i % 4 === 0 ? 'split: Supplier A GmbH, Supplier B AG' : `Supplier ${i % 50} Industrial Supplies GmbH`,
        final: state === 'completed' || i % 3 === 0,
      },
    };
  }
  return rec;
}

function benchConfig(dir: string) {
  return loadConfig(
    { RFQ_SYNC_DIR: dir, REDIS_PREFIX: PREFIX, SOURCING_ACCOUNT: ACCOUNT, TIME_ZONE: TZ, HTTP_PORT: '0' },
    { requireToken: false },
  );
}

/** Ours: what the poll does after its lists (read every record, sort, write styled, rename). */
async function childOurs(redisUrl: string, dir: string): Promise<void> {
  const redis = new Redis(redisUrl);
  const config = benchConfig(dir);
  const ctx = { redis, keys: redisKeys(PREFIX, ACCOUNT), config };
  const t0 = performance.now();
  const written = await writeAccountOverview(ctx);
  const totalMs = performance.now() - t0;
  await redis.quit();
  process.stdout.write(
    JSON.stringify({
      totalMs: Math.round(totalMs),
      rows: written.rows,
      maxRssMB: Math.round(process.resourceUsage().maxRSS / 1024),
      path: written.path,
    }),
  );
}

/** Baseline: the same rows, already in memory, as a bare streaming workbook: values only, no styles, no sort. */
async function childBare(dir: string): Promise<void> {
  const config = benchConfig(dir);
  const rows = Array.from({ length: RFQS }, (_, i) => overviewRow(record(i), config));
  const path = join(dir, 'bare.xlsx');
  const t0 = performance.now();
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: path, useStyles: false, useSharedStrings: false });
  const ws = wb.addWorksheet('Overview');
  for (const r of rows) {
    const s = r.summary;
    ws.addRow([
      r.dueDate === undefined ? null : excelDateInZone(r.dueDate, TZ),
      r.requisition,
      r.sourceFile,
      r.rfqId,
      r.title,
      r.state,
      s?.quotations,
      s?.bestTotal === undefined ? null : Number(s.bestTotal),
      s?.currency ?? r.currency,
      s?.savings === undefined ? null : Number(s.savings),
      s?.savingsPct === undefined ? null : Number(s.savingsPct),
      s?.recommended,
      s?.final ? 'yes' : 'no',
      r.comparison,
    ]).commit();
  }
  await wb.commit();
  const totalMs = performance.now() - t0;
  process.stdout.write(
    JSON.stringify({
      totalMs: Math.round(totalMs),
      rows: rows.length,
      maxRssMB: Math.round(process.resourceUsage().maxRSS / 1024),
      path,
    }),
  );
}

interface ChildResult {
  totalMs: number;
  rows: number;
  maxRssMB: number;
  path: string;
}

function runChild(mode: 'ours' | 'bare', redisUrl: string, dir: string): ChildResult {
  const run = spawnSync(
    process.execPath,
    [fileURLToPath(import.meta.url), '--child', mode, '--redis', redisUrl, '--dir', dir, '--rfqs', String(RFQS)],
    {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  if (run.status !== 0) throw new Error(`bench child ${mode} failed with status ${run.status}`);
  return JSON.parse(run.stdout) as ChildResult;
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-overview-'));
  const server = await startEmbeddedRedis({ appendonly: false });
  try {
    const redis = new Redis(server.url);
    const store = trackingStore({ redis, keys: redisKeys(PREFIX, ACCOUNT) });
    const t0 = performance.now();
    for (let i = 0; i < RFQS; i += 500) {
      await Promise.all(
        Array.from({ length: Math.min(500, RFQS - i) }, (_, j) => store.compareAndSet(undefined, record(i + j))),
      );
    }
    const fillMs = performance.now() - t0;
    await redis.quit();

    const bare = runChild('bare', server.url, dir);
    const ours = runChild('ours', server.url, dir);
    const size = (await stat(ours.path)).size;
    if (args.keep) await copyFile(ours.path, args.keep);
    console.log(
      `overview workbook: ${ours.rows.toLocaleString('en')} tracked RFQs (Redis filled in ${(fillMs / 1000).toFixed(2)} s, not counted)`,
    );
    console.log(
      `  ours (read Redis, sort, styled streaming write, rename): ${(ours.totalMs / 1000).toFixed(2)} s   (target < 5 s)`,
    );
    console.log(`    peak RSS of the run:                                  ${ours.maxRssMB} MB`);
    console.log(
      `  baseline (same rows in memory, bare exceljs stream):    ${(bare.totalMs / 1000).toFixed(2)} s, peak RSS ${bare.maxRssMB} MB`,
    );
    console.log(
      `  ratio ours / baseline:                                  time ${(ours.totalMs / bare.totalMs).toFixed(2)}, peak RSS ${(ours.maxRssMB / bare.maxRssMB).toFixed(2)}`,
    );
    console.log(
      `  file size:                                              ${(size / 1024 / 1024).toFixed(2)} MB${args.keep ? ` -> ${args.keep}` : ''}`,
    );
    if (ours.rows !== RFQS || ours.totalMs >= 5000) process.exitCode = 1;
  } finally {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

if (args.child === 'ours') await childOurs(args.redis!, args.dir!);
else if (args.child === 'bare') await childBare(args.dir!);
else await main();
