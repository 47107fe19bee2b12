/**
 * A re-export racing a lost answer (docs/architecture.md#re-exports), to the end of the loop: lines [a, b] are
 * posted and the answer is lost; the requisition is exported again as [c, a, b] and that export reconciles first.
 * The RFQ found holds a and b at positions 0 and 1 (what was POSTED, not the new export's order), c becomes a
 * supplementary RFQ; no line is sent twice, none is dropped; and the award file the ERP imports credits each quote to
 * its own line. Both dialects, lists that lag and store units upper-cased.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { creatorDeps } from '../../jobs/create-rfq.ts';
import { createIdempotencyStore } from '../../src/creation/idempotency-store.ts';
import { createRfqOnce } from '../../src/creation/rfq-creator.ts';
import type { Requisition } from '../../src/core/requisition.ts';
import { trackedRfq } from '../../src/tracking/status.ts';
import { pollingHarness, type PollingHarness } from '../helpers/polling.ts';
import { readAwardCsv } from '../helpers/files.ts';
import { useRedis } from '../helpers/redis.ts';
import { useSandbox } from '../helpers/sandbox.ts';
import { waitFor } from '../helpers/wait.ts';
import { createAsJob } from '../helpers/creation.ts';
import { exactlyOnceBy, realisticRequisitions } from './real-lists.ts';

const redis = useRedis();
const behaviour = { listLagMs: 600, stores: ['uom-case' as const, 'spaces' as const] };
const sandboxes = {
  friendly: useSandbox({ pageSize: 5, behaviour }),
  docs: useSandbox({ pageSize: 5, behaviour, dialect: 'docs' }),
};
let h: PollingHarness | undefined;
afterEach(async () => {
  for (const sb of Object.values(sandboxes)) sb.sandbox.setFaults({});
  await h?.close();
  h = undefined;
});

describe('a re-export racing a lost answer', () => {
  it.each(['friendly', 'docs'] as const)(
    '%s dialect: [a,b] posted and lost, [c,a,b] reconciles first: one RFQ with a and b, a supplement with c, quotes credited to their lines',
    { timeout: 60_000 },
    async (dialect) => {
      const sb = sandboxes[dialect].sandbox;
      h = await pollingHarness({
        redisUrl: redis.url,
        sandbox: sb,
        env: {
          SOURCING_ACCOUNT: `race-${dialect}`,
          SOURCING_CALL_DEADLINE_MS: '2000',
          SOURCING_HEADERS_TIMEOUT_MS: '1500',
          SOURCING_LIST_SETTLE_MS: '200',
        },
      });
      const deps = creatorDeps(h.ctx);
      const c = h.ctx;
      // a first create of the account: the list lag gets measured on it
      await createAsJob(deps, realisticRequisitions(1, `warm${dialect}`)[0]!);
      await waitFor('list lag measured', async () => (await c.dialects.stored())?.listLagMs !== undefined, 20_000);

      const [r] = realisticRequisitions(1, `race${dialect}`);
      const [a, b] = [r!.lines[0]!, { ...r!.lines[0]!, external_id: `race${dialect}-b`, product_name: 'Toner  black' }];
      const cLine = { ...a, external_id: `race${dialect}-c`, product_name: 'Stapler', qty: 3, estimated_price: 900 };
      const ab: Requisition = { ...r!, lines: [a, { ...b, qty: 4, estimated_price: 4000 }] };
      const cab: Requisition = { ...ab, sourceFile: 'later.csv', lines: [cLine, ...ab.lines] };

      sb.setFaults({ commitThenFail: { rate: 1, mode: '502' } });
      await expect(createRfqOnce(deps, ab)).rejects.toThrow(/502/);
      sb.setFaults({});
      const raced = await createAsJob(deps, cab);
      expect(raced).toMatchObject({ status: 'adopted' });
      expect(raced.supplements?.map((s) => s.status)).toEqual(['created']);
      expect(await createAsJob(deps, ab)).toMatchObject({ status: 'existing' });

      // at the service: every line once, none dropped; the RFQ holds a and b as posted, the supplement c
      const ours = sb.control
        .listAll()
        .filter((x) => x.lines.some((l) => l.external_id?.toLowerCase().startsWith(`race${dialect}`)));
      expect(exactlyOnceBy(ours, [cab])).toEqual({ duplicates: [], missing: [], rfqCount: 2 });
      expect(sb.stats().rfqsCreated).toBe(3); // the warm-up, [a,b] once, [c] once
      const main = ours.find((x) => x._id === raced.rfqId)!;
      const supp = ours.find((x) => x._id !== raced.rfqId)!;
      expect(main.lines.map((l) => l.external_id?.toLowerCase())).toEqual([a.external_id, b.external_id]);
      expect(supp.lines.map((l) => l.external_id?.toLowerCase())).toEqual([cLine.external_id]);
      const rec = await createIdempotencyStore(c.redis, c.keys).get(`generic/${r!.key}`);
      expect(rec?.positions).toEqual({ [a.external_id]: 0, [b.external_id]: 1 });

      // to the end of the loop: a supplier quotes each line at its own price, wins, both RFQs complete
      const ctl = sb.control;
      for (const [rfq, prices] of [
        [main, ['10', '20']],
        [supp, ['30']],
      ] as const) {
        const q = ctl.submitQuotation(rfq._id, { sup_name: 'Stationer', prices: [...prices] });
        ctl.decide(rfq._id, String(q.quotation_key), true);
        ctl.pickWinner(rfq._id, String(q.quotation_key));
        ctl.advance(rfq._id, 'closed');
      }
      for (const rfq of [main, supp]) ctl.advance(rfq._id, 'completed');
      // polled until both award files are written (the lists show a new RFQ only after their lag)
      const hc = h;
      const awards = await waitFor(
        'both award files',
        async () => {
          await hc.pollAndSettle();
          const files = await Promise.all(
            [main, supp].map(async (x) => (await trackedRfq(c, x._id))?.comparison?.awardCsv),
          );
          return files.every((f) => f !== undefined) ? (files as string[]) : undefined;
        },
        20_000,
        100,
      );
      const rows = awards.flatMap((f) => readAwardCsv(join(c.config.folders.awards, f)));
      expect(rows.map((x) => [x.external_id?.toLowerCase(), x.unit_price]).sort()).toEqual([
        [a.external_id, '10.00'],
        [b.external_id, '20.00'],
        [cLine.external_id, '30.00'],
      ]);
    },
  );
});
