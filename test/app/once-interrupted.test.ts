/**
 * `rfq-sync once` stopped by SIGTERM while it waits for the queues (the service answers 503, so the create jobs
 * keep retrying): it exits 1 with one line saying it was interrupted and what is still pending, no stack trace,
 * and the pending jobs stay queued in Redis for the next run.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.ts';
import { genericCsv, openQueues, unfinished } from '../helpers/pipeline.ts';
import { freshPrefix, useRedis } from '../helpers/redis.ts';
import { spawnCli } from './cli-helpers.ts';

const redis = useRedis();
let sandbox: Sandbox | undefined;
let dir: string | undefined;
afterEach(async () => {
  await sandbox?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
  sandbox = dir = undefined;
});

describe('rfq-sync once interrupted', () => {
  it('SIGTERM while waiting for the queues: exit 1, one line (interrupted, what is pending), no stack trace', async () => {
    sandbox = await startSandbox({ seed: 3 });
    sandbox.setFaults({ down: true });
    dir = mkdtempSync(join(tmpdir(), 'rfq-once-sigterm-'));
    mkdirSync(join(dir, 'inbox'));
    writeFileSync(join(dir, 'inbox', 'two.csv'), genericCsv(['PR-T1', 2], ['PR-T2', 1]));
    const prefix = freshPrefix();
    const run = spawnCli(['once'], {
      RFQ_SYNC_DIR: dir,
      REDIS_URL: redis.url,
      REDIS_PREFIX: prefix,
      SOURCING_ACCOUNT: 'sigterm',
      SOURCING_BASE_URL: sandbox.url,
      SOURCING_TOKEN: 'sandbox-token',
      HTTP_PORT: '0',
      FILE_STABLE_MS: '100',
      SOURCING_GET_RETRIES: '0',
      JOB_BACKOFF_MS: '200',
      LOG_LEVEL: 'warn',
    });
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
    const queues = openQueues(redis.url, prefix, 'sigterm');
    try {
      const counts = await queues.counts();
      expect(unfinished(counts, ['createRfq'])).toBeGreaterThan(0);
    } finally {
      await queues.close();
    }
  });
});
