/**
 * Redis Sentinel with a real failover: a primary, a replica and three redis-sentinel processes; one `rfq-sync worker`
 * (the shipped command) on REDIS_SENTINELS creating 300 requisitions from one file while 10% of the create answers
 * are lost (committed, then 502). Half way the primary is SIGKILLed. The worker is never restarted by hand: it follows
 * the sentinels to the promoted replica. Exactly 300 RFQs, none lost, none twice; the time from the kill to the
 * first POST that could not have been in flight at the kill is measured (a figure, not an assertion).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../../src/redis/embedded-redis.ts';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.ts';
import { recordFigure } from './figures.ts';
import { csvOf, GENERIC_TEMPLATE, linesOf } from './hostile-files.ts';
import { callsInFlight } from '../helpers/monitor.ts';
import { spawnWorker, type WorkerChild } from '../helpers/worker-child.ts';
import { waitFor } from '../helpers/wait.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const SECTION = 'failover';
const REQUISITIONS = 300;
const CONCURRENCY = 8;

const processes: ChildProcess[] = [];
let sandbox: Sandbox | undefined;
let worker: WorkerChild | undefined;
const dirs: string[] = [];
afterAll(async () => {
  worker?.child.kill('SIGKILL');
  for (const p of processes) p.kill('SIGKILL');
  await sandbox?.stop();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function tmp(tag: string): string {
  const d = tempDir(`rfq-failover-${tag}-`);
  dirs.push(d);
  return d;
}

async function launch(cmd: string, args: string[]): Promise<ChildProcess> {
  const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  processes.push(child);
  let said = '';
  child.stdout!.setEncoding('utf8').on('data', (s: string) => (said += s));
  child.stderr!.setEncoding('utf8').on('data', (s: string) => (said += s));
  await new Promise((r) => setTimeout(r, 50));
  if (child.exitCode !== null) throw new Error(`${cmd} exited at start (${child.exitCode}): ${said.slice(-500)}`);
  child.once('exit', (code) => {
    if (code !== null && code !== 0) console.error(`${cmd} ${args[0]} exited (${code}): ${said.slice(-500)}`);
  });
  return child;
}

/** Whether a redis-server answers PING on this port now. */
async function answers(port: number): Promise<boolean> {
  const c = new Redis({ port, lazyConnect: true, retryStrategy: () => null, maxRetriesPerRequest: 0 });
  c.on('error', () => undefined);
  try {
    await c.connect();
    return (await c.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    c.disconnect();
  }
}

async function redisServer(port: number, extra: string[] = []): Promise<ChildProcess> {
  const dir = tmp(`redis-${port}`);
  const child = await launch('redis-server', [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--dir',
    dir,
    '--save',
    '',
    '--appendonly',
    'yes',
    '--maxmemory-policy',
    'noeviction',
    '--loglevel',
    'warning',
    ...extra,
  ]);
  // up within 10 s (a loaded machine starts it slowly; a port taken since freePort shows as the exit above): a
  // connection asked again until one answers (the first refused connect ended the wait, seen in CI: ECONNREFUSED)
  await waitFor(`redis-server on port ${port} answering`, () => answers(port), 10_000, 50);
  return child;
}

async function sentinel(port: number, primaryPort: number): Promise<ChildProcess> {
  const dir = tmp(`sentinel-${port}`);
  const conf = join(dir, 'sentinel.conf');
  // Sentinel rewrites its config file: each gets its own, written fresh
  writeFileSync(
    conf,
    [
      `port ${port}`,
      'bind 127.0.0.1',
      `dir ${dir}`,
      `sentinel monitor mymaster 127.0.0.1 ${primaryPort} 2`,
      'sentinel down-after-milliseconds mymaster 1000',
      'sentinel failover-timeout mymaster 5000',
      'sentinel parallel-syncs mymaster 1',
      '',
    ].join('\n'),
  );
  // redis-server in sentinel mode: the Debian redis-server package is enough (redis-sentinel is the same binary)
  return launch('redis-server', [conf, '--sentinel']);
}

describe('Redis Sentinel: the primary SIGKILLed mid-run', () => {
  it(
    `${REQUISITIONS} requisitions, 10% of create answers lost: exactly ${REQUISITIONS} RFQs, the worker never restarted`,
    { timeout: 240_000 },
    async () => {
      const [pPort, rPort, s1, s2, s3] = await Promise.all([
        freePort(),
        freePort(),
        freePort(),
        freePort(),
        freePort(),
      ]);
      const primary = await redisServer(pPort!);
      await redisServer(rPort!, ['--replicaof', '127.0.0.1', String(pPort)]);
      for (const s of [s1!, s2!, s3!]) await sentinel(s, pPort!);
      const sentinels = [s1, s2, s3].map((p) => `127.0.0.1:${p}`).join(',');
      // the replica has synced and every sentinel knows it before the run starts
      const probe = new Redis({ port: rPort! });
      await waitFor(
        'replica in sync',
        async () => (await probe.info('replication')).includes('master_link_status:up'),
        20_000,
        100,
      );
      probe.disconnect();
      const sProbe = new Redis({ port: s1! });
      await waitFor(
        'sentinels know the replica and each other',
        async () => {
          const m = (await sProbe.call('SENTINEL', 'MASTER', 'mymaster')) as string[];
          const field = (k: string) => Number(m[m.indexOf(k) + 1]);
          return field('num-slaves') >= 1 && field('num-other-sentinels') >= 2;
        },
        30_000,
        200,
      );

      sandbox = await startSandbox({ seed: 16, faults: { latencyMs: 40 } });
      sandbox.setFaults({ latencyMs: 40, commitThenFail: { rate: 0.1, mode: '502' } });
      const dir = tmp('data');
      const env = {
        RFQ_SYNC_DIR: dir,
        REDIS_SENTINELS: sentinels,
        REDIS_SENTINEL_NAME: 'mymaster',
        SOURCING_BASE_URL: sandbox.url,
        SOURCING_TOKEN: 'sandbox-token',
        SOURCING_ACCOUNT: 'failover',
        HTTP_PORT: '0',
        FILE_STABLE_MS: '200',
        CONCURRENCY_CREATE: String(CONCURRENCY),
        SOURCING_CONNECT_TIMEOUT_MS: '1000',
        SOURCING_HEADERS_TIMEOUT_MS: '2000',
        SOURCING_BODY_TIMEOUT_MS: '2000',
        SOURCING_CALL_DEADLINE_MS: '5000',
        JOB_ATTEMPTS: '1000',
        JOB_BACKOFF_MS: '200',
        // not the default 10 calls a second: the 300 creates took 30 s of the run, the failover a few
        RATE_LIMIT_PER_SECOND: '100',
        LOG_LEVEL: 'warn',
      };
      worker = await spawnWorker({ ...env, LOG_LEVEL: 'info' }, { readyTimeoutMs: 30_000 });
      writeFileSync(join(dir, 'inbox', 'failover.csv'), csvOf(GENERIC_TEMPLATE, linesOf('FO', REQUISITIONS, 1)));

      const count = () => sandbox!.control.listAll().length;
      await waitFor('a third of the RFQs created', () => count() >= REQUISITIONS / 3, 90_000, 20);
      const atKill = count();
      const killedAt = Date.now();
      primary.kill('SIGKILL');
      // resumed: more RFQs than could have been in flight at the kill
      await waitFor(
        'work resumed after the failover',
        () => count() > atKill + CONCURRENCY,
        90_000,
        25,
        async () => `rfqs ${count()}; worker: ${worker!.output().slice(-2000)}`,
      );
      const resumeMs = Date.now() - killedAt;

      const distinct = () => new Set(sandbox!.control.listAll().flatMap((r) => r.lines.map((l) => l.external_id))).size;
      await waitFor(
        `${REQUISITIONS} requisitions created`,
        () => distinct() >= REQUISITIONS,
        120_000,
        200,
        async () => `distinct ${distinct()}, rfqs ${count()}; worker: ${worker!.output().slice(-2000)}`,
      );
      // anything still in flight lands now, or never: every requisition's create job has finished (the worker said
      // so) and the sandbox answered every call
      const finished = () =>
        new Set(
          [
            ...worker!
              .output()
              .matchAll(/"queue":"create-rfq"[^\n]*?"requisition":"([^"]+)"[^\n]*"msg":"create-rfq job /g),
          ].map((m) => m[1]),
        ).size;
      await waitFor(
        'every create job finished',
        () => finished() >= REQUISITIONS && callsInFlight(sandbox!) === 0,
        60_000,
        100,
        async () => `create jobs finished ${finished()}; worker: ${worker!.output().slice(-2000)}`,
      );
      const rfqs = sandbox.control.listAll();
      const seen = new Map<string, number>();
      for (const r of rfqs)
        for (const l of r.lines) seen.set(l.external_id ?? '', (seen.get(l.external_id ?? '') ?? 0) + 1);
      const duplicated = [...seen.values()].filter((n) => n > 1).length;
      const lost = REQUISITIONS - seen.size;
      const stats = sandbox.stats();
      const alive = worker.child.exitCode === null && worker.child.signalCode === null;

      recordFigure({
        section: SECTION,
        name: 'RFQs expected / created / duplicated / lost',
        value: `${REQUISITIONS} / ${rfqs.length} / ${duplicated} / ${lost}`,
        target: 'equal, 0, 0',
        ok: rfqs.length === REQUISITIONS && duplicated === 0 && lost === 0,
      });
      recordFigure({
        section: SECTION,
        name: 'primary SIGKILLed after / lost create answers',
        value: `${atKill} RFQs / ${stats.commitThenFail}`,
        ok: true,
      });
      recordFigure({
        section: SECTION,
        name: 'kill -> first POST after the failover',
        value: `${(resumeMs / 1000).toFixed(1)} s`,
        ok: true,
      });
      recordFigure({
        section: SECTION,
        name: 'worker restarted by hand',
        value: alive ? 'no' : 'it died',
        target: 'no',
        ok: alive,
      });
      console.log(
        `failover: primary killed after ${atKill} RFQs, work resumed ${resumeMs} ms later; ${rfqs.length} RFQs, ${duplicated} duplicated, ${lost} lost, ${stats.commitThenFail} lost answers`,
      );

      expect(alive, worker.output().slice(-3000)).toBe(true);
      expect(duplicated).toBe(0);
      expect(lost).toBe(0);
      expect(rfqs).toHaveLength(REQUISITIONS);
      expect(stats.commitThenFail).toBeGreaterThan(0);
    },
  );
});
