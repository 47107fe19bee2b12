/**
 * Graceful shutdown of `rfq-sync worker` with jobs in flight (real redis-server, sandbox over HTTP, the CLI as a
 * child process): SIGTERM lets in-flight creations finish and record their RFQ, leaves the rest queued, loses
 * nothing; a second signal exits at once.
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/settings/config.ts';
import { bullPrefix, createQueues, type Queues } from '../../src/redis/queues.ts';
import { useRedis, freshPrefix } from '../helpers/redis.ts';
import { useSandbox } from '../helpers/sandbox.ts';
import { spawnCli, until } from '../helpers/cli.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const SAMPLE = resolve(import.meta.dirname, '../../samples/generic-template.csv'); // 3 requisitions

describe('rfq-sync worker: graceful shutdown', () => {
  const redis = useRedis({ appendonly: true });
  const sb = useSandbox();
  const open: Queues[] = [];
  afterAll(async () => {
    for (const q of open) await q.close();
  });

  function setup(extra: Record<string, string>) {
    const dir = tempDir('rfq-ops-shutdown-');
    mkdirSync(join(dir, 'inbox'), { recursive: true });
    const env: Record<string, string> = {
      REDIS_URL: redis.url,
      REDIS_PREFIX: freshPrefix(),
      SOURCING_BASE_URL: sb.url,
      SOURCING_TOKEN: sb.token,
      RFQ_SYNC_DIR: dir,
      HTTP_PORT: '0',
      FILE_STABLE_MS: '100',
      LOG_LEVEL: 'info',
      ...extra,
    };
    const config = loadConfig(env);
    const queues = createQueues(
      { host: '127.0.0.1', port: redis.redis.port },
      bullPrefix(config.REDIS_PREFIX, config.account),
      { attempts: 1, backoffMs: 1 },
    );
    open.push(queues);
    return { dir, env, queues };
  }

  it('SIGTERM: in-flight jobs finish and are recorded, the rest stay queued, nothing is lost', async () => {
    sb.sandbox.setFaults({ latencyMs: 1_500 });
    const before = sb.sandbox.stats().rfqsCreated;
    const { dir, env, queues } = setup({ SHUTDOWN_TIMEOUT_MS: '20000', CONCURRENCY_CREATE: '2' });
    const worker = spawnCli(['worker'], env);
    try {
      await worker.waitFor('rfq-sync worker started');
      copyFileSync(SAMPLE, join(dir, 'inbox', 'generic-template.csv'));
      await until(
        async () => ((await queues.createRfq.getJobCounts('active')).active ?? 0) > 0,
        20_000,
        'a create-rfq job in flight',
      );
      worker.child.kill('SIGTERM');
      const { code } = await worker.exited;
      expect(code).toBe(0);
      expect(worker.output()).toContain('shut down cleanly');
    } finally {
      worker.child.kill('SIGKILL');
      sb.sandbox.setFaults({});
    }
    const raw = await queues.createRfq.getJobCounts(
      'active',
      'completed',
      'waiting',
      'delayed',
      'prioritized',
      'failed',
    );
    const c = { active: 0, completed: 0, waiting: 0, delayed: 0, prioritized: 0, failed: 0, ...raw };
    expect(c.active).toBe(0);
    expect(c.failed).toBe(0);
    expect(c.completed).toBeGreaterThan(0);
    // Every requisition is either done or still queued, and every RFQ the service holds was recorded by a job.
    expect(c.completed + c.waiting + c.delayed + c.prioritized).toBe(3);
    expect(sb.sandbox.stats().rfqsCreated - before).toBe(c.completed);
  });

  it('a second signal exits at once', async () => {
    sb.sandbox.setFaults({ latencyMs: 20_000 });
    const { dir, env, queues } = setup({ SHUTDOWN_TIMEOUT_MS: '60000' });
    const worker = spawnCli(['worker'], env);
    try {
      await worker.waitFor('rfq-sync worker started');
      copyFileSync(SAMPLE, join(dir, 'inbox', 'generic-template.csv'));
      await until(
        async () => ((await queues.createRfq.getJobCounts('active')).active ?? 0) > 0,
        20_000,
        'a create-rfq job in flight',
      );
      worker.child.kill('SIGTERM');
      await worker.waitFor('send the signal again to exit at once');
      const t = Date.now();
      worker.child.kill('SIGTERM');
      const { code } = await worker.exited;
      expect(Date.now() - t).toBeLessThan(3_000);
      expect(code).toBe(143);
      expect(worker.output()).toContain('second SIGTERM: exiting at once');
    } finally {
      worker.child.kill('SIGKILL');
      sb.sandbox.setFaults({});
    }
  });
});
