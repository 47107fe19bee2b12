/**
 * The price history: every final award rfq-sync writes, kept per product (src/comparison/product-key.ts) in Redis,
 * one hash per product (`prices:<hash of the key>`), a field per RFQ line (`<rfqId>:<line_id>`) holding the award
 * as JSON. A later final version of the same RFQ replaces its lines' entries. Entries older than
 * PRICE_HISTORY_DAYS are dropped when the product is written again, and a product not awarded again within that
 * time expires whole.
 *
 * Read before each comparison: the last award of each line's product from another RFQ, for the last-price columns;
 * and by the overview, for its Prices sheet.
 */
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { productKey, type ComparisonModel, type LastAward, type LineComparison } from '../comparison/index.ts';
import type { RedisKeys } from '../redis/index.ts';

export interface PriceEntry extends LastAward {
  /** The product key, readable (code:... or name:...|uom). */
  product: string;
  /** The product's name and unit as last awarded, for the Prices sheet. */
  name: string;
  uom: string;
  lineId: string;
}

type Ctx = { redis: Redis; keys: RedisKeys; config: { PRICE_HISTORY_DAYS: number } };

const DAY_MS = 24 * 3600_000;
/** Lines looked up per round trip (a 5,000-line RFQ: 5 round trips). */
const BATCH = 1000;

const keyOf = (keys: RedisKeys, product: string): string =>
  keys.key('prices', createHash('sha256').update(product).digest('hex').slice(0, 32));
/** The set of product keys with a history (for the overview's Prices sheet). */
const indexOf = (keys: RedisKeys): string => keys.key('prices', 'products');

/** The product key of a comparison line: its ERP product code when the requisition gave one, else name + unit. */
export function lineProductKey(model: Pick<ComparisonModel, 'input'>, line: LineComparison): string {
  return productKey({ productCode: model.input.productCodes?.[line.externalId], product: line.product, uom: line.uom });
}

/**
 * Records every awarded line of a final award (nothing for a draft or a withheld one). `at`: when it became final.
 * Idempotent: the same RFQ and line write the same field again.
 */
export async function recordFinalAward(ctx: Ctx, model: ComparisonModel, rfqId: number, at: number): Promise<number> {
  if (!model.award.final || model.award.withheld !== undefined) return 0;
  const byProduct = new Map<string, PriceEntry[]>();
  for (const line of model.lines) {
    const a = line.award;
    if (!a?.unitPrice) continue;
    const product = lineProductKey(model, line);
    const s = model.suppliers[a.supplier]!;
    const entry: PriceEntry = {
      unitPrice: a.unitPrice.toFixed(),
      ...(model.currency ? { currency: model.currency } : {}),
      at,
      supplier: s.name || `key ${s.key}`,
      rfqId,
      ...(model.input.rfq.rfq_no !== undefined ? { rfqNo: model.input.rfq.rfq_no } : {}),
      product,
      name: line.product,
      uom: line.uom,
      lineId: line.lineId,
    };
    byProduct.set(product, [...(byProduct.get(product) ?? []), entry]);
  }
  const keepMs = ctx.config.PRICE_HISTORY_DAYS * DAY_MS;
  const products = [...byProduct.keys()];
  for (let i = 0; i < products.length; i += BATCH) {
    const batch = products.slice(i, i + BATCH);
    const old = await Promise.all(batch.map((p) => ctx.redis.hgetall(keyOf(ctx.keys, p))));
    const tx = ctx.redis.multi();
    batch.forEach((p, j) => {
      const key = keyOf(ctx.keys, p);
      const expired = Object.entries(old[j]!).flatMap(([f, v]) => (parse(v) && parse(v)!.at < at - keepMs ? [f] : []));
      if (expired.length > 0) tx.hdel(key, ...expired);
      for (const e of byProduct.get(p)!) tx.hset(key, `${rfqId}:${e.lineId}`, JSON.stringify(e));
      tx.pexpire(key, keepMs);
      tx.sadd(indexOf(ctx.keys), p);
    });
    await tx.exec();
  }
  return products.length;
}

function parse(v: string): PriceEntry | undefined {
  try {
    const e = JSON.parse(v) as PriceEntry;
    return typeof e.unitPrice === 'string' && typeof e.at === 'number' ? e : undefined;
  } catch {
    return undefined;
  }
}

/** A product's awards within the retention, newest first. */
function entriesOf(fields: Record<string, string>, notBefore: number): PriceEntry[] {
  return Object.values(fields)
    .flatMap((v) => {
      const e = parse(v);
      return e && e.at >= notBefore ? [e] : [];
    })
    .sort((a, b) => b.at - a.at || b.rfqId - a.rfqId);
}

/**
 * The last award of each line's product from an RFQ other than `rfqId`, by line_id; lines without one are absent.
 * One pipelined round trip per BATCH lines.
 */
export async function lastAwards(
  ctx: Ctx,
  model: Pick<ComparisonModel, 'input'> & { lines: LineComparison[] },
  rfqId: number,
  now: number,
): Promise<Record<string, LastAward>> {
  const out: Record<string, LastAward> = {};
  const notBefore = now - ctx.config.PRICE_HISTORY_DAYS * DAY_MS;
  for (let i = 0; i < model.lines.length; i += BATCH) {
    const lines = model.lines.slice(i, i + BATCH);
    const pipe = ctx.redis.pipeline();
    for (const line of lines) pipe.hgetall(keyOf(ctx.keys, lineProductKey(model, line)));
    const results = (await pipe.exec()) ?? [];
    lines.forEach((line, j) => {
      const [err, fields] = results[j] ?? [];
      if (err || !fields) return;
      const last = entriesOf(fields as Record<string, string>, notBefore).find((e) => e.rfqId !== rfqId);
      if (last) out[line.lineId] = toLastAward(last);
    });
  }
  return out;
}

function toLastAward(e: PriceEntry): LastAward {
  return {
    unitPrice: e.unitPrice,
    ...(e.currency !== undefined ? { currency: e.currency } : {}),
    at: e.at,
    supplier: e.supplier,
    rfqId: e.rfqId,
    ...(e.rfqNo !== undefined ? { rfqNo: e.rfqNo } : {}),
  };
}

/** Every product with a history, its last `n` awards newest first (for the overview's Prices sheet). */
export async function priceHistories(ctx: Ctx, now: number, n = 3): Promise<PriceEntry[][]> {
  const products = await ctx.redis.smembers(indexOf(ctx.keys));
  const notBefore = now - ctx.config.PRICE_HISTORY_DAYS * DAY_MS;
  const out: PriceEntry[][] = [];
  const gone: string[] = [];
  for (let i = 0; i < products.length; i += BATCH) {
    const batch = products.slice(i, i + BATCH);
    const pipe = ctx.redis.pipeline();
    for (const p of batch) pipe.hgetall(keyOf(ctx.keys, p));
    const results = (await pipe.exec()) ?? [];
    batch.forEach((p, j) => {
      const entries = entriesOf((results[j]?.[1] ?? {}) as Record<string, string>, notBefore);
      if (entries.length === 0) gone.push(p);
      else out.push(entries.slice(0, n));
    });
  }
  // Products whose history expired leave the index.
  if (gone.length > 0) await ctx.redis.srem(indexOf(ctx.keys), ...gone);
  return out.sort((a, b) => a[0]!.name.localeCompare(b[0]!.name) || a[0]!.uom.localeCompare(b[0]!.uom));
}
