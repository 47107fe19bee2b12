/**
 * npm run bench:suggest — `check --suggest` reads a bounded sample, not the file.
 * Generates (in a temp folder) a 1,000,000-line CSV in the generic template, then runs the real CLI twice, each in
 * its own process, output discarded: `rfq-sync check --suggest FILE` and a full `rfq-sync check FILE`.
 * Target (docs/development.md#profile-suggestion-npm-run-benchsuggest): suggest < 0.1 x the full check. Options: --lines N,
 * --keep (leave the file).
 */
import { spawnSync } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const HEADER =
  'Requisition,Line,Item,Specification,UoM,Qty,Estimated Total,Title,Description,Due Date,Required Date,RFQ Type,Category,Location\n';
const LINES_PER_REQ = 10;

function line(i: number): string {
  const req = `BENCH-${String(Math.floor(i / LINES_PER_REQ)).padStart(7, '0')}`;
  return (
    `${req},${(i % LINES_PER_REQ) + 1},Hex bolt M${8 + (i % 5) * 2}x${40 + (i % 7) * 10} DIN 933,"zinc plated, 8.8",pc,${10 + (i % 90)},${(i % 1000) * 3}.${i % 100},` +
    `Bench requisition ${req},Generated for bench:suggest,2027-06-30,2027-07-31,${i % 2 ? 'Private' : 'Public'},Fasteners,Plant 1000\n`
  );
}

async function writeCsv(path: string, lines: number): Promise<void> {
  const out = createWriteStream(path);
  out.write(HEADER);
  let buf = '';
  for (let i = 0; i < lines; i++) {
    buf += line(i);
    if (buf.length > 1 << 20) {
      if (!out.write(buf)) await once(out, 'drain');
      buf = '';
    }
  }
  out.end(buf);
  await once(out, 'finish');
}

function run(args: string[]): { seconds: number; code: number | null } {
  const t = performance.now();
  const r = spawnSync(process.execPath, [join(ROOT, 'bin/rfq-sync.ts'), ...args], {
    stdio: 'ignore',
    env: { ...process.env, RFQ_SYNC_CONFIG: '' },
  });
  return { seconds: (performance.now() - t) / 1000, code: r.status };
}

const args = process.argv.slice(2);
const at = args.indexOf('--lines');
const lines = at >= 0 ? Number(args[at + 1]) : 1_000_000;
const dir = await mkdtemp(join(tmpdir(), 'rfq-bench-suggest-'));
try {
  const csv = join(dir, 'bench-requisitions.csv');
  let t = performance.now();
  await writeCsv(csv, lines);
  console.log(
    `generated ${lines.toLocaleString('en-US')}-line CSV (${((await stat(csv)).size / 1e6).toFixed(0)} MB) in ${((performance.now() - t) / 1000).toFixed(1)} s`,
  );
  t = performance.now();
  const suggest = run(['check', '--suggest', csv]);
  const full = run(['check', csv]);
  const ratio = suggest.seconds / full.seconds;
  console.log(`check --suggest: ${suggest.seconds.toFixed(2)} s (exit ${suggest.code})`);
  console.log(`check (full):    ${full.seconds.toFixed(2)} s (exit ${full.code})`);
  console.log(`ratio ${ratio.toFixed(3)} (target < 0.1): ${ratio < 0.1 ? 'ok' : 'MISSED'}`);
  if (ratio >= 0.1 || suggest.code !== 0) process.exitCode = 1;
} finally {
  if (!args.includes('--keep')) await rm(dir, { recursive: true, force: true });
  else console.log(`kept ${dir}`);
}
