/**
 * Redis loses its state mid-run (FLUSHALL): 60 requisitions in one file, a real `rfq-sync worker`, the sandbox with
 * 150 ms per call so the flush lands while RFQs are being created. The loss is seen (log, `status`, /readyz), creation
 * pauses, `rfq-sync recover --since` brings every requisition to exactly one RFQ (reconciling before any post), and
 * the same file dropped again afterwards creates nothing more. Before the epoch marker: 46 of 60 were never created
 * and the re-drop made 14 duplicates.
 */
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { startEmbeddedRedis, type EmbeddedRedis } from '../../src/redis/embedded-redis.ts';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.ts';
import { csvOf, GENERIC_TEMPLATE, linesOf } from '../hardening/hostile-files.ts';
import { spawnCli, type Spawned } from '../helpers/cli.ts';
import { callsInFlight, watchCommands } from '../helpers/monitor.ts';
import { freePort, waitFor as waitUntil } from '../helpers/wait.ts';
import { tempDir } from '../helpers/temp-dir.ts';

let redis: EmbeddedRedis | undefined;
let sandbox: Sandbox | undefined;
let worker: Spawned | undefined;
let dir: string | undefined;
afterAll(async () => {
  worker?.child.kill('SIGKILL');
  await sandbox?.stop();
  await redis?.stop();
});

/** The harness's waitFor, naming what the worker said when it times out. */
const waitFor = (what: string, cond: () => Promise<boolean> | boolean, timeoutMs: number) =>
  waitUntil(what, cond, timeoutMs, 100, async () => `worker said:\n${worker?.output().slice(-3000)}`);

/** The create-rfq queue as `status --json` reads it: no job left to run (waiting, delayed, active). */
async function createQueueDrained(env: Record<string, string>): Promise<boolean> {
  const s = spawnCli(['status', '--json'], env);
  if ((await s.exited).code !== 0) return false;
  const q = (JSON.parse(s.output()) as { queues: Record<string, Record<string, number>> }).queues['create-rfq'] ?? {};
  return Object.entries(q).every(([state, n]) => ['completed', 'failed'].includes(state) || n === 0);
}

describe('Redis loses its state mid-run', () => {
  it(
    'is detected, pauses creation, and recover brings 60 requisitions to exactly 60 RFQs; a re-drop adds none',
    { timeout: 120_000 },
    async () => {
      // its own Redis: FLUSHALL must not reach the other test files' keys
      redis = await startEmbeddedRedis({ appendonly: true });
      sandbox = await startSandbox({ seed: 5, faults: { latencyMs: 150 } });
      dir = tempDir('rfq-state-lost-');
      const port = await freePort();
      const env = {
        RFQ_SYNC_DIR: dir,
        REDIS_URL: redis.url,
        SOURCING_BASE_URL: sandbox.url,
        SOURCING_TOKEN: 'sandbox-token',
        SOURCING_ACCOUNT: 'lost',
        HTTP_PORT: String(port),
        FILE_STABLE_MS: '200',
        STATE_CHECK_MS: '500',
        CONCURRENCY_CREATE: '4',
        JOB_BACKOFF_MS: '200',
        // the sandbox is local: the default 10 calls a second only made the recovery wait
        RATE_LIMIT_PER_SECOND: '1000',
        // a create in flight at the flush holds its requisition for the POST's lease (deadline + 2 s): 62 s at the
        // default 60 s deadline, longer than the wait for the queue to drain below (a job still delayed, seen in CI)
        SOURCING_CALL_DEADLINE_MS: '5000',
        // after the flush the list lag is not known: the sandbox lists at once, the default 30 s is a real service's
        SOURCING_LIST_SETTLE_UNMEASURED_MS: '2000',
        LOG_LEVEL: 'info',
      };
      const t0 = new Date(Date.now() - 60_000);
      worker = spawnCli(['worker'], env);
      await worker.waitFor('rfq-sync worker started', 30_000);

      const csv = csvOf(GENERIC_TEMPLATE, linesOf('LOST', 60, 2));
      writeFileSync(join(dir, 'inbox', 'export.csv'), csv);
      const ours = () => sandbox!.control.listAll();
      await waitFor('some RFQs created', () => ours().length >= 8, 30_000);

      const admin = new Redis(redis.url);
      await admin.flushall();
      const atFlush = ours().length;
      expect(atFlush).toBeLessThan(60);

      // seen within the check interval: log, status, readiness
      await worker.waitFor('Redis lost its state', 10_000);
      const status = spawnCli(['status', '--json'], env);
      expect((await status.exited).code, status.output()).toBe(0);
      expect(JSON.parse(status.output()).stateLost).toMatchObject({
        reason: expect.stringMatching(/epoch marker .* is not in Redis/),
      });
      const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
      expect(ready.status).toBe(503);
      expect(await ready.text()).toMatch(/Redis lost its state/);
      // creation stays paused: nothing more than what was in flight at the flush. What was in flight has landed when
      // the sandbox answered every call and the worker finished a state check since; then two more checks pass
      // (each check of the worker reads the `state-lost` key: a finished sweep of the epoch check)
      const checks = await watchCommands(redis.url, ([cmd, key]) => cmd === 'get' && !!key?.endsWith(':state-lost'));
      let idleSince = Infinity;
      await waitFor(
        'the calls in flight at the flush answered, and a state check since',
        () => {
          if (callsInFlight(sandbox!) !== 0) idleSince = Infinity;
          else idleSince = Math.min(idleSince, checks.count());
          return checks.count() > idleSince;
        },
        10_000,
      );
      const paused = ours().length;
      const seen = checks.count();
      await waitFor('two more state checks of the worker', () => checks.count() >= seen + 2, 10_000);
      checks.stop();
      expect(callsInFlight(sandbox)).toBe(0);
      expect(ours().length).toBe(paused);
      expect(paused).toBeLessThan(60);

      const recover = spawnCli(['recover', '--since', t0.toISOString()], env);
      expect((await recover.exited).code, recover.output()).toBe(0);
      // a job in flight at the flush may have recorded its RFQ since: left alone; every other one is reconciled
      const m = /60 requisition\(s\): (\d+) to reconcile, (\d+) with a record, (\d+) re-seeded from the audit log/.exec(
        recover.output(),
      );
      expect(m, recover.output()).not.toBeNull();
      expect(Number(m![1]) + Number(m![2]) + Number(m![3])).toBe(60);

      const distinct = () => new Set(ours().flatMap((r) => r.lines.map((l) => l.external_id))).size;
      await waitFor('every requisition created', () => distinct() === 120, 60_000);
      // every create job has run (none waiting, delayed or active) and the sandbox answered every call
      await waitFor(
        'the create queue drained',
        async () => (await createQueueDrained(env)) && callsInFlight(sandbox!) === 0,
        30_000,
      );
      expect(ours()).toHaveLength(60);
      expect(sandbox.stats().rfqsCreated).toBe(60); // the ones made before the flush were adopted, not posted again
      expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200);

      // the same file again: every requisition already has its RFQ
      writeFileSync(join(dir, 'inbox', 'export-again.csv'), csv);
      await waitFor('the re-drop archived', () => readdirSync(join(dir!, 'archive')).length === 2, 30_000);
      // its 60 create jobs were queued before the file was archived: each has run once the queue is drained
      await waitFor(
        'the create queue drained',
        async () => (await createQueueDrained(env)) && callsInFlight(sandbox!) === 0,
        30_000,
      );
      expect(ours()).toHaveLength(60);
      console.log(
        `state lost: ${atFlush} RFQs at the flush, ${paused} when paused; after recover 60 RFQs, ${sandbox.stats().rfqsCreated} posted in all`,
      );
      await admin.quit();
    },
  );
});
