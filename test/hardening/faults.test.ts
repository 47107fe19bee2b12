/**
 * Faults, one after another on one running system (a worker process, Redis with AOF, the sandbox over HTTP): the
 * service down then back, 5xx for half the calls, 429 storms, answers slower than the time-out, invalid JSON and
 * schema-breaking lists while answers to creates are lost, Redis SIGKILLed and restarted, the worker SIGKILLed again
 * and again. Each phase drops its own file of requisitions; figures: RFQs expected / created / duplicated,
 * requisitions lost, jobs stuck, time to recover after the fault ends.
 */
import { readdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmbeddedRedis } from '../../src/redis/embedded-redis.ts';
import type { Sandbox } from '../../src/sandbox/server.ts';
import type { SandboxFaults } from '../../src/sandbox/faults.ts';
import { recordFigure } from './figures.ts';
import { csvOf, GENERIC_TEMPLATE, linesOf } from './hostile-files.ts';
import { usePipeline } from '../helpers/pipeline.ts';
import { openQueues, unfinished } from '../helpers/job-counts.ts';
import { sleep, waitFor } from '../helpers/wait.ts';
import type { DataDir } from '../helpers/files.ts';
import type { WorkerChild } from '../helpers/worker-child.ts';

const SECTION = 'faults';

describe('faults: the service, Redis and the worker fail; nothing is lost or doubled', () => {
  // No autopilot here: RFQs changing lists under the reconcile search is the soak's part (soak.ts).
  const pipeline = usePipeline({
    scope: 'file',
    appendonly: true,
    sandbox: { seed: 11, pageSize: 100 },
    tag: 'faults',
  });
  let redis: EmbeddedRedis;
  let sandbox: Sandbox;
  let data: DataDir;
  let staging: string;
  let service: WorkerChild;
  let env: Record<string, string>;
  let prefix: string;
  /** external_id -> requisition, for every requisition dropped so far. */
  const expected = new Map<string, string>();
  const outputs: string[] = [];

  beforeAll(async () => {
    ({ redis, sandbox, data, prefix, staging } = pipeline);
    env = pipeline.workerEnv({
      JOB_LOCK_MS: '3000',
      STALLED_CHECK_MS: '1000',
      INBOX_RECOVER_AFTER_MS: '5000',
      LOG_LEVEL: 'warn',
    });
    service = await pipeline.spawnWorker(env);
  });
  afterAll(async () => {
    await service?.kill('SIGTERM');
  });

  /** Drop a generic-template file of `n` requisitions (2 lines each) named after the phase. */
  async function drop(tag: string, n: number): Promise<void> {
    const lines = linesOf(`${tag}-`, n, 2);
    for (const l of lines) expected.set(`${l.pr}-${l.item}`, l.pr);
    const tmp = join(staging, `${tag}.csv`);
    await writeFile(tmp, csvOf(GENERIC_TEMPLATE, lines));
    await rename(tmp, join(data.inbox, `${tag}.csv`));
  }

  function tally(): { created: number; duplicated: number; lost: number; unexpected: number } {
    const seen = new Map<string, number>();
    const rfqs = sandbox.control.listAll();
    for (const r of rfqs)
      for (const l of r.lines) seen.set(l.external_id ?? '', (seen.get(l.external_id ?? '') ?? 0) + 1);
    return {
      created: rfqs.length,
      duplicated: [...seen.values()].filter((n) => n > 1).length,
      lost: [...expected.keys()].filter((e) => !seen.has(e)).length,
      unexpected: [...seen.keys()].filter((e) => !expected.has(e)).length,
    };
  }

  /** Wait until every dropped requisition is at the service and the inbox and creation queues are idle. */
  async function settle(what: string, timeoutMs = 90_000): Promise<number> {
    const queues = openQueues(redis.url, prefix);
    const t0 = Date.now();
    try {
      await waitFor(
        `${what}: every requisition created`,
        async () => {
          if (tally().lost > 0) return false;
          if ((await readdir(data.inbox)).length > 0 || (await readdir(data.processing)).length > 0) return false;
          return unfinished(await queues.counts(), ['ingest', 'createRfq']) === 0;
        },
        timeoutMs,
        250,
        async () =>
          `${JSON.stringify(tally())}, inbox ${JSON.stringify(await readdir(data.inbox))}, processing ${JSON.stringify(await readdir(data.processing))}, queues ${JSON.stringify(await queues.counts())}, worker: ${service.output().slice(-1500)}`,
      );
      return Date.now() - t0;
    } finally {
      await queues.close();
    }
  }

  /** Run a fault for `forMs` while a file is worked on, lift it, and measure the time to recover. */
  async function phase(name: string, tag: string, n: number, faults: SandboxFaults, forMs: number): Promise<void> {
    await drop(tag, n);
    sandbox.setFaults(faults);
    await sleep(forMs); // sleep: the fault lasts forMs (the scenario)
    sandbox.setFaults({});
    const recoverMs = await settle(name);
    const t = tally();
    recordFigure({
      section: SECTION,
      name: `${name}: time to recover after the fault`,
      value: `${(recoverMs / 1000).toFixed(1)} s`,
      ok: true,
    });
    expect(t.duplicated, `${name}: duplicated external_ids`).toBe(0);
    expect(t.unexpected).toBe(0);
  }

  it('the service is down for 4 s, then back', async () => {
    await phase('service down 4 s', 'DOWN', 20, { down: true }, 4_000);
  });

  it('5xx for 50% of calls', async () => {
    await phase('5xx for 50% of calls', 'E5XX', 30, { errorRate: 0.5 }, 5_000);
  });

  it('429 storms with Retry-After', async () => {
    await phase(
      '429 storm (burst 40, Retry-After 1 s, cap 20/s)',
      'R429',
      30,
      { rateLimit: { burst: 40, retryAfterSeconds: 1 }, maxRequestsPerSecond: 20 },
      5_000,
    );
    expect(sandbox.stats().sent429).toBeGreaterThan(0);
  });

  it('answers slower than the client time-out (the RFQ is stored, the answer comes too late)', async () => {
    await phase('answers 2.5 s, time-out 2 s', 'SLOW', 12, { latencyMs: 2_500 }, 6_000);
  });

  it('invalid JSON and schema-breaking lists while 30% of create answers are lost', async () => {
    await phase(
      'invalid JSON 50% + lost answers 30%',
      'JSON',
      20,
      { invalidJsonRate: 0.5, commitThenFail: { rate: 0.3, mode: 'mixed', stallMs: 2_500 } },
      6_000,
    );
    await phase(
      'schema breaks 30% + lost answers 30%',
      'SCHEMA',
      20,
      { schemaBreakRate: 0.3, commitThenFail: { rate: 0.3, mode: '502' } },
      6_000,
    );
  });

  it('Redis is SIGKILLed mid-run and restarted (AOF)', async () => {
    sandbox.setFaults({ latencyMs: 150 }); // creation is still under way when Redis dies
    const start = tally().created;
    await drop('REDIS', 150);
    await waitFor('the first RFQs of the phase', () => tally().created >= start + 10, 30_000, 20);
    const before = tally().created - start;
    await redis.stop({ hard: true });
    await sleep(2_000); // sleep: Redis stays down 2 s (the outage is the scenario)
    await redis.restart();
    sandbox.setFaults({});
    recordFigure({
      section: SECTION,
      name: 'Redis SIGKILL: RFQs of the phase created before the kill',
      value: `${before} of 150`,
      ok: true,
    });
    const recoverMs = await settle('Redis killed and restarted', 120_000);
    const t = tally();
    recordFigure({
      section: SECTION,
      name: 'Redis SIGKILL + restart: time to recover',
      value: `${(recoverMs / 1000).toFixed(1)} s`,
      ok: true,
    });
    expect(t.duplicated).toBe(0);
    expect(service.alive(), 'the worker rides out a Redis restart').toBe(true);
  });

  it('the worker is SIGKILLed 8 times while it ingests, creates and polls, and restarted each time', async () => {
    const stages: Record<string, number> = {};
    sandbox.setFaults({ latencyMs: 25 }); // slow enough that every kill lands mid-work
    await drop('KILL', 200);
    const queues = openQueues(redis.url, prefix);
    try {
      for (let i = 0; i < 8; i++) {
        await sleep(400 + ((i * 397) % 900)); // sleep: the kills land at spread moments (the scenario)
        const c = await queues.counts();
        for (const [k, v] of Object.entries(c)) if ((v.active ?? 0) > 0) stages[k] = (stages[k] ?? 0) + 1;
        if ((await readdir(data.processing)).length > 0) stages.file = (stages.file ?? 0) + 1;
        await service.kill('SIGKILL');
        outputs.push(service.output());
        if (i === 3) await drop('KILL2', 100); // a file arrives while no worker runs
        service = await pipeline.spawnWorker(env);
      }
    } finally {
      await queues.close();
    }
    sandbox.setFaults({});
    const recoverMs = await settle('worker SIGKILLed 8 times', 120_000);
    recordFigure({
      section: SECTION,
      name: 'worker SIGKILL x8: stages hit (active jobs at the kill)',
      value:
        Object.entries(stages)
          .map(([k, v]) => `${k} ${v}`)
          .join(', ') || 'none',
      ok: true,
    });
    recordFigure({
      section: SECTION,
      name: 'worker SIGKILL x8: time to recover after the last restart',
      value: `${(recoverMs / 1000).toFixed(1)} s`,
      ok: true,
    });
    expect(tally().duplicated).toBe(0);
  });

  it('in the end: every requisition created once, none lost, no job stuck or failed', async () => {
    const queues = openQueues(redis.url, prefix);
    let counts: Awaited<ReturnType<typeof queues.counts>>;
    try {
      counts = await queues.counts();
    } finally {
      await queues.close();
    }
    const t = tally();
    const requisitions = new Set(expected.values()).size;
    const stuck = unfinished(counts, ['ingest', 'createRfq']);
    const failed = (counts.ingest.failed ?? 0) + (counts.createRfq.failed ?? 0);
    recordFigure({
      section: SECTION,
      name: 'RFQs expected / created / duplicated',
      value: `${requisitions} / ${t.created} / ${t.duplicated}`,
      target: 'equal, dup 0',
      ok: t.created === requisitions && t.duplicated === 0,
    });
    recordFigure({
      section: SECTION,
      name: 'requisitions lost (external_ids missing)',
      value: t.lost,
      target: '0',
      ok: t.lost === 0,
    });
    recordFigure({
      section: SECTION,
      name: 'jobs stuck / failed (ingest, create-rfq)',
      value: `${stuck} / ${failed}`,
      target: '0 / 0',
      ok: stuck === 0 && failed === 0,
    });
    expect(t.created).toBe(requisitions);
    expect(t.duplicated).toBe(0);
    expect(t.lost).toBe(0);
    expect(stuck).toBe(0);
    expect(failed).toBe(0);
    const everything = outputs.join('') + service.output();
    expect(everything).not.toMatch(/heap out of memory|Unhandled|uncaughtException/i);
  });
});
