/**
 * Claimant-safe adoption (docs/architecture.md#reconcile-after-a-lost-answer), where lists do not echo external_id
 * (docs dialect; with the echo an RFQ names its own requisition). X and Y are two requisitions with the same title
 * and lines. Y's POST committed and its answer was lost; X's POST failed before the service stored anything. Y is in
 * back-off, not registered with any walk, when X reconciles: X must not take Y's RFQ.
 *   - Y's RFQ shows what tells them apart (the specification): it is Y's, X posts its own, Y adopts its own.
 *   - It shows nothing that does: both are parked for a person, nothing posted twice; `resolve` settles them.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { creatorDeps } from '../../jobs/create-rfq.ts';
import { runResolveCommand } from '../../app/commands/resolve.ts';
import { createIdempotencyStore } from '../../src/creation/idempotency-store.ts';
import { createRfqOnce, type CreatorDeps } from '../../src/creation/rfq-creator.ts';
import { silentLogger } from '../../src/core/logger.ts';
import { closeWorkerContext, type AppContext } from '../../app/runtime/worker-context.ts';
import type { Requisition } from '../../src/core/requisition.ts';
import { freshPrefix, useRedis } from '../helpers/redis.ts';
import { pipelineConfig, pipelineContext } from '../helpers/worker-env.ts';
import { useSandbox } from '../helpers/sandbox.ts';
import { waitFor } from '../helpers/wait.ts';
import { createAsJob } from '../helpers/creation.ts';
import { realisticRequisitions } from './real-lists.ts';

const redis = useRedis();
const sb = useSandbox({ pageSize: 10, dialect: 'docs' });
let ctx: AppContext | undefined;
afterEach(async () => {
  sb.sandbox.setFaults({});
  if (ctx) await closeWorkerContext(ctx);
  ctx = undefined;
});

/** X and Y: the same title and lines; Y's specification differs unless `same`. */
function pair(tag: string, same: boolean): [Requisition, Requisition] {
  const [x] = realisticRequisitions(1, tag);
  const y: Requisition = {
    ...x!,
    key: `${x!.key}-Y`,
    lines: x!.lines.map((l) => ({
      ...l,
      external_id: `${l.external_id}-y`,
      ...(same ? {} : { specification: `${l.specification ?? ''} recycled` }),
    })),
  };
  return [x!, y];
}

async function setUp(account: string): Promise<{ deps: CreatorDeps; env: Parameters<typeof pipelineConfig>[0] }> {
  const env = {
    redisUrl: redis.url,
    baseUrl: sb.url,
    token: 'sandbox-token',
    prefix: freshPrefix(),
    account,
    extra: { SOURCING_CALL_DEADLINE_MS: '2000', SOURCING_LIST_SETTLE_MS: '100' },
  };
  ctx = await pipelineContext(env);
  const c = ctx;
  const deps = creatorDeps(ctx);
  await createAsJob(deps, realisticRequisitions(1, `${account}warm`)[0]!); // the list lag is measured on it
  await waitFor('list lag measured', async () => (await c.dialects.stored())?.listLagMs !== undefined, 20_000);
  return { deps, env };
}

/** Y's answer lost after commit, X's POST failed before the service stored it: both `creating`. */
async function loseBoth(deps: CreatorDeps, x: Requisition, y: Requisition): Promise<void> {
  sb.sandbox.setFaults({ commitThenFail: { rate: 1, mode: '502' } });
  await expect(createRfqOnce(deps, y)).rejects.toThrow(/502/);
  sb.sandbox.setFaults({ errorRate: 1 });
  await expect(createRfqOnce(deps, x)).rejects.toThrow(/5\d\d/);
  sb.sandbox.setFaults({});
}

const carrying = (ext: string) =>
  sb.sandbox.control.listAll().filter((r) => r.lines.some((l) => l.external_id === ext));

describe('an RFQ that another requisition may own is never adopted', () => {
  it('X reconciles while Y (whose RFQ committed) is in back-off: X posts its own, Y adopts its own', async () => {
    const { deps } = await setUp('claim1');
    const [x, y] = pair('claim1', false);
    await loseBoth(deps, x, y);
    expect(await createAsJob(deps, x)).toMatchObject({ status: 'created' }); // Y's RFQ is not X's
    expect(await createAsJob(deps, y)).toMatchObject({ status: 'adopted' });
    for (const l of [...x.lines, ...y.lines]) expect(carrying(l.external_id)).toHaveLength(1);
    const store = createIdempotencyStore(ctx!.redis, ctx!.keys);
    const [rx, ry] = [await store.get(`generic/${x.key}`), await store.get(`generic/${y.key}`)];
    expect(rx?.rfqId).toBe(carrying(x.lines[0]!.external_id)[0]!._id);
    expect(ry?.rfqId).toBe(carrying(y.lines[0]!.external_id)[0]!._id);
  });

  it('nothing tells X from Y: both parked, nothing posted twice; resolve records Y and posts X', async () => {
    const { deps, env } = await setUp('claim2');
    const [x, y] = pair('claim2', true);
    await loseBoth(deps, x, y);
    const created = sb.sandbox.stats().rfqsCreated;
    expect(await createAsJob(deps, x)).toMatchObject({
      status: 'undecided',
      reason: expect.stringMatching(
        /for generic\/PR-claim2-0, generic\/PR-claim2-0-Y|for generic\/PR-claim2-0-Y, generic\/PR-claim2-0/,
      ),
    });
    expect(await createAsJob(deps, y)).toMatchObject({ status: 'undecided' });
    expect(sb.sandbox.stats().rfqsCreated).toBe(created);
    const config = pipelineConfig(env);
    const ys = carrying(y.lines[0]!.external_id)[0]!;
    expect(await runResolveCommand(config, silentLogger, `generic/${y.key}`, { rfq: ys._id })).toBe(0);
    expect(await runResolveCommand(config, silentLogger, `generic/${x.key}`, { post: true })).toBe(0);
    // the queued attempts (run here as the worker would)
    expect(await createAsJob(deps, x)).toMatchObject({ status: 'created' });
    expect(await createAsJob(deps, y)).toMatchObject({ status: 'existing', rfqId: ys._id });
    for (const l of [...x.lines, ...y.lines]) expect(carrying(l.external_id)).toHaveLength(1);
  });
});
