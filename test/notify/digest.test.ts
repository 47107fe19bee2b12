/**
 * Digests (docs/notifications.md#digests): the events of a route within NOTIFY_DIGEST_MS of its first go in one
 * message. A burst of refused files (some refused by the ingest job, some at the door) is one message per route that
 * picks them, naming every file; a route that does not pick them gets nothing. The 500-file burst of the issue runs
 * in the hardening suite (test/hardening/notify-burst.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { startWorker } from '../../jobs/worker.ts';
import { comparisonReady } from '../../src/notify/events/index.ts';
import { nextWallClock } from '../../src/notify/windows.ts';
import { jobCounts } from '../helpers/job-counts.ts';
import { usePipeline } from '../helpers/pipeline.ts';
import { waitFor } from '../helpers/wait.ts';
import { notifyContext, startHttpReceiver } from '../helpers/notify.ts';
import { refusedBurst } from './refused-burst.ts';

const pipeline = usePipeline({ sandbox: false, tag: 'digest' });

describe('digests', () => {
  it('a burst of refused files: one digest per route, each naming every file once', { timeout: 60_000 }, async () => {
    const burst = await refusedBurst(pipeline, { files: 16, links: 4, windowMs: 600_000 });
    expect(burst.waiting).toEqual(['it-hook', 'it-mail']);
    // each due one window after its route's first event
    for (const due of burst.dueAfterMs) expect(due).toBeGreaterThan(590_000);
    expect(burst.mails).toHaveLength(1);
    expect(burst.requests).toHaveLength(1);
    const mail = burst.mails[0]!;
    expect(mail.to).toEqual(['it@example.com']);
    expect(mail.parsed.subject).toBe('[rfq-sync] 20 files refused');
    const text = mail.parsed.text!;
    expect(text.match(/^- export-\d+\.csv refused: fits no mapping profile/gm)).toHaveLength(16);
    expect(text.match(/^- link-\d+\.csv refused: it is a symbolic link/gm)).toHaveLength(4);
    expect(mail.parsed.html).toContain('20 files refused');
    const body = burst.requests[0]!.json as { total: number; events: Array<{ kind: string }>; omitted: number };
    expect(body.total).toBe(20);
    expect(body.events).toHaveLength(20);
    expect(new Set(body.events.map((e) => e.kind))).toEqual(new Set(['file-refused']));
  });

  it('a daily digest: comparisons of the day in one message at NOTIFY_DAILY_AT in TIME_ZONE, each RFQ once', async () => {
    const hook = await startHttpReceiver();
    try {
      const ctx = await notifyContext(
        pipeline,
        {
          TIME_ZONE: 'Europe/Vienna',
          NOTIFY_DAILY_AT: '06:30',
          NOTIFY_CHANNELS: JSON.stringify({ hook: { type: 'webhook', url: `${hook.url}/daily` } }),
          NOTIFY_ROUTES: JSON.stringify({ daily: { channel: 'hook', events: ['comparison-ready'], digest: 'daily' } }),
        },
        { sandbox: false },
      );
      const ready = (rfqId: number) =>
        comparisonReady.event({
          rfqId,
          version: 1,
          state: 'closed',
          quotations: 2,
          workbook: `/x/${rfqId}.xlsx`,
          final: false,
        });
      const t0 = Date.now();
      for (const id of [1, 2, 3, 2]) await ctx.notify.emit(ready(id)); // RFQ 2 emitted twice (a retried job)
      const [job, ...more] = await ctx.queues.notify.getDelayed();
      expect(more).toEqual([]);
      const due = job!.timestamp + (job!.opts.delay ?? 0);
      expect(Math.abs(due - nextWallClock(t0, '06:30', 'Europe/Vienna'))).toBeLessThan(2_000);
      const w = startWorker(ctx, { queues: ['notify'], drainDelaySeconds: 1 });
      try {
        await job!.promote();
        await hook.waitFor(1);
        await waitFor('sent', async () => (await jobCounts(ctx.queues.notify)).completed === 1);
      } finally {
        await w.close(2_000);
      }
      const body = hook.requests[0]!.json as { subject: string; events: Array<{ data: { rfqId: number } }> };
      expect(body.subject).toBe('[rfq-sync] 3 comparisons ready');
      expect(body.events.map((e) => e.data.rfqId)).toEqual([1, 2, 3]);
    } finally {
      await hook.close();
    }
  });
});
