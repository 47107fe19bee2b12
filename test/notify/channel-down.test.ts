/**
 * A channel that is down never delays or redoes the pipeline (docs/notifications.md#delivery): the comparison is
 * written and recorded while its notice waits on its own queue; the notice is retried with back-off, kept as failed
 * after NOTIFY_ATTEMPTS (`rfq-sync failed list`), IT is told through another channel (channel-failing), and a person's
 * `failed retry` sends it once the server works, without the comparison being written again. Real Redis, the
 * sandbox, the project's jobs, a real SMTP server answering 451 and a local webhook receiver.
 */
import { Worker, type Job } from 'bullmq';
import { afterEach, describe, expect, it } from 'vitest';
import { processNotify } from '../../jobs/notify.ts';
import { listFailed, retryFailed } from '../../app/commands/failed-jobs.ts';
import { trackedRfq } from '../../src/tracking/status.ts';
import { jobCounts } from '../helpers/job-counts.ts';
import { pollingHarness, type PollingHarness } from '../helpers/polling.ts';
import { usePipeline } from '../helpers/pipeline.ts';
import { waitFor } from '../helpers/wait.ts';
import { startHttpReceiver, startSmtpCatcher, type HttpReceiver, type SmtpCatcher } from '../helpers/notify.ts';
import { QUEUE_NAMES } from '../../src/queues/index.ts';

const pipeline = usePipeline();
let h: PollingHarness | undefined;
let smtp: SmtpCatcher | undefined;
let hook: HttpReceiver | undefined;
let notifyWorker: Worker | undefined;
afterEach(async () => {
  await notifyWorker?.close();
  await h?.close();
  await smtp?.close();
  await hook?.close();
  h = smtp = hook = notifyWorker = undefined;
});

describe('a channel that is down', () => {
  it('retries with back-off, dead-letters into failed list, tells IT elsewhere, and never delays or redoes the comparison', async () => {
    smtp = await startSmtpCatcher();
    smtp.refuse('mailbox unavailable, try later');
    hook = await startHttpReceiver();
    h = await pollingHarness({
      redisUrl: pipeline.redisUrl,
      sandbox: pipeline.sandbox,
      env: {
        NOTIFY_ATTEMPTS: '3',
        NOTIFY_BACKOFF_MS: '200',
        NOTIFY_CHANNELS: JSON.stringify({
          mail: { type: 'smtp', host: '127.0.0.1', port: smtp.port, security: 'none', from: 'rfq-sync@example.com' },
          hook: { type: 'webhook', url: `${hook.url}/it` },
        }),
        NOTIFY_ROUTES: JSON.stringify({
          buyers: { channel: 'mail', to: 'buyer@example.com', events: ['comparison-ready'], digest: 'immediate' },
          it: { channel: 'hook', events: ['channel-failing'], digest: 'immediate' },
        }),
      },
    });
    const ctx = h.ctx;
    const id = await h.createTrackedRfq('Down', 2);
    const ctl = pipeline.sandbox.control;
    const [l1, l2] = ctl.getRfq(id)!.lines.map((l) => l.line_id);
    ctl.submitQuotation(id, { sup_name: 'Acme', prices: { [l1!]: '5', [l2!]: '6' } });
    ctl.advance(id, 'closed');
    await h.pollAndSettle();

    // Written and recorded before any notify worker runs: the comparison never waits for the mail.
    expect((await trackedRfq(ctx, id))?.comparison?.version).toBe(1);
    const comparisonsDone = (await jobCounts(ctx.queues.comparison)).completed;
    // queued (a procurement route's message waits behind IT's: prioritized)
    const queued = await jobCounts(ctx.queues.notify);
    expect((queued.waiting ?? 0) + (queued.prioritized ?? 0)).toBe(1);

    notifyWorker = new Worker(QUEUE_NAMES.notify, (job: Job) => processNotify(ctx, job), {
      connection: ctx.connection,
      prefix: ctx.bullPrefix,
    });
    notifyWorker.on('error', () => undefined);
    const failed = await waitFor('the notice kept as failed', async () =>
      (await listFailed(ctx)).find((f) => f.queue === 'notify'),
    );
    expect(failed.attemptsMade).toBe(3);
    expect(failed.subject).toBe('notification of route buyers');
    expect(failed.failedReason).toMatch(/^channel mail: the mail server did not take the message \(SMTP 451\)/);
    expect(smtp.mails).toHaveLength(0);

    const [told] = await hook.waitFor(1);
    const notice = told!.json as { subject: string; events: Array<{ kind: string; data: Record<string, unknown> }> };
    expect(notice.events).toHaveLength(1);
    expect(notice.events[0]!.kind).toBe('channel-failing');
    expect(notice.events[0]!.data).toMatchObject({ channel: 'mail', route: 'buyers', job: failed.ref, attempts: 3 });
    expect(notice.subject).toMatch(
      /^\[rfq-sync\] channel mail failed 3 times: a message of route buyers was not delivered/,
    );

    // The server works again; a person retries the failed notice: it goes once, nothing else runs again.
    smtp.refuse(undefined);
    expect((await retryFailed(ctx, failed.ref)).retried).toEqual([failed.ref]);
    await smtp.waitFor(1);
    await waitFor('the notice sent', async () => (await jobCounts(ctx.queues.notify)).completed === 2);
    expect(smtp.mails).toHaveLength(1);
    expect(smtp.mails[0]!.parsed.subject).toMatch(/comparison v1 ready/);
    expect(hook.requests).toHaveLength(1);
    expect((await jobCounts(ctx.queues.comparison)).completed).toBe(comparisonsDone);
    expect((await trackedRfq(ctx, id))?.comparison?.version).toBe(1);
  });
});
