/**
 * The price history in Redis (src/awarding/price-history.ts): what a final award records and what a later comparison
 * reads back, the product key, a later version of the same RFQ replacing its entries, retention. Real redis-server.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildComparison } from '../../src/comparison/index.ts';
import { productKey } from '../../src/comparison/product-key.ts';
import { redisKeys } from '../../src/redis/redis-keys.ts';
import type { Requisition } from '../../src/core/requisition.ts';
import { lastAwards, priceHistories, recordFinalAward } from '../../src/awarding/price-history.ts';
import { trackRfq } from '../../src/tracking/rfq-tracker.ts';
import { trackedRfq } from '../../src/tracking/status.ts';
import { requisitionSchema } from '../../src/queues/create-rfq.ts';
import { GENERATED_AT, ingestSample, makeRfq, quote } from '../comparison/fixtures.ts';
import { freshPrefix, useRedis } from '../helpers/redis.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const server = useRedis();
let redis: Redis;
beforeAll(() => {
  redis = new Redis(server.url);
});
afterAll(async () => {
  await redis.quit();
});

const DAY = 24 * 3600_000;
const ctx = (days = 30) => ({ redis, keys: redisKeys(freshPrefix(), 'acme'), config: { PRICE_HISTORY_DAYS: days } });

/** A final award (every quotation qualified) of an RFQ with the given lines. */
function finalModel(rfqId: number, lines: Array<[product: string, uom: string]>, prices: string[], supplier = 'Low') {
  const rfq = makeRfq(
    lines.map(([product, uom], i) => ({ ext: `E${rfqId}-${i}`, product, uom, qty: 2, est: '100' })),
    { _id: rfqId, rfq_no: rfqId + 1000 },
  );
  const detail = Object.fromEntries(prices.map((p, i) => [`L${i + 1}`, p]));
  return buildComparison({
    rfq,
    state: 'closed',
    generatedAt: GENERATED_AT,
    currency: 'EUR',
    quotations: [quote('1', supplier, detail, { status: 'qualified' })],
  });
}

describe('price history', () => {
  it('the product key: the material number when given, else name and unit, normalised', () => {
    expect(productKey({ productCode: ' MAT-4711 ', product: 'x', uom: 'PC' })).toBe('code:mat-4711');
    expect(productKey({ product: 'Seal  kit NBR', uom: 'pc' })).toBe(
      productKey({ product: 'seal kit nbr ', uom: 'PC' }),
    );
    expect(productKey({ product: 'Seal kit', uom: 'PC' })).not.toBe(productKey({ product: 'Seal kit', uom: 'M' }));
    expect(productKey({ productCode: '', product: 'Seal kit', uom: 'PC' })).toBe('name:seal kit|pc');
  });

  it("records a final award per product; a later RFQ reads the newest other RFQ's award, never its own", async () => {
    const c = ctx();
    const now = Date.UTC(2026, 5, 16);
    await recordFinalAward(c, finalModel(1, [['Pump', 'PC']], ['100.50'], 'Early'), 1, now - 20 * DAY);
    await recordFinalAward(c, finalModel(2, [['pump', 'pc']], ['99.00'], 'Later'), 2, now - 10 * DAY);
    const third = finalModel(
      3,
      [
        ['PUMP', 'PC'],
        ['Valve', 'PC'],
      ],
      ['98', '5'],
    );
    expect(await lastAwards(c, third, 3, now)).toEqual({
      L1: { unitPrice: '99', currency: 'EUR', at: now - 10 * DAY, supplier: 'Later', rfqId: 2, rfqNo: 1002 },
    });
    // once recorded, the RFQ's own award is not its "last price": RFQ 2's stays the last for RFQ 3
    await recordFinalAward(c, third, 3, now);
    expect((await lastAwards(c, third, 3, now)).L1?.rfqId).toBe(2);
    // a later version of RFQ 2 (another supplier won) replaces its entry
    await recordFinalAward(c, finalModel(2, [['Pump', 'PC']], ['97.25'], 'Winner'), 2, now - 5 * DAY);
    expect((await lastAwards(c, third, 3, now)).L1).toMatchObject({ unitPrice: '97.25', supplier: 'Winner' });
    // the Prices sheet's histories: per product, newest first, at most three
    const histories = await priceHistories(c, now);
    expect(histories.map((h) => h.map((e) => [e.name, e.unitPrice]))).toEqual([
      [
        ['PUMP', '98'],
        ['Pump', '97.25'],
        ['Pump', '100.5'],
      ],
      [['Valve', '5']],
    ]);
  });

  it('keeps awards PRICE_HISTORY_DAYS days: an older one is "no earlier award" and is dropped on the next write', async () => {
    const c = ctx(30);
    const now = Date.UTC(2026, 5, 16);
    await recordFinalAward(c, finalModel(1, [['Pump', 'PC']], ['100']), 1, now - 31 * DAY);
    const later = finalModel(2, [['Pump', 'PC']], ['90']);
    expect(await lastAwards(c, later, 2, now)).toEqual({});
    await recordFinalAward(c, later, 2, now);
    const key = c.keys.key('prices', '*');
    const fields = await Promise.all((await redis.keys(key)).map((k) => redis.type(k).then((t) => [k, t])));
    const hashes = fields.filter(([, t]) => t === 'hash').map(([k]) => k!);
    expect(hashes).toHaveLength(1);
    expect(await redis.hkeys(hashes[0]!)).toEqual(['2:L1']);
    // and the whole product expires when not awarded again within the retention
    expect(await redis.pttl(hashes[0]!)).toBeGreaterThan(29 * DAY);
    expect(await redis.pttl(hashes[0]!)).toBeLessThanOrEqual(30 * DAY);
  });

  it('records nothing for a draft award', async () => {
    const c = ctx();
    const rfq = makeRfq([{ ext: 'A', product: 'Pump', qty: 1, est: '10' }]);
    const draft = buildComparison({
      rfq,
      state: 'closed',
      generatedAt: GENERATED_AT,
      quotations: [quote('1', 'X', { L1: '5' })],
    });
    expect(draft.award.final).toBe(false);
    expect(await recordFinalAward(c, draft, 5021, Date.now())).toBe(0);
    expect(await priceHistories(c, Date.now())).toEqual([]);
  });
});

describe('the material number through ingest, create-rfq and tracking', () => {
  it("the shipped SAP profile maps product_code from Material; create-rfq's payload keeps it; the tracked RFQ too", async () => {
    const dir = tempDir('rfq-product-code-');
    const req = (await ingestSample(dir, 'ME5A_export_EN.csv')).find((r) => r.key === '10012345')!;
    // a text item without a material number has none: its history goes by name and unit
    expect(req.lines.map((l) => l.product_code)).toEqual(['100-400', '100-410', undefined]);
    const codes = { 'SAP-10012345-10': '100-400', 'SAP-10012345-20': '100-410' };
    const payload = requisitionSchema.parse(JSON.parse(JSON.stringify(req))) as Requisition;
    expect(payload.lines.map((l) => l.product_code)).toEqual(req.lines.map((l) => l.product_code));
    const c = { redis, keys: redisKeys(freshPrefix(), 'acme') };
    await trackRfq(c, { rfqId: 78, requisition: payload });
    expect((await trackedRfq(c, 78))?.requisition?.productCodes).toEqual(codes);
  });
});
