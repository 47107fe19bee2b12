/**
 * The sourcing service's webhook on the operations endpoint (issue 24): POST /hooks/sourcing/<secret> asks for a
 * poll now; any other secret, path or method answers 404; a malformed body is fine; a flood costs at most one poll
 * per WEBHOOK_MIN_INTERVAL_MS and one waiting at a time. Real Redis, the sandbox over HTTP, in-process poll workers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent, request } from 'undici';
import { startOpsServer, type OpsServer } from '../../app/http/http-server.ts';
import { createMetrics } from '../../app/http/metrics.ts';
import { pollHistory } from '../../src/tracking/poll/poll-history.ts';
import { wakePoll } from '../../src/tracking/poll/poll-wake.ts';
import { captureLogs } from '../sourcing/fake-service.ts';
import { pollingHarness, type PollingHarness } from '../helpers/polling.ts';
import { usePipeline } from '../helpers/pipeline.ts';
import { waitFor } from '../helpers/wait.ts';

const pipeline = usePipeline({ sandbox: { pageSize: 20 }, scope: 'file' });
const SECRET = 'hook-secret-0123456789';
const INTERVAL = 3_000;
const logs = captureLogs();
let h: PollingHarness;
let ops: OpsServer;

beforeAll(async () => {
  h = await pollingHarness({
    redisUrl: pipeline.redisUrl,
    sandbox: pipeline.sandbox,
    logger: logs.logger,
    env: { WEBHOOK_MIN_INTERVAL_MS: String(INTERVAL) },
  });
  ops = await startOpsServer({
    host: '127.0.0.1',
    port: 0,
    logger: logs.logger,
    metrics: createMetrics(),
    webhook: { secret: SECRET, maxBodyBytes: 1024 },
  });
  ops.setWebhookTarget(() => wakePoll(h.ctx, INTERVAL));
});
afterAll(async () => {
  await ops?.close();
  await h?.close();
});

const hookPolls = async () => (await pollHistory(h.ctx)).filter((p) => p.slot.startsWith('hook~'));
const post = (path: string, body: string, init: RequestInit = {}) =>
  fetch(`${ops.url}${path}`, { method: 'POST', body, headers: { 'content-type': 'application/json' }, ...init });

describe('the sourcing webhook', () => {
  it('a wrong secret, another path or method: 404, and no poll', async () => {
    for (const [path, method] of [
      [`/hooks/sourcing/${SECRET}x`, 'POST'],
      ['/hooks/sourcing/wrong-secret-0123456789', 'POST'],
      [`/hooks/sourcing/${SECRET.slice(0, -1)}`, 'POST'],
      [`/hooks/other/${SECRET}`, 'POST'],
      [`/hooks/sourcing/${SECRET}`, 'GET'],
      [`/hooks/sourcing/${SECRET}/more`, 'POST'],
    ] as const) {
      const res = await fetch(`${ops.url}${path}`, { method, ...(method === 'POST' ? { body: '{}' } : {}) });
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    expect(await hookPolls()).toEqual([]);
  });

  it('a poll follows a webhook within 1 s; a malformed body is no error, logged by size only', async () => {
    const sent = Date.now();
    const res = await post(`/hooks/sourcing/${SECRET}`, '{"event": "rfq.closed", "rfq": ');
    expect(res.status).toBe(202);
    const [poll] = await waitFor('the webhook poll', async () => {
      const polls = await hookPolls();
      return polls.length > 0 ? polls : undefined;
    });
    expect(poll!.ok).toBe(true);
    expect(poll!.startedAt - sent).toBeLessThan(1_000);
    const line = logs.lines().find((l) => l.event === 'webhook.received')!;
    expect(line).toMatchObject({ bytes: 31, outcome: 'scheduled' });
    expect(line.hookEvent).toBeUndefined(); // not JSON: nothing read from it
    expect(logs.lines().filter((l) => l.event === 'webhook.failed' || (l.level as number) >= 50)).toEqual([]);
    expect(JSON.stringify(logs.lines())).not.toContain(SECRET);
  });

  it('a body over the cap is not read further: 202, logged as over the cap, nothing taken from it', async () => {
    const big = JSON.stringify({ event: 'rfq.closed', pad: 'x'.repeat(1_000_000) });
    const res = await post(`/hooks/sourcing/${SECRET}`, big);
    expect(res.status).toBe(202);
    await res.text();
    const line = await waitFor('the log line', async () =>
      logs.lines().find((l) => l.event === 'webhook.received' && l.truncated === true),
    );
    expect(line.hookEvent).toBeUndefined();
    expect(String(line.msg)).toMatch(/^webhook received \(over 1024 bytes\)/);
  });

  it('a flood of 1,000 webhooks causes at most 2 polls; the event field of a JSON body is logged', async () => {
    const hookJobs = async () =>
      (await h.ctx.queues.poll.getJobs(['waiting', 'delayed', 'active', 'completed', 'failed'])).filter((j) =>
        j.id?.startsWith('poll~hook~'),
      ).length;
    // an interval longer than any flood on a loaded machine takes: the count does not depend on its speed
    ops.setWebhookTarget(() => wakePoll(h.ctx, 60_000));
    const before = await hookJobs();
    const received = () => logs.lines().filter((l) => l.event === 'webhook.received').length;
    const receivedBefore = received();
    const floodStart = Date.now();
    const dispatcher = new Agent({ connections: 50 });
    const body = JSON.stringify({ event: 'rfq.status_changed', rfq_id: 1, status: 'closed' });
    const answers = await Promise.all(
      Array.from({ length: 1_000 }, () =>
        request(`${ops.url}/hooks/sourcing/${SECRET}`, { method: 'POST', body, dispatcher }).then(async (r) => {
          await r.body.dump();
          return r.statusCode;
        }),
      ),
    );
    await dispatcher.close();
    expect(answers.every((s) => s === 202)).toBe(true);
    await waitFor('every webhook handled', async () => received() - receivedBefore === 1_000);
    // the polls the flood added as jobs (a poll of the test before may still wait: then the flood adds at most one)
    const polls = (await hookJobs()) - before;
    expect(polls).toBeLessThanOrEqual(2);
    const flood = logs
      .lines()
      .filter((l) => l.event === 'webhook.received')
      .slice(receivedBefore);
    expect(flood.every((l) => l.hookEvent === 'rfq.status_changed' && l.bytes === body.length)).toBe(true);
    expect(flood.filter((l) => l.outcome === 'scheduled').length).toBe(polls);
    // and none is left without a poll: each was answered by a poll that starts after the flood began (Redis's clock)
    expect(flood.every((l) => (l.at as number) >= floodStart - 100)).toBe(true);
  });
});
