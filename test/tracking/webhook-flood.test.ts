/**
 * A flood of webhooks cannot multiply the calls (issue 35): 1,000 webhooks naming 1,000 tracked RFQs within 10 s.
 * The targeted checks stay within WEBHOOK_CHECKS_PER_INTERVAL per WEBHOOK_MIN_INTERVAL_MS, the polls the rest wakes
 * within one per interval, and every call reaches the service within RATE_LIMIT_PER_SECOND in any 1 s, as the sandbox
 * (in its own process, so arrival times are not skewed by this one's event loop) measures it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { startOpsServer, type OpsServer } from '../../app/http/http-server.ts';
import { createMetrics } from '../../app/http/metrics.ts';
import { webhookOutcome } from '../../app/http/webhook.ts';
import type { Sandbox } from '../../src/sandbox/server.ts';
import { actOnWebhook } from '../../src/tracking/poll/hint-check.ts';
import { hintFigures } from '../../src/rfqs/hint-stats.ts';
import { trackRfq } from '../../src/tracking/rfq-tracker.ts';
import { captureLogs } from '../sourcing/fake-service.ts';
import { pollingHarness, type PollingHarness } from '../helpers/polling.ts';
import { useRedis } from '../helpers/redis.ts';
import { waitFor } from '../helpers/wait.ts';
import { startSandboxChild, type SandboxChild } from '../helpers/sandbox-child.ts';

const LIMIT = 10;
const INTERVAL = 2_000;
const CHECKS = 10;
const SECRET = 'hook-secret-flood-0123456789';
const r = useRedis();
const logs = captureLogs();
let sandbox: SandboxChild;
let h: PollingHarness;
let ops: OpsServer;

beforeAll(async () => {
  sandbox = await startSandboxChild({ dialect: 'docs', pageSize: 100, existing: 1_800, seed: 35 });
  h = await pollingHarness({
    redisUrl: r.url,
    sandbox: { url: sandbox.url } as Sandbox,
    logger: logs.logger,
    env: {
      RATE_LIMIT_PER_SECOND: String(LIMIT),
      WEBHOOK_MIN_INTERVAL_MS: String(INTERVAL),
      WEBHOOK_CHECKS_PER_INTERVAL: String(CHECKS),
    },
  });
  ops = await startOpsServer({
    host: '127.0.0.1',
    port: 0,
    logger: logs.logger,
    metrics: createMetrics(),
    webhook: { secret: SECRET, maxBodyBytes: 4096 },
  });
  ops.setWebhookTarget(({ ids }) => actOnWebhook(h.ctx, ids).then(webhookOutcome));
}, 60_000);
afterAll(async () => {
  await ops?.close();
  await h?.close();
  await sandbox?.stop();
});

describe('a flood of webhooks naming tracked RFQs', () => {
  it('1,000 webhooks naming 1,000 ids in 10 s: checks within the interval bound, calls within the rate limit', async () => {
    const ids = (await sandbox.listAll())
      .filter((x) => x.state === 'open')
      .slice(0, 1_000)
      .map((x) => x._id);
    expect(ids).toHaveLength(1_000);
    for (const id of ids)
      await trackRfq(h.ctx, {
        rfqId: id,
        requisition: { key: `PR-${id}`, sourceFile: 'flood.csv', profile: 'generic', title: `${id}` },
      });
    await h.pollAndSettle(); // every one seen in its list: the flood announces nothing new

    // sent from a process of its own: the worker's process handles the webhooks, not the sending of them too
    const since = Date.now();
    const answers = await sendFlood(`${ops.url}/hooks/sourcing/${SECRET}`, ids);
    expect(answers).toEqual({ accepted: 1_000 });
    const sent = Date.now() - since;
    await waitFor(
      'every webhook handled',
      async () => logs.lines().filter((l) => l.event === 'webhook.received').length === 1_000,
      60_000,
    );
    const handled = Date.now() - since;
    await h.settle();

    const figures = await hintFigures(h.ctx);
    expect(figures.received).toBe(1_000);
    // budget windows of INTERVAL, each opened by the first webhook after the last one ended
    const windows = Math.floor(handled / INTERVAL) + 1;
    expect(figures.checked).toBeGreaterThan(0);
    expect(figures.checked).toBeLessThanOrEqual(CHECKS * windows);
    expect(figures.requests).toBeLessThanOrEqual(CHECKS * windows);
    const hookPolls = (await h.ctx.queues.poll.getJobs(['completed', 'failed', 'active', 'waiting', 'delayed'])).filter(
      (j) => j.id?.startsWith('poll~hook~'),
    ).length;
    expect(hookPolls).toBeLessThanOrEqual(Math.floor(handled / INTERVAL) + 2);

    const stats = await sandbox.stats();
    const times = stats.requestTimes.filter((t) => t >= since).sort((a, b) => a - b);
    expect(stats.sent429).toBe(0);
    let densest = 0;
    for (let e = 0, b = 0; e < times.length; e++) {
      while (times[e]! - times[b]! >= 1000) b++;
      densest = Math.max(densest, e - b + 1);
    }
    expect(densest).toBeLessThanOrEqual(LIMIT);
    console.log(
      `flood: sent in ${sent} ms, handled in ${handled} ms; ${figures.checked} checked (${figures.requests} requests), ` +
        `${hookPolls} polls woken, ${times.length} calls at the service, densest 1 s ${densest}`,
    );
  }, 180_000);
});

/** 1,000 webhooks, 10 every 10 ms, each naming one id, from a child process; how many were answered 202. */
async function sendFlood(url: string, ids: number[]): Promise<{ accepted: number }> {
  const script = `
    const ids = JSON.parse(process.env.FLOOD_IDS);
    const since = Date.now();
    const answers = [];
    for (const [i, id] of ids.entries()) {
      if (i % 10 === 0) await new Promise((r) => setTimeout(r, Math.max(0, since + i * 10 - Date.now())));
      const body = JSON.stringify({ event: 'rfq.status_changed', rfq_id: id, rfq_no: i + 1, status: 'Open' });
      answers.push(fetch(process.env.FLOOD_URL, { method: 'POST', body }).then(async (r) => (await r.arrayBuffer(), r.status)));
    }
    const codes = await Promise.all(answers);
    process.stdout.write(JSON.stringify({ accepted: codes.filter((c) => c === 202).length }));
  `;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    env: { ...process.env, FLOOD_URL: url, FLOOD_IDS: JSON.stringify(ids) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (b: Buffer) => (out += b.toString()));
  await new Promise((resolve) => child.once('exit', resolve));
  return JSON.parse(out) as { accepted: number };
}
