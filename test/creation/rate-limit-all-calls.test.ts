/**
 * RATE_LIMIT_PER_SECOND holds for every call to the service, not only the POSTs: a poll reading many list pages
 * (and retrying a failed page), creates with their reconcile searches, and quotation pulls, all at once, never
 * reach the service more than the limit in any 1 s, as the sandbox measures it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creatorDeps } from '../../jobs/create-rfq.ts';
import { silentLogger } from '../../src/core/logger.ts';
import { closeWorkerContext, createWorkerContext } from '../../app/runtime/worker-context.ts';
import { createRfqOnce } from '../../src/creation/rfq-creator.ts';
import { RECONCILE_LIMITS, walkAccount } from '../../src/creation/reconcile-walk.ts';
import { listingStrategyFor } from '../../src/sourcing/listing-strategy.ts';
import type { Requisition } from '../../src/core/requisition.ts';
import { createSourcingClient } from '../../src/sourcing/client/http-client.ts';
import { pullQuotations } from '../../src/awarding/snapshot.ts';
import { freshPrefix, useRedis } from '../helpers/redis.ts';
import { makeRequisitions } from '../helpers/fixtures.ts';
import { pipelineConfig } from '../helpers/worker-env.ts';
import { startSandboxChild, type SandboxChild } from '../helpers/sandbox-child.ts';
import { ThrottledError, AttemptBusyError } from '../../src/core/index.ts';
import type { CreateOutcome } from '../../src/creation/settle-existing.ts';

const LIMIT = 5;
const r = useRedis();
// The sandbox runs in its own process: the arrival times it records must not wait on this process's event loop.
let sandbox: SandboxChild;
beforeAll(async () => {
  sandbox = await startSandboxChild({ pageSize: 2 });
});
afterAll(async () => {
  await sandbox.stop();
});

describe('shared rate limit', () => {
  it(`a poll over many pages, creates and quotation pulls in parallel stay within ${LIMIT}/s at the service`, async () => {
    // 24 RFQs already at the service (12 pages of the open list), made outside the limiter
    const seeder = createSourcingClient({ baseUrl: sandbox.url, getToken: () => 'sandbox-token' });
    const seeded: number[] = [];
    for (let i = 0; i < 24; i++) {
      seeded.push(
        (
          await seeder.createRfq({
            title: `seed ${i}`,
            due_date: '1893456000000',
            rfq_type: 'Public',
            lines: [{ product_name: 'P', qty: 1, external_id: `seed-${i}` }],
          })
        )._id,
      );
    }
    await seeder.close();
    const since = Date.now(); // calls before this were the seeding, made outside the limiter

    const config = pipelineConfig({
      redisUrl: r.url,
      baseUrl: sandbox.url,
      token: 'sandbox-token',
      prefix: freshPrefix(),
      extra: { RATE_LIMIT_PER_SECOND: String(LIMIT), SOURCING_PAGE_CONCURRENCY: '4' },
    });
    const ctx = await createWorkerContext(config, silentLogger, { redisUrl: r.url, baseUrl: sandbox.url });
    try {
      const poll = async () => {
        let n = 0;
        for await (const _ of ctx.client.listRfqs('open')) n++;
        return n;
      };
      const deps = creatorDeps(ctx);
      // as the create-rfq and quotations jobs do: set aside (delayed) while the limiter has no permit soon (a read
      // with priority, such as the dialect's detection, may take the slots a waiting call had in view)
      const asJob = async <T>(step: () => Promise<T>): Promise<T> => {
        for (;;) {
          try {
            return await step();
          } catch (err) {
            if (!(err instanceof ThrottledError || err instanceof AttemptBusyError)) throw err;
            await new Promise((res) => setTimeout(res, err.waitMs));
          }
        }
      };
      const createAsJob = (q: Requisition): Promise<CreateOutcome> => asJob(() => createRfqOnce(deps, q));
      const creates = Promise.all(makeRequisitions(6, 'rl').map(createAsJob));
      // a reconcile walk of the account, through the same limiter
      const search = (async () => {
        const found = new Set<number>(); // each list is read twice
        await walkAccount(
          ctx.listingClient,
          listingStrategyFor(await ctx.dialects.get()).accountLists,
          RECONCILE_LIMITS,
          (rfq) => {
            if (rfq.lines.some((l) => l.external_id === 'seed-3')) found.add(rfq._id);
          },
        );
        return [...found];
      })();
      const pulls = Promise.all(seeded.slice(0, 3).map((id) => asJob(() => pullQuotations(ctx.client, id, false))));
      const [listed, created, found] = await Promise.all([poll(), creates, search, pulls]);
      expect(listed).toBeGreaterThanOrEqual(24);
      expect(created.every((c) => c.status === 'created')).toBe(true);
      expect(found).toEqual([seeded[3]]);

      const stats = await sandbox.stats();
      const times = stats.requestTimes.filter((t) => t >= since).sort((a, b) => a - b);
      // 12+ pages of the poll, 6 POSTs, 12+ pages of the reconcile's open list and the other lists, 3 pulls
      expect(times.length).toBeGreaterThanOrEqual(12 + 6 + 12 + 3);
      expect(stats.sent429).toBe(0);
      let densest = 0;
      for (let e = 0, b = 0; e < times.length; e++) {
        while (times[e]! - times[b]! >= 1000) b++;
        densest = Math.max(densest, e - b + 1);
      }
      expect(densest).toBeLessThanOrEqual(LIMIT);
    } finally {
      await closeWorkerContext(ctx);
    }
  }, 60_000);
});
