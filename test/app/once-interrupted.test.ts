/**
 * `rfq-sync once` stopped by SIGTERM while it waits for the queues (the service answers 503, so the create jobs
 * keep retrying): it exits 1 with one line saying it was interrupted and what is still pending, no stack trace,
 * and the pending jobs stay queued in Redis for the next run.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { genericCsv } from '../helpers/fixtures.ts';
import { openQueues, unfinished } from '../helpers/job-counts.ts';
import { spawnCli, useOnceRun } from '../helpers/cli.ts';
import { useRedis } from '../helpers/redis.ts';

const redis = useRedis();
const once = useOnceRun(() => redis.url);

describe('rfq-sync once interrupted', () => {
  it('SIGTERM while waiting for the queues: exit 1, one line (interrupted, what is pending), no stack trace', async () => {
    const { sandbox, dir } = await once.start({ seed: 3 });
    sandbox.setFaults({ down: true });
    writeFileSync(join(dir, 'inbox', 'two.csv'), genericCsv(['PR-T1', 2], ['PR-T2', 1]));
    const env = once.env({ SOURCING_ACCOUNT: 'sigterm', SOURCING_GET_RETRIES: '0', LOG_LEVEL: 'warn' });
    const run = spawnCli(['once'], env);
    // the create jobs are failing and being retried: `once` is waiting for the queues
    await run.waitFor(/create-rfq job \S+ attempt failed, will retry/, 30_000);
    run.child.kill('SIGTERM');
    const { code } = await run.exited;
    const out = run.output();
    expect(code, out.slice(-3000)).toBe(1);
    const said = out.split('\n').filter((l) => l.includes('interrupted'));
    expect(said).toHaveLength(1);
    expect(said[0]).toMatch(
      /^rfq-sync: once interrupted by SIGTERM; pending: \d+ job\(s\) \((ingest \d+, )?create-rfq \d+\); they stay queued in Redis: run `once` again or start a worker$/,
    );
    expect(out).not.toMatch(/^\s+at /m);
    expect(out).not.toContain('unexpected error');
    expect(out).not.toContain('Connection is closed');

    // what was pending is still queued for the next run
    const queues = openQueues(redis.url, env.REDIS_PREFIX!, 'sigterm');
    try {
      const counts = await queues.counts();
      expect(unfinished(counts, ['createRfq'])).toBeGreaterThan(0);
    } finally {
      await queues.close();
    }
  });
});
