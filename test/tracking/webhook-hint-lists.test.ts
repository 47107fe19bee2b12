/**
 * The webhook names the RFQ, on a service without a detail call (the friendly dialect): the named RFQ is looked for in
 * the closed list's newest end only (page 1 and the last page), and its closing recorded through the poll path with
 * no poll woken. Real Redis, the sandbox over HTTP sending its own webhooks, in-process workers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpsServer, type OpsServer } from '../../app/http/http-server.ts';
import { createMetrics } from '../../app/http/metrics.ts';
import { webhookOutcome } from '../../app/http/webhook.ts';
import { actOnWebhook } from '../../src/tracking/hint-check.ts';
import { trackingStore } from '../../src/tracking/context.ts';
import { captureLogs } from '../sourcing/fake-service.ts';
import { pollingHarness, type PollingHarness, usePipeline, waitFor } from '../helpers/pipeline.ts';

const pipeline = usePipeline({ sandbox: { pageSize: 10, dialect: 'friendly', existing: 60 }, scope: 'file' });
const SECRET = 'hook-secret-lists-0123456789';
const logs = captureLogs();
let h: PollingHarness;
let ops: OpsServer;

beforeAll(async () => {
  h = await pollingHarness({ redisUrl: pipeline.redisUrl, sandbox: pipeline.sandbox, logger: logs.logger });
  ops = await startOpsServer({
    host: '127.0.0.1',
    port: 0,
    logger: logs.logger,
    metrics: createMetrics(),
    webhook: { secret: SECRET, maxBodyBytes: 4096 },
  });
  ops.setWebhookTarget(({ ids }) => actOnWebhook(h.ctx, ids).then(webhookOutcome));
});
afterAll(async () => {
  pipeline.sandbox.webhooks.url = undefined;
  await ops?.close();
  await h?.close();
});

describe('a webhook naming a tracked RFQ, no detail call', () => {
  it("finds its closing in the closed list's newest end, recorded via the webhook, no poll woken", async () => {
    const sb = pipeline.sandbox;
    const id = await h.createTrackedRfq('Hinted by list', 2);
    await h.pollAndSettle();
    const hooks = async () =>
      (await h.ctx.queues.poll.getJobs(['waiting', 'delayed', 'active', 'completed', 'failed'])).filter((j) =>
        j.id?.startsWith('poll~hook~'),
      ).length;
    const hooksBefore = await hooks();
    const listed = () => Object.values(sb.stats().calls.listRfqs ?? {}).reduce((a, b) => a + b, 0);
    const before = listed();
    sb.webhooks.url = `${ops.url}/hooks/sourcing/${SECRET}`;
    sb.control.advance(id, 'closed');
    await waitFor('the closing recorded', async () => (await trackingStore(h.ctx).get(id))?.state === 'closed');
    sb.webhooks.url = undefined;
    await h.settle();
    const line = logs.lines().find((l) => l.event === 'rfq.transition' && l.rfqId === id && l.to === 'closed');
    expect(line).toMatchObject({ via: 'webhook' });
    expect(listed() - before).toBeLessThanOrEqual(2);
    expect(Object.values(sb.stats().calls.getRfq ?? {}).reduce((a, b) => a + b, 0)).toBe(0);
    expect(await hooks()).toBe(hooksBefore);
    expect(logs.lines().find((l) => l.event === 'webhook.checked')).toMatchObject({
      reading: "the closed list's newest end (lower)",
      transitions: 1,
    });
  });
});
