/**
 * The ERP's own unit price (docs/comparison.md#rules-and-assumptions): SAP prices per price unit (12.35 per 100). The service
 * only takes a whole-number estimated line total, so its estimate of 500 x 12.35 / 100 = 61.75 is 62, and a supplier
 * quoting exactly the ERP's price would show a "saving". The export's unit price and price unit travel with the
 * requisition and the tracked RFQ, and the comparison's estimates use them.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { requisitionSchema } from '../../src/queues/create-rfq.ts';
import { buildComparison } from '../../src/comparison/index.ts';
import type { Requisition } from '../../src/core/requisition.ts';
import { trackRfq } from '../../src/tracking/rfq-tracker.ts';
import { trackedRfq } from '../../src/tracking/status.ts';
import { redisKeys } from '../../src/redis/redis-keys.ts';
import { freshPrefix, useRedis } from '../helpers/redis.ts';
import { GENERATED_AT, ingestSample, makeRfq, quote } from './fixtures.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const srv = useRedis();
let dir: string;
beforeAll(async () => {
  dir = tempDir('rfq-erp-price-');
});

describe("the ERP's own unit price", () => {
  const rfq = makeRfq([
    { ext: 'SAP-10012345-10', product: 'Hex bolt M12x60', qty: 500, est: '62' },
    { ext: 'SAP-10012345-20', product: 'Hex nut M12', qty: 500, est: '21' },
  ]);
  const quotations = [quote('1', 'Exact Price KG', { L1: '0.1235', L2: '0.042' }, { status: 'qualified' })];

  it('compares against the export unit price per price unit, not the whole-number estimate', () => {
    const rounded = buildComparison({ rfq, state: 'closed', generatedAt: GENERATED_AT, quotations });
    expect(rounded.lines[0]!.estimatedUnit!.toFixed()).toBe('0.124');
    expect(rounded.lines[0]!.savingsPct!.toFixed(4)).toBe('0.0040'); // a "saving" from rounding alone

    const model = buildComparison({
      rfq,
      state: 'closed',
      generatedAt: GENERATED_AT,
      quotations,
      erpPrices: { 'SAP-10012345-10': ['12.35', '100'], 'SAP-10012345-20': ['4.20', '100'] },
    });
    expect(
      model.lines.map((l) => [l.estimatedUnit!.toFixed(), l.estimatedTotal!.toFixed(), l.savings!.toFixed()]),
    ).toEqual([
      ['0.1235', '61.75', '0'],
      ['0.042', '21', '0'],
    ]);
    expect(model.award.estimatedTotal!.toFixed()).toBe('82.75');
    expect(model.notes.map((n) => n.text).join('\n')).toContain(
      "2 lines are estimated from the ERP export's own unit price per price unit",
    );
  });

  it('ingestion keeps the unit price and price unit; create-rfq accepts them; the tracked RFQ keeps them', async () => {
    const req = (await ingestSample(dir, 'ME5A_export_EN.csv')).find((r) => r.key === '10012345')!;
    expect(req.lines.map((l) => [l.external_id, l.qty, l.estimated_price, l.unit_price, l.price_unit])).toEqual([
      ['SAP-10012345-10', 500, 62, '12.35', '100'],
      ['SAP-10012345-20', 500, 21, '4.2', '100'],
      ['SAP-10012345-30', 1000, 9, '0.9', '100'],
    ]);
    const payload = requisitionSchema.parse(JSON.parse(JSON.stringify(req)));
    expect(payload.lines[0]).toMatchObject({ unit_price: '12.35', price_unit: '100' });

    const { Redis } = await import('ioredis');
    const redis = new Redis(srv.url);
    try {
      const ctx = { redis, keys: redisKeys(freshPrefix(), 'test') };
      await trackRfq(ctx, { rfqId: 77, requisition: payload as Requisition });
      const rec = await trackedRfq(ctx, 77);
      expect(rec?.requisition?.erpPrices).toEqual({
        'SAP-10012345-10': ['12.35', '100'],
        'SAP-10012345-20': ['4.2', '100'],
        'SAP-10012345-30': ['0.9', '100'],
      });
    } finally {
      redis.disconnect();
    }
  });
});
