/**
 * A channel that stalls (docs/notifications.md#delivery): each send, of every channel kind, ends at the channel's
 * `timeout_ms` however the server trickles its answer, the attempt is retried and `status` shows the channel while
 * it retries; and a stalled or silent mail server never delays a message to a healthy webhook (each channel has its
 * own send slots). Real Redis, the project's notify job on an in-process worker with the default NOTIFY_CONCURRENCY,
 * local servers that trickle their answer one byte a second (test/helpers/stalling-servers.ts) or never answer; and
 * on a channel IT and procurement share, IT's messages are sent before procurement's waiting ones.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Job } from 'bullmq';
import { startWorker, type RunningWorker } from '../../jobs/worker.ts';
import { collectStatus, formatStatus } from '../../app/commands/status.ts';
import type { AppContext } from '../../app/runtime/worker-context.ts';
import type { NotifyEvent } from '../../src/notify/event-kind.ts';
import { comparisonReady, fileRefused } from '../../src/notify/events/index.ts';
import { usePipeline } from '../helpers/pipeline.ts';
import { waitFor } from '../helpers/wait.ts';
import { spawnCli } from '../helpers/cli.ts';
import {
  notifyContext,
  startHttpReceiver,
  startSmtpCatcher,
  type HttpReceiver,
  type SmtpCatcher,
} from '../helpers/notify.ts';
import { startStallingServer, type StallingServer } from '../helpers/stalling-servers.ts';

const pipeline = usePipeline({ sandbox: false, tag: 'stalled' });
let worker: RunningWorker | undefined;
let stalling: StallingServer | undefined;
let hook: HttpReceiver | undefined;
let smtp: SmtpCatcher | undefined;
afterEach(async () => {
  await worker?.close(1_000);
  await stalling?.close();
  await hook?.close();
  await smtp?.close();
  worker = stalling = hook = smtp = undefined;
});

let n = 0;
function refused(): NotifyEvent {
  n++;
  const file = `export-${n}.csv`;
  return fileRefused.event({
    file,
    take: `20270101T000000Z-${String(n).padStart(6, '0')}_${file}`,
    reason: 'fits no mapping profile',
    failed: `/srv/failed/${file}`,
    report: `/srv/outbox/reports/${file}.xlsx`,
  });
}

interface Attempt {
  ms: number;
  error: string;
}

/** A notify worker on `ctx` that notes how long each failed attempt took (from its start to its failure). */
function notifyWorker(ctx: AppContext): { attempts: Attempt[] } {
  const attempts: Attempt[] = [];
  worker = startWorker(ctx, { queues: ['notify'], drainDelaySeconds: 1 });
  worker.workers[0]!.on('failed', (job: Job | undefined, err: Error) => {
    if (job?.processedOn) attempts.push({ ms: Date.now() - job.processedOn, error: err.message });
  });
  return { attempts };
}

const TIMEOUT_MS = 2_000;

describe('a deadline per send', () => {
  it('an SMTP server trickling its EHLO reply: the attempt ends at timeout_ms and is retried; status shows the channel while it retries', async () => {
    stalling = await startStallingServer('smtp-trickle');
    const ctx = await notifyContext(
      pipeline,
      {
        NOTIFY_ATTEMPTS: '4',
        NOTIFY_BACKOFF_MS: '200',
        NOTIFY_CHANNELS: JSON.stringify({
          mail: {
            type: 'smtp',
            host: '127.0.0.1',
            port: stalling.port,
            security: 'none',
            from: 'rfq-sync@example.com',
            timeout_ms: TIMEOUT_MS,
          },
        }),
        NOTIFY_ROUTES: JSON.stringify({
          it: { channel: 'mail', to: 'it@example.com', events: ['it'], digest: 'immediate' },
        }),
      },
      { sandbox: false },
    );
    const { attempts } = notifyWorker(ctx);
    await ctx.notify.emit(refused());
    await waitFor('two attempts failed', () => attempts.length >= 2, 30_000);
    for (const a of attempts.slice(0, 2)) {
      expect(a.ms).toBeGreaterThanOrEqual(TIMEOUT_MS - 100);
      expect(a.ms).toBeLessThanOrEqual(TIMEOUT_MS + 1_000);
      expect(a.error).toMatch(new RegExp(`^channel mail: .*within ${TIMEOUT_MS} ms`));
    }
    // each attempt was a connection of its own, closed by the client at its deadline
    expect(stalling.connections.length).toBeGreaterThanOrEqual(2);
    const first = stalling.connections[0]!;
    expect(first.closedAt).toBeDefined();
    expect(first.closedAt! - first.openedAt).toBeLessThanOrEqual(TIMEOUT_MS + 1_000);

    // while it retries, status names the stalled channel, its route, the attempts and why
    const report = await collectStatus(ctx);
    expect(report.notifyRetrying).toEqual([
      expect.objectContaining({ route: 'it', channel: 'mail', messages: 1, maxAttempts: 4 }),
    ]);
    expect(report.notifyRetrying![0]!.attempts).toBeGreaterThanOrEqual(1);
    expect(formatStatus(report)).toMatch(
      /NOTIFICATIONS RETRYING[^\n]*\n {2}route it \(channel mail\): 1 message\(s\), attempt \d of 4 failed .*: channel mail: .*within 2000 ms/,
    );
  });

  it('a webhook receiver trickling its answer: the attempt ends at timeout_ms and is retried', async () => {
    stalling = await startStallingServer('http-trickle');
    const ctx = await notifyContext(
      pipeline,
      {
        NOTIFY_ATTEMPTS: '4',
        NOTIFY_BACKOFF_MS: '200',
        NOTIFY_CHANNELS: JSON.stringify({
          hook: { type: 'webhook', url: `${stalling.url}/it`, timeout_ms: TIMEOUT_MS },
        }),
        NOTIFY_ROUTES: JSON.stringify({ it: { channel: 'hook', events: ['it'], digest: 'immediate' } }),
      },
      { sandbox: false },
    );
    const { attempts } = notifyWorker(ctx);
    await ctx.notify.emit(refused());
    await waitFor('two attempts failed', () => attempts.length >= 2, 30_000);
    for (const a of attempts.slice(0, 2)) {
      expect(a.ms).toBeGreaterThanOrEqual(TIMEOUT_MS - 100);
      expect(a.ms).toBeLessThanOrEqual(TIMEOUT_MS + 1_000);
      expect(a.error).toMatch(new RegExp(`^channel hook: .*within ${TIMEOUT_MS} ms`));
    }
    expect(stalling.connections.filter((c) => c.spoke).length).toBeGreaterThanOrEqual(2);
  });
});

describe('channels isolated from each other', () => {
  for (const mode of ['smtp-trickle', 'smtp-silent'] as const)
    it(`a mail server ${mode === 'smtp-trickle' ? 'trickling its EHLO reply' : 'that never answers'} with messages queued: IT's webhook message still arrives within 5 s`, async () => {
      stalling = await startStallingServer(mode);
      hook = await startHttpReceiver();
      const ctx = await notifyContext(
        pipeline,
        {
          NOTIFY_CHANNELS: JSON.stringify({
            // the default time-out (30 s): the mail's sends hold their slots that long
            mail: { type: 'smtp', host: '127.0.0.1', port: stalling.port, security: 'none', from: 'r@example.com' },
            hook: { type: 'webhook', url: `${hook.url}/it` },
          }),
          NOTIFY_ROUTES: JSON.stringify({
            buyers: { channel: 'mail', to: 'buyer@example.com', events: ['it'], digest: 'immediate' },
            it: { channel: 'hook', events: ['it'], digest: 'immediate' },
          }),
        },
        { sandbox: false },
      );
      const { attempts } = notifyWorker(ctx);
      // procurement's mail first: more messages than the worker has send slots (NOTIFY_CONCURRENCY 2)
      for (let i = 0; i < 5; i++) await ctx.notify.emit(refused(), { exceptChannel: 'hook' });
      await waitFor('two mail sends under way', () => stalling!.connections.length >= 2, 15_000);
      const t0 = Date.now();
      const event = refused();
      await ctx.notify.emit(event, { exceptChannel: 'mail' });
      const [told] = await hook.waitFor(1, 10_000);
      expect(Date.now() - t0).toBeLessThan(5_000);
      expect((told!.json as { events: Array<{ id: string }> }).events[0]!.id).toBe(event.id);
      // the mail messages without a free slot were put back on the queue, not failed (no attempt used)
      expect(attempts).toEqual([]);
      expect(stalling.connections.length).toBe(2);
    });
});

describe("IT's messages first", () => {
  it("on a channel IT and procurement share, IT's message queued after procurement's is sent first", async () => {
    smtp = await startSmtpCatcher();
    const ctx = await notifyContext(
      pipeline,
      {
        NOTIFY_CONCURRENCY: '1',
        NOTIFY_CHANNELS: JSON.stringify({
          mail: { type: 'smtp', host: '127.0.0.1', port: smtp.port, security: 'none', from: 'r@example.com' },
        }),
        NOTIFY_ROUTES: JSON.stringify({
          buyers: { channel: 'mail', to: 'buyer@example.com', events: ['procurement'], digest: 'immediate' },
          it: { channel: 'mail', to: 'it@example.com', events: ['it'], digest: 'immediate' },
        }),
      },
      { sandbox: false },
    );
    for (let rfqId = 1; rfqId <= 3; rfqId++)
      await ctx.notify.emit(
        comparisonReady.event({
          rfqId,
          rfqNo: `2027-${rfqId}`,
          title: 'Pumps',
          version: 1,
          state: 'closed',
          quotations: 3,
          workbook: `/srv/outbox/comparisons/RFQ-2027-${rfqId}-v1.xlsx`,
          bestTotal: '1234.50',
          currency: 'EUR',
          final: false,
          location: 'Plant 1',
        }),
      );
    await ctx.notify.emit(refused());
    notifyWorker(ctx);
    const mails = await smtp.waitFor(4);
    expect(mails.map((m) => m.to[0])).toEqual([
      'it@example.com',
      'buyer@example.com',
      'buyer@example.com',
      'buyer@example.com',
    ]);
  });
});

describe('rfq-sync notify test ROUTE', () => {
  it('a mail server trickling its EHLO reply: exit 1 at timeout_ms, saying so', async () => {
    stalling = await startStallingServer('smtp-trickle');
    const env = {
      RFQ_SYNC_DIR: pipeline.data.root,
      NOTIFY_CHANNELS: JSON.stringify({
        mail: {
          type: 'smtp',
          host: '127.0.0.1',
          port: stalling.port,
          security: 'none',
          from: 'r@example.com',
          timeout_ms: 3000,
        },
      }),
      NOTIFY_ROUTES: JSON.stringify({ it: { channel: 'mail', to: 'it@example.com', events: ['it'] } }),
    };
    const t0 = Date.now();
    const run = spawnCli(['notify', 'test', 'it'], env);
    const late = setTimeout(() => run.child.kill('SIGKILL'), 30_000);
    const { code } = await run.exited;
    clearTimeout(late);
    expect(code, run.output()).toBe(1);
    // the command's own start-up (a loaded machine) besides the 3 s of the send
    expect(Date.now() - t0).toBeLessThan(3_000 + 10_000);
    expect(stalling.connections[0]?.spoke).toBe(true);
    expect(run.output()).toMatch(/channel mail: no complete answer within 3000 ms/);
  });
});
