/**
 * A burst of refused files through the real inbox, ingest and notify jobs (jobs/worker.ts), with two routes that pick
 * "file refused" (e-mail to a real SMTP server, a webhook to a local receiver) and one that does not. The digest
 * window is longer than the burst: once every file is refused, the digest waiting for each route is promoted (what
 * the end of the window does) instead of waited out. Used by test/notify/digest.test.ts and the hardening suite.
 */
import { symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Job } from 'bullmq';
import { startWorker } from '../../jobs/worker.ts';
import { startInboxWatcher } from '../../src/intake/inbox-watcher.ts';
import { jobCounts } from '../helpers/job-counts.ts';
import { waitFor } from '../helpers/wait.ts';
import type { Pipeline } from '../helpers/pipeline.ts';
import {
  notifyContext,
  startHttpReceiver,
  startSmtpCatcher,
  type CaughtMail,
  type ReceivedRequest,
} from '../helpers/notify.ts';

export interface Burst {
  /** Route of each digest that waited when the burst was over. */
  waiting: string[];
  /** When each waiting digest was due, less when the first file was dropped, ms. */
  dueAfterMs: number[];
  mails: CaughtMail[];
  requests: ReceivedRequest[];
}

/** `files` CSVs no profile fits (refused by the ingest job) and `links` symbolic links (refused at the door). */
export async function refusedBurst(
  pipeline: Pipeline,
  o: { files: number; links: number; windowMs: number },
): Promise<Burst> {
  const smtp = await startSmtpCatcher();
  const hook = await startHttpReceiver();
  try {
    const ctx = await notifyContext(
      pipeline,
      {
        CONCURRENCY_INGEST: '8',
        FILE_STABLE_MS: '100',
        NOTIFY_DIGEST_MS: String(o.windowMs),
        NOTIFY_CHANNELS: JSON.stringify({
          mail: { type: 'smtp', host: '127.0.0.1', port: smtp.port, security: 'none', from: 'rfq-sync@example.com' },
          hook: { type: 'webhook', url: `${hook.url}/it`, max_bytes: 4 * 1024 * 1024 },
        }),
        NOTIFY_ROUTES: JSON.stringify({
          'it-mail': { channel: 'mail', to: 'it@example.com', events: ['it'] },
          'it-hook': { channel: 'hook', events: ['file-refused'] },
          buyers: { channel: 'mail', to: 'buyer@example.com', events: ['procurement'] },
        }),
      },
      { sandbox: false },
    );
    const t0 = Date.now();
    for (let i = 0; i < o.files; i++)
      writeFileSync(join(pipeline.data.inbox, `export-${i}.csv`), `Nothing,We,Know\n${i},b,c\n`);
    for (let i = 0; i < o.links; i++) symlinkSync('/etc/hostname', join(pipeline.data.inbox, `link-${i}.csv`));
    const worker = startWorker(ctx, { queues: ['ingest', 'notify'], drainDelaySeconds: 1 });
    try {
      const watcher = await startInboxWatcher(ctx, { watch: false, schedule: false });
      try {
        await watcher.sweep();
        await waitFor(
          'every file refused',
          async () => {
            const c = await jobCounts(ctx.queues.ingest);
            return c.completed === o.files && c.waiting! + c.active! + c.delayed! === 0;
          },
          180_000,
          200,
        );
      } finally {
        await watcher.close();
      }
      const waiting: Job[] = await ctx.queues.notify.getDelayed();
      const burst: Burst = {
        waiting: waiting.map((j) => (j.data as { route: string }).route).sort(),
        dueAfterMs: waiting.map((j) => j.timestamp + (j.opts.delay ?? 0) - t0),
        mails: smtp.mails,
        requests: hook.requests,
      };
      for (const j of waiting) await j.promote();
      await waitFor('the digests sent', async () => (await jobCounts(ctx.queues.notify)).completed === waiting.length);
      return burst;
    } finally {
      await worker.close(2_000);
    }
  } finally {
    await smtp.close();
    await hook.close();
  }
}
