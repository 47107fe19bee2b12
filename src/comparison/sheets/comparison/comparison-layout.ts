/**
 * Where things are on the Comparison sheet: the row numbers of its header block, its column numbers and the parts of
 * a supplier group. Shared by the files that write the sheet's parts (comparison-*.ts) and by the tests.
 */
import type { Style } from 'exceljs';

/** Row numbers of the Comparison sheet's header block. */
export const COMPARISON_ROWS = {
  title: 1,
  legend: 2,
  metaFirst: 3,
  supplierName: 8,
  supplierInfo: 9,
  supplierNotes: 10,
  total: 11,
  coverage: 12,
  rankByTotal: 13,
  deviation: 14,
  columnHeader: 15,
  firstLine: 16,
} as const;

/**
 * Column numbers of the Comparison sheet (1-based); supplier s occupies the `perSupplier` columns from
 * firstSupplier + perSupplier * s, in the order of SUPPLIER_PARTS.
 */
export const COMPARISON_COLS = {
  externalId: 1,
  product: 2,
  specification: 3,
  uom: 4,
  qty: 5,
  estUnit: 6,
  estTotal: 7,
  quotes: 8,
  lowest: 9,
  highest: 10,
  mean: 11,
  bestSupplier: 12,
  bestLineTotal: 13,
  savings: 14,
  savingsPct: 15,
  /** The last price paid for the line's product (src/awarding/price-history.ts): unit price, date, supplier. */
  lastPrice: 16,
  lastDate: 17,
  lastSupplier: 18,
  firstSupplier: 19,
  perSupplier: 5,
} as const;

/** Offsets of a supplier group's columns; vsLast: the unit price against the last price paid. */
export const SUPPLIER_PARTS = { unit: 0, lineTotal: 1, pctOfMean: 2, rank: 3, vsLast: 4 } as const;

/** The first column of supplier `si`'s group. */
export const supplierColumn = (si: number): number => COMPARISON_COLS.firstSupplier + si * COMPARISON_COLS.perSupplier;

/** The style aligned to the top of a row that wrapped text made taller (a new object: use for a few cells only). */
export const top = (style: Partial<Style>): Partial<Style> => ({
  ...style,
  alignment: { ...style.alignment, vertical: 'top' },
});
