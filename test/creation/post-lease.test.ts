/**
 * The lease holds until the POST is answered (src/creation/rfq-creator.ts): it covers whatever runs between the lease
 * and the request (here the replica wait, made slow as by a host that pauses), the POST's deadline is what remains
 * of it, and a lease found spent before sending sends nothing, so another attempt that took the requisition over is
 * never doubled. Real Redis, the sandbox over HTTP.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { creatorDeps } from '../../jobs/create-rfq.ts';
import { createIdempotencyStore } from '../../src/creation/idempotency-store.ts';
import { createRfqOnce } from '../../src/creation/rfq-creator.ts';
import { TransientHttpError } from '../../src/core/errors.ts';
import { closeWorkerContext, type AppContext } from '../../app/runtime/worker-context.ts';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.ts';
import { freshPrefix, useRedis } from '../helpers/redis.ts';
import { makeRequisitions } from '../helpers/fixtures.ts';
import { pipelineContext } from '../helpers/worker-env.ts';
import { sleep, waitFor } from '../helpers/wait.ts';
import { createAsJob } from '../helpers/creation.ts';
import { AttemptBusyError } from '../../src/core/index.ts';

const redis = useRedis();
let sandbox: Sandbox | undefined;
let ctx: AppContext | undefined;
afterEach(async () => {
  if (ctx) await closeWorkerContext(ctx);
  await sandbox?.stop();
  ctx = sandbox = undefined;
});

async function setUp(deadlineMs: number): Promise<AppContext> {
  sandbox = await startSandbox({ seed: 5 });
  ctx = await pipelineContext({
    redisUrl: redis.url,
    baseUrl: sandbox.url,
    token: 'sandbox-token',
    prefix: freshPrefix(),
    account: 'lease',
    extra: {
      SOURCING_CALL_DEADLINE_MS: String(deadlineMs),
      SOURCING_HEADERS_TIMEOUT_MS: String(deadlineMs),
      SOURCING_LIST_SETTLE_MS: '100',
    },
  });
  return ctx;
}

describe('the post lease', () => {
  it('a pause longer than the lease between the lease and the POST: nothing sent; the attempt that took over posts once', async () => {
    const c = await setUp(1_000);
    const deps = creatorDeps(c);
    const [warm, r] = makeRequisitions(2, 'pause');
    await createRfqOnce(deps, warm!); // the list lag is measured on it
    await waitFor('list lag measured', async () => (await c.dialects.stored())?.listLagMs !== undefined, 20_000);
    let paused!: () => void;
    const pausing = new Promise<void>((res) => (paused = res));
    // the first attempt stalls after its lease began (as a host or VM pause would) for longer than the lease
    const stalled = createRfqOnce(
      {
        ...deps,
        replicated: async () => {
          paused();
          await sleep(deps.postLeaseMs + 300); // sleep: the stall must outlast the lease (what is tested)
        },
      },
      r!,
    ).catch((e: unknown) => e);
    await pausing;
    await sleep(deps.postLeaseMs + 50); // sleep: the lease must run out (what is tested)
    // meanwhile the lease ran out: another attempt takes the requisition (reconciles: the first may have posted)
    const other = await createAsJob(deps, r!);
    expect(other).toMatchObject({ status: 'created' });
    expect(await stalled).toBeInstanceOf(AttemptBusyError);
    expect(sandbox!.stats().rfqsCreated).toBe(2); // the warm-up, and r once
    expect((await createIdempotencyStore(c.redis, c.keys).get(`generic/${r!.key}`))?.rfqId).toBe(other.rfqId);
  });

  it("the POST's deadline is what remains of the lease: a POST that hangs ends before the lease does", async () => {
    const c = await setUp(3_000);
    const deps = creatorDeps(c);
    sandbox!.setFaults({ latencyMs: 20_000 }); // the service takes the request and does not answer
    const [r] = makeRequisitions(1, 'hang');
    const t0 = performance.now();
    // sleep: replication that hangs: the POST's deadline must end before the lease does
    const err = await createRfqOnce({ ...deps, replicated: () => sleep(2_500) }, r!).catch((e: unknown) => e);
    const took = performance.now() - t0;
    expect(err).toBeInstanceOf(TransientHttpError);
    expect((err as Error).message).toMatch(/what remained of the lease/);
    expect(took).toBeLessThan(deps.postLeaseMs);
    // the RFQ may exist: the next attempt reconciles
    expect((await createIdempotencyStore(c.redis, c.keys).get(`generic/${r!.key}`))?.state).toBe('creating');
  });
});
