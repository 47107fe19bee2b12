/**
 * The webhook names the RFQ (issue 35): a tracked RFQ the payload names is checked at once (the docs dialect's detail
 * call) and its transition recorded through the poll's own path, without a whole poll; a payload naming no tracked
 * RFQ (or nothing at all) costs today's wake-up and nothing more; a transition is recorded once, whoever sees it
 * first. Real Redis, the sandbox over HTTP sending its own webhooks, in-process poll, quotations and comparison
 * workers.
 */
import { describe, expect, it } from 'vitest';
import { actOnWebhook } from '../../src/tracking/poll/hint-check.ts';
import { createMetrics } from '../../app/http/metrics.ts';
import { closeToWorkbook, hintFigures } from '../../src/rfqs/hint-stats.ts';
import { statusWebhook, webhookLines } from '../../app/commands/status-webhook.ts';
import { usePipeline } from '../helpers/pipeline.ts';
import { waitFor } from '../helpers/wait.ts';
import { useWebhookOps } from '../helpers/webhook-ops.ts';
import { trackingStore } from '../../src/rfqs/store.ts';

const pipeline = usePipeline({ sandbox: { pageSize: 10, dialect: 'docs', existing: 30 }, scope: 'file' });
const SECRET = 'hook-secret-hint-0123456789';
const hook = useWebhookOps(pipeline, SECRET, { WEBHOOK_MIN_INTERVAL_MS: '500' });

const sb = () => pipeline.sandbox;
const calls = () => {
  const c = sb().stats().calls;
  const sum = (op: string) => Object.values(c[op] ?? {}).reduce((a, b) => a + b, 0);
  return { detail: sum('getRfq'), lists: sum('listRfqs'), quotations: sum('listQuotations'), all: sb().stats() };
};
const hookJobs = async () =>
  (await hook.h.ctx.queues.poll.getJobs(['waiting', 'delayed', 'active', 'completed', 'failed'])).filter((j) =>
    j.id?.startsWith('poll~hook~'),
  ).length;
const transitionLine = (rfqId: number, to: string) =>
  hook.logs.lines().find((l) => l.event === 'rfq.transition' && l.rfqId === rfqId && l.to === to);

async function closedWithWorkbook(rfqId: number) {
  return waitFor(`RFQ ${rfqId} closed with its workbook`, async () => {
    const rec = await trackingStore(hook.h.ctx).get(rfqId);
    return rec?.state === 'closed' && rec.comparison ? rec : undefined;
  });
}

describe('a webhook that names a tracked RFQ', () => {
  it('checks that RFQ at once and records its closing through the poll path, without a whole poll', async () => {
    const id = await hook.h.createTrackedRfq('Hinted', 2);
    await hook.h.pollAndSettle(); // seen open
    sb().control.submitQuotation(id, { sup_name: 'Acme', prices: ['10', '20'] });
    await hook.h.settle();
    const before = calls();
    const hooksBefore = await hookJobs();
    const figuresBefore = await hintFigures(hook.h.ctx);
    sb().webhooks.url = `${hook.ops.url}/hooks/sourcing/${SECRET}`;
    sb().control.advance(id, 'closed'); // the sandbox posts its webhook, naming the RFQ
    await closedWithWorkbook(id);
    await hook.h.settle();
    sb().webhooks.url = undefined;
    const after = calls();
    expect(transitionLine(id, 'closed')).toMatchObject({ via: 'webhook', from: 'open' });
    expect(await hookJobs()).toBe(hooksBefore); // no poll woken
    expect(after.lists - before.lists).toBe(0);
    expect(after.detail - before.detail).toBe(1);
    // the whole webhook path, quotations included
    const requests = after.detail + after.lists + after.quotations - (before.detail + before.lists + before.quotations);
    expect(requests).toBeLessThanOrEqual(4);
    const figures = await hintFigures(hook.h.ctx);
    expect(figures.received - figuresBefore.received).toBe(1);
    expect(figures.checked - figuresBefore.checked).toBe(1);
    expect(figures.transitions - figuresBefore.transitions).toBe(1);
    expect(figures.pollsWoken - figuresBefore.pollsWoken).toBe(0);
  });

  it('a payload naming no tracked RFQ, or nothing, costs what it did before: a poll woken, no detail call', async () => {
    const untracked = sb()
      .control.listAll()
      .find((r) => !r.lines.some((l) => l.external_id))!._id;
    for (const body of [
      JSON.stringify({ event: 'rfq.status_changed', rfq_id: untracked, status: 'Closed' }),
      JSON.stringify({ event: 'ping' }),
      'not json at all',
    ]) {
      const id = await hook.h.createTrackedRfq(`Not hinted ${body.length}`, 2);
      await hook.h.pollAndSettle();
      sb().control.advance(id, 'closed');
      const before = calls();
      const hooksBefore = await hookJobs();
      const figuresBefore = await hintFigures(hook.h.ctx);
      const res = await fetch(`${hook.ops.url}/hooks/sourcing/${SECRET}`, { method: 'POST', body });
      expect(res.status).toBe(202);
      await waitFor('the webhook poll', async () => (await hookJobs()) > hooksBefore);
      await closedWithWorkbook(id);
      await hook.h.settle();
      expect(calls().detail - before.detail, body).toBe(0);
      expect(transitionLine(id, 'closed'), body).toMatchObject({ via: 'poll' });
      const figures = await hintFigures(hook.h.ctx);
      expect(figures.checked - figuresBefore.checked, body).toBe(0);
      expect(figures.pollsWoken - figuresBefore.pollsWoken, body).toBe(1);
    }
  });

  it('seen by the poll first, the same closing is not recorded again by the webhook check', async () => {
    const id = await hook.h.createTrackedRfq('Both', 2);
    await hook.h.pollAndSettle();
    sb().control.advance(id, 'closed');
    await hook.h.pollAndSettle(); // the poll records it
    const res = await fetch(`${hook.ops.url}/hooks/sourcing/${SECRET}`, {
      method: 'POST',
      body: JSON.stringify({ event: 'rfq.status_changed', rfq_id: id, status: 'Closed' }),
    });
    expect(res.status).toBe(202);
    await waitFor('the webhook handled', async () =>
      hook.logs.lines().find((l) => l.event === 'webhook.received' && l.named === 1 && l.checked === 1 && l.at),
    );
    await hook.h.settle();
    const rec = await trackingStore(hook.h.ctx).get(id);
    expect(rec!.transitions.filter((t) => t.to === 'closed')).toHaveLength(1);
    expect(
      hook.logs.lines().filter((l) => l.event === 'rfq.transition' && l.rfqId === id && l.to === 'closed'),
    ).toEqual([expect.objectContaining({ via: 'poll' })]);
  });

  it('status and the metrics show the webhook path: hints, checks, transitions, polls woken, close to workbook', async () => {
    const w = await statusWebhook(hook.h.ctx);
    // the tests above: one hinted closing, three webhooks naming nothing tracked, one naming an RFQ already closed
    expect(w).toMatchObject({ received: 5, checked: 2, transitions: 1, pollsWoken: 4 });
    expect(w.closeToWorkbook.count).toBeGreaterThanOrEqual(4); // every closing above got its first workbook
    const text = webhookLines(w).join('\n');
    expect(text).toContain('Webhooks: 5 received, 2 RFQs checked by hint (2 requests), 1 transitions found by hint');
    expect(text).toMatch(/Close to workbook: \d+ closings, mean [\d.]+ s, p50 <= [\d.]+ s, p95 <= [\d.]+ s/);
    const m = createMetrics({ defaultMetrics: false });
    m.setSources({ webhook: () => hintFigures(hook.h.ctx), closeToWorkbook: () => closeToWorkbook(hook.h.ctx) });
    const metrics = await m.registry.metrics();
    expect(metrics).toContain('rfq_sync_webhook_total{what="received"} 5');
    expect(metrics).toContain('rfq_sync_webhook_total{what="transitions_found"} 1');
    expect(metrics).toContain('rfq_sync_webhook_total{what="polls_woken"} 4');
    expect(metrics).toContain('# TYPE rfq_sync_close_to_workbook_seconds histogram');
    expect(metrics).toMatch(new RegExp(`^rfq_sync_close_to_workbook_seconds_count ${w.closeToWorkbook.count}$`, 'm'));
    expect(metrics).toMatch(/^rfq_sync_close_to_workbook_seconds_bucket\{le="\+Inf"\} \d+$/m);
  });

  it('with targeted checks off (WEBHOOK_CHECKS_PER_INTERVAL=0), a webhook naming a tracked RFQ only wakes the poll', async () => {
    const id = await hook.h.createTrackedRfq('Checks off', 2);
    await hook.h.pollAndSettle();
    const before = calls();
    const off = { ...hook.h.ctx, config: { ...hook.h.ctx.config, WEBHOOK_CHECKS_PER_INTERVAL: 0 } };
    const out = await actOnWebhook(off, [id]);
    expect(out).toMatchObject({ named: 1, checked: 0, transitions: 0, poll: { outcome: expect.any(String) } });
    await hook.h.settle();
    expect(calls().detail - before.detail).toBe(0);
  });
});
