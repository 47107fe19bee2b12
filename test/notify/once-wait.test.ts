/**
 * `rfq-sync once` bounds its wait for notifications (docs/notifications.md#delivery): with a mail server that never
 * answers, it ends within NOTIFY_ONCE_WAIT_MS (plus 5 s of stopping) of the moment its pipeline drained, says in one
 * line what it leaves, and the message stays queued in Redis for the next worker or run. The real command line
 * against the built-in sandbox, on the test's Redis (so what is left can be counted after it exited), a refused file
 * for an IT event, and a local mail server that accepts connections and never says a word.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { freshPrefix } from '../helpers/redis.ts';
import { openQueues, unfinished } from '../helpers/job-counts.ts';
import { usePipeline } from '../helpers/pipeline.ts';
import { spawnCli } from '../helpers/cli.ts';
import { startStallingServer, type StallingServer } from '../helpers/stalling-servers.ts';

const pipeline = usePipeline({ sandbox: false, tag: 'once-wait' });
let silent: StallingServer | undefined;
afterEach(async () => {
  await silent?.close();
  silent = undefined;
});

const WAIT_MS = 3_000;

describe('rfq-sync once and its notifications', () => {
  it('a mail server that never answers: once ends within NOTIFY_ONCE_WAIT_MS + 5 s of its drain, the message kept queued', async () => {
    silent = await startStallingServer('smtp-silent');
    const dir = pipeline.data.root;
    mkdirSync(join(dir, 'inbox'), { recursive: true });
    writeFileSync(join(dir, 'inbox', 'mystery-export.csv'), 'foo;bar;baz\n1;2;3\n');
    const prefix = freshPrefix();
    const run = spawnCli(['once', '--sandbox'], {
      RFQ_SYNC_DIR: dir,
      REDIS_URL: pipeline.redisUrl,
      REDIS_PREFIX: prefix,
      HTTP_PORT: '0',
      FILE_STABLE_MS: '100',
      LOG_LEVEL: 'info',
      NOTIFY_ONCE_WAIT_MS: String(WAIT_MS),
      // the default time-out of a mail channel (30 s): longer than the wait
      NOTIFY_CHANNELS: JSON.stringify({
        mail: { type: 'smtp', host: '127.0.0.1', port: silent.port, security: 'none', from: 'r@example.com' },
      }),
      NOTIFY_ROUTES: JSON.stringify({
        it: { channel: 'mail', to: 'it@example.com', events: ['it'], digest: 'immediate' },
      }),
    });
    const late = setTimeout(() => run.child.kill('SIGKILL'), 150_000);
    const { code } = await run.exited;
    const exitedAt = Date.now();
    clearTimeout(late);
    expect(code, run.output().slice(-3000)).toBe(1);
    expect(run.output()).toMatch(/file mystery-export\.csv refused/);
    expect(silent.connections.length).toBeGreaterThanOrEqual(1);

    // drained: the last job of the pipeline's own queues done (its log line's time)
    const done = run
      .output()
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { event?: string; queue?: string; time: string })
      .filter((l) => l.event === 'job.completed' && l.queue !== 'notify');
    expect(done.length).toBeGreaterThan(0);
    const drainedAt = Math.max(...done.map((l) => Date.parse(l.time)));
    expect(exitedAt - drainedAt).toBeLessThan(WAIT_MS + 5_000);

    expect(run.output()).toMatch(
      /once: 1 notification\(s\) not sent within NOTIFY_ONCE_WAIT_MS \(3000 ms\): kept queued for the next worker or run/,
    );
    const queues = openQueues(pipeline.redisUrl, prefix, 'sandbox');
    try {
      expect(unfinished(await queues.counts(), ['notify'])).toBe(1);
    } finally {
      await queues.close();
    }
  }, 180_000);
});
