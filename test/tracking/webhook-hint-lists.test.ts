/**
 * The webhook names the RFQ, on a service without a detail call (the friendly dialect): the named RFQ is looked for in
 * the closed list's newest end only (page 1 and the last page), and its closing recorded through the poll path with
 * no poll woken. Real Redis, the sandbox over HTTP sending its own webhooks, in-process workers.
 */
import { describe, expect, it } from 'vitest';
import { usePipeline } from '../helpers/pipeline.ts';
import { waitFor } from '../helpers/wait.ts';
import { useWebhookOps } from '../helpers/webhook-ops.ts';
import { trackingStore } from '../../src/rfqs/store.ts';

const pipeline = usePipeline({ sandbox: { pageSize: 10, dialect: 'friendly', existing: 60 }, scope: 'file' });
const SECRET = 'hook-secret-lists-0123456789';
const hook = useWebhookOps(pipeline, SECRET);

describe('a webhook naming a tracked RFQ, no detail call', () => {
  it("finds its closing in the closed list's newest end, recorded via the webhook, no poll woken", async () => {
    const sb = pipeline.sandbox;
    const id = await hook.h.createTrackedRfq('Hinted by list', 2);
    await hook.h.pollAndSettle();
    const hooks = async () =>
      (await hook.h.ctx.queues.poll.getJobs(['waiting', 'delayed', 'active', 'completed', 'failed'])).filter((j) =>
        j.id?.startsWith('poll~hook~'),
      ).length;
    const hooksBefore = await hooks();
    const listed = () => Object.values(sb.stats().calls.listRfqs ?? {}).reduce((a, b) => a + b, 0);
    const before = listed();
    sb.webhooks.url = `${hook.ops.url}/hooks/sourcing/${SECRET}`;
    sb.control.advance(id, 'closed');
    await waitFor('the closing recorded', async () => (await trackingStore(hook.h.ctx).get(id))?.state === 'closed');
    sb.webhooks.url = undefined;
    await hook.h.settle();
    const line = hook.logs.lines().find((l) => l.event === 'rfq.transition' && l.rfqId === id && l.to === 'closed');
    expect(line).toMatchObject({ via: 'webhook' });
    expect(listed() - before).toBeLessThanOrEqual(2);
    expect(Object.values(sb.stats().calls.getRfq ?? {}).reduce((a, b) => a + b, 0)).toBe(0);
    expect(await hooks()).toBe(hooksBefore);
    expect(hook.logs.lines().find((l) => l.event === 'webhook.checked')).toMatchObject({
      reading: "the closed list's newest end (lower)",
      transitions: 1,
    });
  });
});
