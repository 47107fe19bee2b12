/**
 * The operations endpoint with its webhook route acting on a polling harness's worker context, as the worker wires
 * it (app/commands/service.ts): for the tests of the webhook's hint (test/tracking/webhook-hint*.test.ts).
 */
import { afterAll, beforeAll } from 'vitest';
import { startOpsServer, type OpsServer } from '../../app/http/http-server.ts';
import { createMetrics } from '../../app/http/metrics.ts';
import { webhookOutcome } from '../../app/http/webhook.ts';
import { actOnWebhook } from '../../src/tracking/poll/hint-check.ts';
import { captureLogs } from '../sourcing/fake-service.ts';
import { pollingHarness, type PollingHarness } from './polling.ts';
import type { usePipeline } from './pipeline.ts';

export interface WebhookOps {
  readonly h: PollingHarness;
  readonly ops: OpsServer;
  readonly logs: ReturnType<typeof captureLogs>;
}

/** A polling harness and the endpoint with `secret`'s route, started before the file's tests, closed after. */
export function useWebhookOps(
  pipeline: ReturnType<typeof usePipeline>,
  secret: string,
  env?: Record<string, string>,
): WebhookOps {
  const logs = captureLogs();
  let h: PollingHarness | undefined;
  let ops: OpsServer | undefined;
  beforeAll(async () => {
    h = await pollingHarness({
      redisUrl: pipeline.redisUrl,
      sandbox: pipeline.sandbox,
      logger: logs.logger,
      ...(env ? { env } : {}),
    });
    ops = await startOpsServer({
      host: '127.0.0.1',
      port: 0,
      logger: logs.logger,
      metrics: createMetrics(),
      webhook: { secret, maxBodyBytes: 4096 },
    });
    const ctx = h.ctx;
    ops.setWebhookTarget(({ ids }) => actOnWebhook(ctx, ids).then(webhookOutcome));
  });
  afterAll(async () => {
    pipeline.sandbox.webhooks.url = undefined;
    await ops?.close();
    await h?.close();
  });
  return {
    get h() {
      if (!h) throw new Error('the webhook harness starts in beforeAll');
      return h;
    },
    get ops() {
      if (!ops) throw new Error('the webhook harness starts in beforeAll');
      return ops;
    },
    logs,
  };
}
