/**
 * The reconcile search through faults (the second defect the hardening soak found,
 * docs/reliability.md#defects-the-suite-found-all-fixed-in-the-code): a walk of the account's lists (5 per page)
 * through 5xx and broken JSON pages still finishes, finds the RFQ that is there and proves absent what is not.
 * The search under churn: reconcile-churn.test.ts.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { closeWorkerContext, type AppContext } from '../../app/runtime/worker-context.ts';
import { RECONCILE_LIMITS, walkAccount } from '../../src/creation/reconcile-walk.ts';
import { listingStrategyFor } from '../../src/sourcing/listing-strategy.ts';
import { freshPrefix } from '../helpers/redis.ts';
import { pipelineContext } from '../helpers/worker-env.ts';
import { usePipeline } from '../helpers/pipeline.ts';
import { COMPANY, postOtherRfq, TOKEN } from './churn-account.ts';

const pipeline = usePipeline({ sandbox: { accounts: { [TOKEN]: COMPANY }, pageSize: 5 } });

let ctx: AppContext | undefined;
afterEach(async () => {
  pipeline.sandbox.setFaults({});
  if (ctx) await closeWorkerContext(ctx);
  ctx = undefined;
});

/** Other RFQs of the account (not ours): posted straight to the service. */
const postOther = (tag: string, i: number) => postOtherRfq(pipeline.sandboxUrl, tag, i);

describe('reconcile search while RFQs move between lists', () => {
  it('a search through 5xx and broken JSON pages finishes: finds the RFQ that is there, and proves absent what is not', async () => {
    const tag = `faulty${Date.now() % 100_000}`;
    for (let i = 0; i < 100; i++) expect(await postOther(tag, i)).toBe(201); // 20 pages of 5 in `open`
    ctx = await pipelineContext({
      redisUrl: pipeline.redisUrl,
      baseUrl: pipeline.sandboxUrl,
      token: TOKEN,
      prefix: freshPrefix(),
      account: 'faulty',
    });
    const c = ctx;
    const dialect = await c.dialects.get();
    pipeline.sandbox.resetStats();
    pipeline.sandbox.setFaults({ errorRate: 0.05, invalidJsonRate: 0.05 });
    const carrying = async (ext: string) => {
      const found = new Set<number>();
      const out = await walkAccount(
        c.listingClient,
        listingStrategyFor(dialect).accountLists,
        RECONCILE_LIMITS,
        (r) => {
          if (r.lines.some((l) => l.external_id === ext)) found.add(r._id);
        },
      );
      return { complete: out.complete, found: found.size };
    };
    for (let round = 0; round < 3; round++) {
      expect(await carrying(`${tag}-97`)).toEqual({ complete: true, found: 1 });
      expect(await carrying(`${tag}-absent`)).toEqual({ complete: true, found: 0 });
    }
    const calls = pipeline.sandbox.stats().calls.listRfqs ?? {};
    expect(Object.entries(calls).filter(([s]) => s.startsWith('5')).length).toBeGreaterThan(0); // 5xx were met
  }, 60_000);
});
