/**
 * No silent stalls (issue 21), with real `rfq-sync worker` processes, Redis and the sandbox over HTTP:
 *   - the service refuses every token for 10 s (its login down, an account suspended and restored), then accepts the
 *     same token: the worker resumes by itself within the back-off of its checks, creates every requisition once, and
 *     is never restarted;
 *   - two workers of one account with different data folders (each host its own /var/lib/rfq-sync): the second
 *     refuses to start (exit 2, both folders named), or runs with INTAKE=off; no requisition is lost.
 */
import { rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { redisKeys } from '../../src/redis/redis-keys.ts';
import { recordFigure } from './figures.ts';
import { csvOf, GENERIC_TEMPLATE, linesOf } from './hostile-files.ts';
import { ls, makeDataDir, type DataDir } from '../helpers/files.ts';
import { openQueues, unfinished } from '../helpers/job-counts.ts';
import { serviceEnv } from '../helpers/worker-env.ts';
import { sleep, waitFor } from '../helpers/wait.ts';
import { usePipeline } from '../helpers/pipeline.ts';
import { useCleanups } from '../helpers/cleanups.ts';

const SECTION = 'stalls';

describe('no silent stalls: real worker processes', () => {
  const pipeline = usePipeline({ sandbox: { seed: 21, pageSize: 100 }, tag: 'stalls' });
  const cleanups = useCleanups();

  /** Drop a generic-template file of `n` requisitions (2 lines each) into `inbox`; its external_ids. */
  async function drop(data: DataDir, tag: string, n: number): Promise<string[]> {
    const lines = linesOf(`${tag}-`, n, 2);
    const tmp = join(data.root, `.${tag}.csv.tmp`);
    await writeFile(tmp, csvOf(GENERIC_TEMPLATE, lines));
    await rename(tmp, join(data.inbox, `${tag}.csv`));
    return lines.map((l) => `${l.pr}-${l.item}`);
  }

  /** Of these external_ids: how many reached the service, how many twice. */
  function tally(expected: string[]): { created: number; duplicated: number; lost: number } {
    const seen = new Map<string, number>();
    for (const r of pipeline.sandbox.control.listAll())
      for (const l of r.lines) seen.set(l.external_id ?? '', (seen.get(l.external_id ?? '') ?? 0) + 1);
    return {
      created: expected.filter((e) => seen.has(e)).length,
      duplicated: expected.filter((e) => (seen.get(e) ?? 0) > 1).length,
      lost: expected.filter((e) => !seen.has(e)).length,
    };
  }

  /** Every expected external_id at the service, the ingest and create queues idle; the final counts. */
  async function settle(expected: string[], state: () => string) {
    const queues = openQueues(pipeline.redisUrl, pipeline.prefix);
    try {
      await waitFor(
        'every requisition created, the queues idle',
        async () => tally(expected).lost === 0 && unfinished(await queues.counts(), ['ingest', 'createRfq']) === 0,
        90_000,
        250,
        async () => `${JSON.stringify(tally(expected))}, queues ${JSON.stringify(await queues.counts())}; ${state()}`,
      );
      return await queues.counts();
    } finally {
      await queues.close();
    }
  }

  it('the service refuses every token for 10 s, then accepts the same one: the worker resumes by itself within the back-off, creates everything once, and is never restarted', async () => {
    const env = pipeline.workerEnv({ AUTH_CHECK_MS: '500' });
    const worker = await pipeline.spawnWorker(env);
    const pid = worker.child.pid;
    const redis = new Redis(pipeline.redisUrl);
    cleanups.push(() => redis.quit());
    const pauseKey = redisKeys(pipeline.prefix, 'hardening').authPause;

    pipeline.sandbox.setFaults({ refuseTokens: true });
    const refusedAt = Date.now();
    const expected = await drop(pipeline.data, 'AUTH', 20);
    await waitFor('paused', async () => (await redis.exists(pauseKey)) === 1, 30_000);
    // sleep: refused for 10 s: the back-off's schedule over that time is what is measured
    await sleep(Math.max(0, refusedAt + 10_000 - Date.now()));
    expect(tally(expected).created).toBe(0); // nothing went out while refused
    // The check of the same token that was due when the service took it back (the back-off's schedule).
    const checks = Number(await redis.hget(pauseKey, 'checks'));
    const dueAt = Number(await redis.hget(pauseKey, 'nextCheckAt'));
    pipeline.sandbox.setFaults({});
    const acceptedAt = Date.now();
    await waitFor('resumed by itself', async () => (await redis.exists(pauseKey)) === 0, 60_000, 50);
    const resumedAt = Date.now();

    const counts = await settle(expected, () => worker.output().slice(-1500));
    const t = tally(expected);
    const out = worker.output();
    recordFigure({
      section: SECTION,
      name: 'token refused 10 s, then the same token accepted: checks during the outage',
      value: checks,
      ok: checks >= 3,
    });
    recordFigure({
      section: SECTION,
      name: 'same token accepted again: resumed after (next check was due after)',
      value: `${((resumedAt - acceptedAt) / 1000).toFixed(1)} s (${(Math.max(0, dueAt - acceptedAt) / 1000).toFixed(1)} s)`,
      target: 'by the next check',
      ok: resumedAt <= Math.max(dueAt, acceptedAt) + 1_500,
    });
    expect(resumedAt, 'resumed by the check that was due').toBeLessThanOrEqual(Math.max(dueAt, acceptedAt) + 1_500);
    expect(t).toEqual({ created: expected.length, duplicated: 0, lost: 0 });
    expect((counts.ingest.failed ?? 0) + (counts.createRfq.failed ?? 0)).toBe(0);
    // One process throughout: never restarted, it lifted the pause itself.
    expect(worker.alive()).toBe(true);
    expect(worker.child.pid).toBe(pid);
    expect(out.match(/"event":"worker\.started"/g)).toHaveLength(1);
    expect(out).toMatch(/"event":"auth\.paused"/);
    expect(out).toMatch(/"event":"auth\.resumed".*the service accepts the same token again/);
    await worker.kill('SIGTERM');
  });

  it('two workers with different data folders: the second refuses (exit 2, both folders named), or runs with INTAKE=off; no requisition is lost', async () => {
    const other = await makeDataDir('stalls-b');
    cleanups.push(() => other.remove());
    const envOf = (data: DataDir, extra: Record<string, string> = {}) =>
      serviceEnv({
        redisUrl: pipeline.redisUrl,
        baseUrl: pipeline.sandboxUrl,
        token: pipeline.token,
        prefix: pipeline.prefix,
        data,
        extra: { CONCURRENCY_CREATE: '2', ...extra },
      });
    pipeline.sandbox.setFaults({ latencyMs: 30 }); // creation lasts long enough for both workers to take some
    const a = await pipeline.spawnWorker(envOf(pipeline.data));

    // Host B with its own data folder, intake on: refused before it takes anything.
    const refusal = await pipeline.spawnWorker(envOf(other)).then(
      (w) => w.kill().then(() => 'started'),
      (err: Error) => err.message,
    );
    expect(refusal).toMatch(/^worker process exited at start \(2\)/);
    expect(refusal).toContain(`the data folder here, ${other.root} on host`);
    expect(refusal).toContain(`that is ${pipeline.data.root} on host`);
    expect(refusal).toContain('INTAKE=off');

    // Host B as documented: INTAKE=off; it creates, polls and writes outputs, takes no file.
    const b = await pipeline.spawnWorker(envOf(other, { INTAKE: 'off' }));
    const expected: string[] = [];
    for (const tag of ['F1', 'F2', 'F3', 'F4']) expected.push(...(await drop(pipeline.data, tag, 6)));
    const counts = await settle(expected, () => `A: ${a.output().slice(-1000)}\nB: ${b.output().slice(-1000)}`);
    pipeline.sandbox.setFaults({});
    const t = tally(expected);
    const byB = (b.output().match(/"event":"job\.completed","queue":"create-rfq"/g) ?? []).length;
    recordFigure({
      section: SECTION,
      name: 'two data folders: 2nd worker refused (exit 2); with INTAKE=off, requisitions expected / created / lost',
      value: `${expected.length / 2} / ${t.created / 2} / ${t.lost / 2} (INTAKE=off worker created ${byB})`,
      target: 'equal, lost 0',
      ok: t.lost === 0 && t.duplicated === 0,
    });
    expect(t).toEqual({ created: expected.length, duplicated: 0, lost: 0 });
    expect((counts.ingest.failed ?? 0) + (counts.createRfq.failed ?? 0)).toBe(0);
    expect(ls(pipeline.data.processing)).toEqual([]);
    expect(ls(pipeline.data.archive)).toHaveLength(4);
    // B took no file and read none.
    expect(ls(other.processing)).toEqual([]);
    expect(ls(other.archive)).toEqual([]);
    expect(b.output()).not.toMatch(/"queue":"ingest"/);
    expect(byB, 'the INTAKE=off worker shared the creation').toBeGreaterThan(0);
    await Promise.all([a.kill('SIGTERM'), b.kill('SIGTERM')]);
  });
});
