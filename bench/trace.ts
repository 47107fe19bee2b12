/**
 * npm run bench:trace — "where is my requisition?" on a log the default retention reaches within months
 * (docs/development.md#trace-on-a-large-log-npm-run-benchtrace; issue 44).
 * Writes a 50 MB audit log (bench/trace-log.ts: 40 days of two daily exports under recurring names, 10,000
 * requisitions from file to award), starts a real redis-server, then measures, each with its peak RSS:
 *   - the index built from the files (the first `trace` on a log without one; then the writer keeps it current);
 *   - `rfq-sync trace <external_id>` as a whole process (start-up, Redis, index, lines), and
 *     `rfq-sync trace <recurring file name>` (the summary of its files) and `--all` (every step, streamed);
 *   - the lookup page for both, four requests at once, on a worker process of its own (bench/trace-page-child.ts),
 *     while /healthz is asked every 20 ms beside them, and the worker's event-loop delay and a 100 ms timer's lateness
 *     (the schedules' stand-in) are recorded.
 * Baselines, in the same run: the CLI's start-up (`rfq-sync --help`), and one streamed pass over the whole log
 * parsing every line (what `trace` did before the index, several times per query).
 * Targets: trace <external_id> <= 1 s as a whole process; the page <= 2 s and <= 1 MB per answer; /healthz within
 * 200 ms throughout; peak RSS < 200 MB. Options: --days N (default 40), --keep (leave the log).
 */
import { fork, spawnSync } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { startEmbeddedRedis } from '../src/redis/embedded-redis.ts';
import { ACCOUNT, DAILY, writeBenchLog } from './trace-log.ts';

/** The image's and the systemd units' NODE_OPTIONS (docs/operations.md#memory; test/app/deploy-units.test.ts). */
const WORKER_NODE_OPTIONS = '--max-semi-space-size=8';
const ROOT = fileURLToPath(new URL('../', import.meta.url));
const BIN = join(ROOT, 'bin/rfq-sync.ts');
const args = process.argv.slice(2);

if (args[0] === '--child-scan') {
  // the baseline: every line of every file read and parsed once, the matches kept (the trace before the index)
  const [, dir, what] = args as [string, string, string];
  const { readdirSync } = await import('node:fs');
  let n = 0;
  let hits = 0;
  for (const f of readdirSync(dir)
    .filter((x) => x.endsWith('.jsonl'))
    .sort())
    for await (const text of createInterface({ input: createReadStream(join(dir, f)), crlfDelay: Infinity })) {
      const l = JSON.parse(text) as { external_ids?: string[] };
      n++;
      if (l.external_ids?.includes(what)) hits++;
    }
  process.stderr.write(`\nSCAN ${n} ${hits}\n`);
  process.exit(0);
}

const at = (name: string, fallback: number) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback);
const dir = await mkdtemp(join(tmpdir(), 'rfq-bench-trace-'));
const rssHook = join(dir, 'rss-hook.mjs');
await writeFile(
  rssHook,
  "process.on('exit', () => process.stderr.write(`\\nMAXRSS ${process.resourceUsage().maxRSS}\\n`));\n",
);
const redis = await startEmbeddedRedis({});
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
const kb = (bytes: number) => `${(bytes / 1e3).toFixed(1)} kB`;
const verdict = (ok: boolean) => (ok ? 'ok' : 'MISSED');

interface Run {
  seconds: number;
  rssMB: number;
  code: number | null;
  outBytes: number;
  outLines: number;
}

/** A whole process of `node <args>`, timed, with its own peak RSS. */
function run(argv: string[]): Run {
  const t = performance.now();
  const r = spawnSync(process.execPath, ['--import', rssHook, ...argv], {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      RFQ_SYNC_DIR: dir,
      REDIS_URL: redis.url,
      SOURCING_ACCOUNT: ACCOUNT,
    },
    encoding: 'utf8',
    maxBuffer: 1 << 30,
  });
  const seconds = (performance.now() - t) / 1000;
  const rss = /MAXRSS (\d+)/.exec(r.stderr)?.[1];
  return {
    seconds,
    rssMB: rss ? Math.round((Number(rss) * 1024) / 1e6) : NaN, // maxRSS is in KiB; MB here as everywhere
    code: r.status,
    outBytes: Buffer.byteLength(r.stdout),
    outLines: r.stdout.split('\n').length - 1,
  };
}

const show = (what: string, r: Run, extra = '') =>
  console.log(
    `${what.padEnd(46)} ${r.seconds.toFixed(2).padStart(6)} s  ${String(r.rssMB).padStart(4)} MB RSS  exit ${r.code}  ${r.outLines} line(s), ${mb(r.outBytes)} printed${extra}`,
  );

function get(url: string): Promise<{ ms: number; bytes: number; status: number }> {
  const t = performance.now();
  return new Promise((resolve, reject) => {
    request(url, (res) => {
      let bytes = 0;
      res.on('data', (c: Buffer) => (bytes += c.length));
      res.on('end', () => resolve({ ms: performance.now() - t, bytes, status: res.statusCode ?? 0 }));
    })
      .on('error', reject)
      .end();
  });
}

try {
  const t = performance.now();
  const log = await writeBenchLog(dir, at('--days', 40));
  console.log(
    `log: ${mb(log.bytes)} in ${log.days} day files, ${log.lines.toLocaleString('en')} lines, ${log.requisitions.toLocaleString('en')} requisitions (${DAILY.map((d) => `${d.name} x${d.per} daily`).join(', ')}); written in ${((performance.now() - t) / 1000).toFixed(1)} s`,
  );
  const recurring = DAILY[0]!.name;

  console.log('\nbaselines');
  const help = run([BIN, '--help']);
  show('rfq-sync --help (CLI start-up)', help);
  const scan = run([join(ROOT, 'bench/trace.ts'), '--child-scan', join(dir, 'audit'), log.externalId]);
  show('one streamed pass parsing the whole log', scan);

  console.log('\nthe CLI (whole processes, Redis up)');
  const build = run([BIN, 'trace', log.externalId]);
  show('trace <external_id>, no index yet (built)', build);
  const byId = [0, 1, 2].map(() => run([BIN, 'trace', log.externalId]));
  const best = byId.reduce((a, b) => (b.seconds < a.seconds ? b : a));
  for (const r of byId) show('trace <external_id>', r);
  const summary = run([BIN, 'trace', recurring]);
  show(`trace ${recurring}`, summary);
  const all = run([BIN, 'trace', recurring, '--all']);
  show(`trace ${recurring} --all (streamed)`, all);

  console.log(
    `\nthe lookup page: 4 requests at once per query, /healthz every 20 ms beside them; the worker with NODE_OPTIONS=${WORKER_NODE_OPTIONS} (as the image and the units start it)`,
  );
  // the worker as systemd and the image start it: NODE_COMPILE_CACHE set; first a start that fills the cache (the
  // first after an install or upgrade), then a restart's, which is measured
  const startWorker = (...extra: string[]) => {
    const child = fork(join(ROOT, 'bench/trace-page-child.ts'), [dir, redis.url, ACCOUNT, ...extra], {
      stdio: 'inherit',
      env: { ...process.env, NODE_COMPILE_CACHE: join(dir, 'compile-cache'), NODE_OPTIONS: WORKER_NODE_OPTIONS },
    });
    const ready = new Promise<{ url: string; idleRssMB: number }>((r) =>
      child.once('message', r as (m: unknown) => void),
    );
    return { child, ready };
  };
  const firstStart = await startWorker('--idle').ready;
  const { child, ready } = startWorker();
  const { url, idleRssMB } = await ready;
  console.log(
    `worker idle: ${idleRssMB} MB (its modules from the compile cache); ${firstStart.idleRssMB} MB on a first start (compiled, the type stripper loaded)`,
  );
  const page = (q: string) => get(`${url}/trace?q=${encodeURIComponent(q)}`);
  const first = await page(log.externalId);
  console.log(
    `first lookup (its thread started): ${(first.ms / 1000).toFixed(2)} s, ${kb(first.bytes)}, HTTP ${first.status}`,
  );
  let healthMax = 0;
  let probing = true;
  const probe = (async () => {
    while (probing) {
      healthMax = Math.max(healthMax, (await get(`${url}/healthz`)).ms);
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  const rounds: Array<{ q: string; answers: Array<{ ms: number; bytes: number; status: number }> }> = [];
  for (const q of [log.externalId, recurring])
    for (let round = 0; round < 2; round++)
      rounds.push({ q, answers: await Promise.all([0, 1, 2, 3].map(() => page(q))) });
  probing = false;
  await probe;
  child.send('report');
  const worker = await new Promise<{
    maxRssMB: number;
    loopDelayMaxMs: number;
    loopDelayP99Ms: number;
    timerLateMaxMs: number;
  }>((r) => child.once('message', r as (m: unknown) => void));
  let slowest = 0;
  let largest = 0;
  for (const { q, answers } of rounds) {
    const ms = answers.map((a) => a.ms);
    slowest = Math.max(slowest, ...ms);
    largest = Math.max(largest, ...answers.map((a) => a.bytes));
    console.log(
      `${(q === recurring ? recurring : '<external_id>').padEnd(22)} ${answers.map((a) => `${(a.ms / 1000).toFixed(2)} s`).join(', ')}; ${answers.map((a) => kb(a.bytes)).join(', ')}; HTTP ${[...new Set(answers.map((a) => a.status))].join(',')}`,
    );
  }
  console.log(
    `worker: peak RSS ${worker.maxRssMB} MB (${idleRssMB} MB before the first lookup: the endpoint, Redis, the modules); event-loop delay max ${worker.loopDelayMaxMs} ms (p99 ${worker.loopDelayP99Ms} ms); a 100 ms timer at most ${worker.timerLateMaxMs} ms late; /healthz at most ${healthMax.toFixed(0)} ms`,
  );

  console.log('\ntargets');
  console.log(
    `trace <external_id> whole process ${best.seconds.toFixed(2)} s <= 1 s: ${verdict(best.seconds <= 1)} (x${(best.seconds / help.seconds).toFixed(2)} the CLI's start-up; x${(best.seconds / scan.seconds).toFixed(2)} one pass over the log)`,
  );
  console.log(
    `the page ${(slowest / 1000).toFixed(2)} s <= 2 s per answer: ${verdict(slowest <= 2000)}; ${kb(largest)} <= 1 MB: ${verdict(largest <= 1e6)}`,
  );
  console.log(`/healthz ${healthMax.toFixed(0)} ms <= 200 ms throughout: ${verdict(healthMax <= 200)}`);
  const cli = Math.max(best.rssMB, summary.rssMB);
  const added = worker.maxRssMB - idleRssMB;
  console.log(
    `peak RSS of trace (whole processes) ${cli} MB < 200 MB: ${verdict(cli < 200)}; --all ${all.rssMB} MB: ${verdict(all.rssMB < 200)}`,
  );
  console.log(
    `peak RSS of the worker with the page ${worker.maxRssMB} MB < 200 MB: ${verdict(worker.maxRssMB < 200)} (${idleRssMB} MB idle: the endpoint, Redis, the modules; the lookups' own ${added} MB)`,
  );
  console.log(
    `(the index built once from the files: ${build.seconds.toFixed(2)} s, ${build.rssMB} MB RSS, x${(build.seconds / scan.seconds).toFixed(2)} one pass)`,
  );
} finally {
  await redis.stop();
  if (!args.includes('--keep')) await rm(dir, { recursive: true, force: true });
  else console.log(`kept ${dir}`);
}
