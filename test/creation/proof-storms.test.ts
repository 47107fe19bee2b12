/**
 * Proof 5 (docs/architecture.md#proofs-the-tests-run): 429 storms with Retry-After and 5xx bursts while 150
 * requisitions are created under a limit of 20 calls per second. Measured at the sandbox (arrival times of every API
 * call): all RFQs created, exactly once; after each 429, nobody calls again before its Retry-After is over; never more
 * than 20 calls in any 1 s window. In both dialects of the service.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { creatorDeps, enqueueCreateRfq } from '../../jobs/create-rfq.ts';
import { startWorker, type RunningWorker } from '../../jobs/worker.ts';
import { closeWorkerContext, type AppContext } from '../../app/runtime/worker-context.ts';
import { freshPrefix, useRedis } from '../helpers/redis.ts';
import { DEFAULT_SANDBOX_TOKEN } from '../../src/sandbox/server.ts';
import { startSandboxChild, type SandboxChild } from '../helpers/sandbox-child.ts';
import { checkExactlyOnce, createAsJob } from '../helpers/creation.ts';
import { makeRequisitions } from '../helpers/fixtures.ts';
import { pipelineContext } from '../helpers/worker-env.ts';
import { waitFor } from '../helpers/wait.ts';

const LIMIT = 20;
const redis = useRedis();
// The sandbox runs in its own process: the arrival times it records must not wait on this process's event loop.
let running: SandboxChild | undefined;
let ctx: AppContext | undefined;
let worker: RunningWorker | undefined;
afterEach(async () => {
  await worker?.close(5_000);
  if (ctx) await closeWorkerContext(ctx);
  await running?.stop();
  worker = ctx = running = undefined;
});

/** The densest 1 s of arrivals, as offsets from the first call (for the failure message). */
function densest(t: number[]): string {
  let best = 0;
  let at = 0;
  for (let e = 0, b = 0; e < t.length; e++) {
    while (t[e]! - t[b]! >= 1000) b++;
    if (e - b + 1 > best) [best, at] = [e - b + 1, b];
  }
  return `${best} calls from +${t[at]! - t[0]!} ms, gaps ${t
    .slice(at + 1, at + best)
    .map((x, i) => x - t[at + i]!)
    .join(',')}`;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('proof 5: 429 storms and 5xx bursts', () => {
  it.each(['friendly', 'docs'] as const)(
    '%s dialect: creates everything once, honours Retry-After and never exceeds the rate limit',
    async (dialect) => {
      const sb = (running = await startSandboxChild({ seed: 42, pageSize: 100, faults: { latencyMs: 5 }, dialect }));
      ctx = await pipelineContext({
        redisUrl: redis.url,
        baseUrl: sb.url,
        token: DEFAULT_SANDBOX_TOKEN,
        prefix: freshPrefix(),
        account: `storms-${dialect}`,
        extra: { RATE_LIMIT_PER_SECOND: String(LIMIT), CONCURRENCY_CREATE: '8' },
      });
      const c = ctx;
      // One create before the storms, and the account's list lag measured on it: measured under the storms instead,
      // the lag probe's list reads queue behind the creates for the 20 permits a second and the lag comes out ~16 s,
      // so every lost answer would wait twice that before its reconcile (the proof is about storms, not that wait).
      await createAsJob(creatorDeps(c), makeRequisitions(1, `warm${dialect}`)[0]!);
      await waitFor('list lag measured', async () => (await c.dialects.stored())?.listLagMs !== undefined, 20_000);
      const warmCalls = (await sb.stats()).requestTimes.length;
      const reqs = makeRequisitions(150, `storm${dialect}`);
      for (const r of reqs) await enqueueCreateRfq(ctx.queues, r);
      const callsBefore = (await sb.stats()).requestTimes.length - warmCalls;
      worker = startWorker(ctx, { queues: ['createRfq'], drainDelaySeconds: 1 });

      const storms: Array<{ at: number; retryAfterSeconds: number; refused: number }> = [];
      // A storm refuses the next `burst` calls with Retry-After; it runs until they are used up or the faults change.
      const storm = async (burst: number, retryAfterSeconds: number, ms: number) => {
        const before = (await sb.stats()).sent429;
        const at = Date.now();
        await sb.setFaults({ latencyMs: 5, rateLimit: { burst, retryAfterSeconds } });
        await sleep(ms);
        storms.push({ at, retryAfterSeconds, refused: (await sb.stats()).sent429 - before });
      };
      // sleep: the storms' schedule (calm, 5xx burst, 429 storms) is the scenario; each phase lasts a fixed time
      await sleep(800);
      await sb.setFaults({ latencyMs: 5, errorRate: 0.4 }); // 5xx burst: creates are ambiguous, reconciles follow
      await sleep(1_200); // sleep: the 5xx burst's length
      await storm(3, 2, 6_500);
      await sb.setFaults({ latencyMs: 5, errorRate: 0.5 });
      await sleep(1_000); // sleep: the second 5xx burst's length
      await storm(3, 1, 3_500);
      await sb.setFaults({ latencyMs: 5 });
      await waitFor('150 completed', async () => (await c.queues.createRfq.getCompletedCount()) === 150, 40_000, 200);

      const stats = await sb.stats();
      expect(callsBefore).toBe(0);
      const times = [...stats.requestTimes].sort((a, b) => a - b);
      // Retry-After: the first `burst` calls after a storm starts are the 429s. After each, only calls already on the
      // way (a 250 ms allowance) may arrive before its Retry-After is over.
      const early: Array<{ after429: number; gapMs: number }> = [];
      const gaps: number[] = [];
      for (const s of storms) {
        // the 429s of a storm are the first calls after it starts (the sandbox counts its burst down per call)
        expect(s.refused).toBeGreaterThanOrEqual(2);
        const refused = times.filter((t) => t >= s.at).slice(0, s.refused);
        for (const t429 of refused) {
          const next = times.find((t) => t > t429 + 250);
          if (next !== undefined) gaps.push(next - t429);
          for (const t of times)
            if (t > t429 + 250 && t < t429 + s.retryAfterSeconds * 1000 - 20)
              early.push({ after429: t429, gapMs: t - t429 });
        }
      }
      expect(early).toEqual([]);
      expect(stats.sent429).toBeGreaterThanOrEqual(4);
      expect(Object.entries(stats.calls.createRfq ?? {}).some(([s, n]) => s.startsWith('5') && n > 0)).toBe(true);
      if (stats.maxPerSecond > LIMIT) console.log(`proof 5: densest second: ${densest(times)}`);
      expect(stats.maxPerSecond).toBeLessThanOrEqual(LIMIT);
      const all = await sb.listAll();
      expect(all).toHaveLength(151); // the warm-up's and one per requisition
      const rfqs = all.filter((r) => !r.lines[0]?.external_id?.startsWith('warm'));
      expect(checkExactlyOnce(rfqs, reqs)).toEqual({ duplicates: [], missing: [], rfqCount: 150 });
      const counts = await ctx.queues.createRfq.getJobCounts('completed', 'failed', 'wait', 'active', 'delayed');
      expect(counts).toEqual({ completed: 150, failed: 0, wait: 0, active: 0, delayed: 0 });
      const spanS = (times.at(-1)! - times[0]!) / 1000;
      console.log(
        `proof 5 (${dialect}): ${times.length} calls in ${spanS.toFixed(1)} s, max ${stats.maxPerSecond} in any 1 s (limit ${LIMIT}), 429s ${stats.sent429}, gap after each 429 (ms) ${gaps.join(',')}, calls ${JSON.stringify(stats.calls)}`,
      );
    },
  );
});
