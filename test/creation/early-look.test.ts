/**
 * Look early, conclude late (issue 46, src/creation/early-look.ts): after a lost answer, a walk looks for the RFQ
 * once it can be listed, and adopts it if it is there, long before the post lease ends; "absent, post again" still
 * waits for the lease and the settle time. In both dialects: friendly (found by external_id) and documented (no
 * echo: found by the body posted, confirmed through the detail call). Real Redis, the sandbox over HTTP.
 */
import { describe, expect, it } from 'vitest';
import { creatorDeps, reconcilerOf } from '../../jobs/create-rfq.ts';
import { createIdempotencyStore } from '../../src/creation/idempotency-store.ts';
import { listSettleMs } from '../../src/creation/list-settle.ts';
import { createRfqOnce } from '../../src/creation/rfq-creator.ts';
import { TransientHttpError } from '../../src/core/errors.ts';
import type { SandboxFaults } from '../../src/sandbox/faults.ts';
import { createAsJob } from '../helpers/creation.ts';
import { freshPrefix, useRedis } from '../helpers/redis.ts';
import { makeRequisitions } from '../helpers/fixtures.ts';
import { useOwnParts } from '../helpers/pipeline.ts';
import { waitFor } from '../helpers/wait.ts';

/** The POST's deadline: its lease ends 2 s after it (jobs/create-rfq.ts). */
const DEADLINE_MS = 6_000;
const redis = useRedis();
const parts = useOwnParts();

async function setUp(dialect: 'friendly' | 'docs', tag: string) {
  const sandbox = await parts.sandbox({ dialect, existing: 20, pageSize: 5 });
  const ctx = await parts.context({
    redisUrl: redis.url,
    baseUrl: sandbox.url,
    token: 'sandbox-token',
    prefix: freshPrefix(),
    account: tag,
    extra: {
      SOURCING_CALL_DEADLINE_MS: String(DEADLINE_MS),
      SOURCING_HEADERS_TIMEOUT_MS: String(DEADLINE_MS),
      SOURCING_BODY_TIMEOUT_MS: String(DEADLINE_MS),
      SOURCING_LIST_SETTLE_MS: '2000', // the default
    },
  });
  const deps = creatorDeps(ctx);
  const [warm, r] = makeRequisitions(2, tag);
  await createRfqOnce(deps, warm!); // the list lag is measured on it
  const dialectOf = await waitFor(
    'list lag measured',
    async () => {
      const d = await ctx.dialects.stored();
      return d?.listLagMs !== undefined ? d : undefined;
    },
    20_000,
  );
  const store = createIdempotencyStore(ctx.redis, ctx.keys);
  const id = `generic/${r!.key}`;
  /** r's POST is answered with `fault`, then the fault is lifted: the answer is lost, the record stays `creating`. */
  const loseAnswer = async (fault: SandboxFaults) => {
    sandbox.setFaults(fault);
    const err = await createRfqOnce(deps, r!).catch((e: unknown) => e);
    sandbox.setFaults({});
    expect(err).toBeInstanceOf(TransientHttpError);
    const rec = await store.get(id);
    expect(rec?.state).toBe('creating');
    return rec!.postUntil!;
  };
  const ids = new Set(r!.lines.map((l) => l.external_id));
  /** r's RFQs at the sandbox. */
  const ours = () => sandbox.control.listAll().filter((x) => x.lines.some((l) => ids.has(l.external_id!)));
  return { sandbox, ctx, deps, r: r!, id, store, loseAnswer, ours, settleMs: listSettleMs(dialectOf, 2_000) };
}

describe.each(['friendly', 'docs'] as const)('a lost answer, %s dialect', (dialect) => {
  it('whose RFQ is listed: adopted before its post lease ends, nothing posted again', async () => {
    const t = await setUp(dialect, `early-${dialect}`);
    const postUntil = await t.loseAnswer({ commitThenFail: { rate: 1, mode: '502' } });
    const outcome = await createAsJob(t.deps, t.r);
    expect(outcome.status).toBe('adopted');
    const rec = await t.store.get(t.id);
    expect(rec).toMatchObject({ state: 'created', how: 'adopted', rfqId: outcome.rfqId });
    expect(rec!.createdAt!, 'adopted before the lease of the lost POST ended').toBeLessThan(postUntil);
    expect(t.ours().map((x) => x._id)).toEqual([outcome.rfqId]);
    expect(t.sandbox.stats().rfqsCreated).toBe(2); // the warm-up, and r once
    expect(rec!.positions).toEqual(Object.fromEntries(t.r.lines.map((l, i) => [l.external_id, i])));
  }, 60_000);

  it('whose RFQ is not listed: posted again only after its lease and the settle time', async () => {
    const t = await setUp(dialect, `late-${dialect}`);
    // the service failed before storing anything: the POST's answer says nothing of whether the RFQ exists
    const postUntil = await t.loseAnswer({ errorRate: 1 });
    expect(t.ours()).toEqual([]);
    const outcome = await createAsJob(t.deps, t.r);
    expect(outcome.status).toBe('created');
    const [rfq, ...more] = t.ours();
    expect(more).toEqual([]);
    expect(rfq!._id).toBe(outcome.rfqId);
    // the sandbox stamps the RFQ when the POST arrives (this host's clock, as Redis's)
    expect(rfq!.rfq_date, 'posted again no sooner than the lease end plus the settle time').toBeGreaterThanOrEqual(
      postUntil + t.settleMs,
    );
    // it was looked for early (and not found) before that
    expect((await reconcilerOf(t.ctx).stats()).started).toBeGreaterThanOrEqual(2);
  }, 60_000);
});
