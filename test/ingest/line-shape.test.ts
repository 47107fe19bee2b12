/**
 * The hand check of a line's final shape (plainlyValid, for speed) never passes a line zod's lineSchema refuses, and
 * passes the ordinary ones: checked on values at and around every bound of the schema.
 */
import { describe, expect, it } from 'vitest';
import { lineSchema, plainlyValid } from '../../src/ingest/line-shape.ts';
import type { RequisitionLine } from '../../src/core/requisition.ts';
import { REQUEST_TEXT_LIMITS as L } from '../../src/sourcing/limits.ts';

const base: RequisitionLine = { external_id: 'PR-1-10', product_name: 'Bolt', qty: 10, row: 2, uom: 'pc' };
const text = (n: number) => 'x'.repeat(n);
const numbers = [0, -0, 1, -1, 1.5, Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER + 1, NaN, Infinity, -Infinity];
const variants: Array<Record<string, unknown>> = [
  ...[0, 1, L.external_id, L.external_id + 1].map((n) => ({ external_id: text(n) })),
  ...[0, 1, L.product_name, L.product_name + 1].map((n) => ({ product_name: text(n) })),
  ...[0, L.specification, L.specification + 1].map((n) => ({ specification: text(n) })),
  ...[0, L.uom, L.uom + 1].map((n) => ({ uom: text(n) })),
  { uom: undefined },
  { specification: undefined, estimated_price: undefined },
  ...numbers.flatMap((n) => [{ qty: n }, { estimated_price: n }, { row: n }]),
  { qty: '10' },
  { estimated_price: '5' },
  { external_id: 7 },
  { product_name: null },
];

describe('plainlyValid', () => {
  it('passes only lines lineSchema accepts, and the ordinary ones', () => {
    expect(plainlyValid(base)).toBe(true);
    expect(plainlyValid({ ...base, specification: 'M8', estimated_price: 0, product_code: 'MAT-1' })).toBe(true);
    let refusedByBoth = 0;
    for (const v of variants) {
      const line = { ...base, ...v } as RequisitionLine;
      const zodOk = lineSchema.safeParse(line).success;
      if (plainlyValid(line)) expect(zodOk, JSON.stringify(v)).toBe(true);
      else if (!zodOk) refusedByBoth++;
    }
    expect(refusedByBoth).toBeGreaterThan(20); // the bounds are really exercised
  });
});
