/**
 * Quantity and price basis for `check --suggest`: the quantity (positive numbers), and whether the price is a line
 * total or a unit price (perhaps per a price unit), told apart by total = qty x price / per on the rows.
 */
import { Decimal } from 'decimal.js';
import { quoted as q, ref, scoreOf, type Column, type ColumnPool } from './columns.ts';
import type { SuggestNotes } from './evidence.ts';
import { isCounter, startsLow, type Runs } from './runs.ts';

/** The quantity column and the price fields of the profile (each a template, or unset). */
export interface Amounts {
  qty: Column;
  estimated?: string;
  unitPrice?: string;
  perUnit?: string;
}

/** The columns that may hold amounts, each named for one role (read before any of them is taken). */
interface AmountCandidates {
  priceUnit: Column | undefined;
  totals: Column[];
  units: Column[];
  qtyCands: Column[];
  positive: (c: Column) => boolean;
  counter: (c: Column) => boolean;
}

export function pickAmounts(pool: ColumnPool, notes: SuggestNotes, reqRuns: Runs): Amounts {
  const cands = amountCandidates(pool, reqRuns);
  const qty = pickQuantity(pool, notes, cands);
  pool.use(qty);
  return { qty, ...pickPrice(pool, notes, qty, cands) };
}

function amountCandidates(pool: ColumnPool, reqRuns: Runs): AmountCandidates {
  const n = pool.n;
  // The quantity is never a line counter: a counter restarts with each requisition (1, 2, 3 / 1, 2), a quantity not.
  const counter = (c: Column): boolean =>
    !!c.numbers &&
    c.nonEmpty === n &&
    isCounter(c.numbers as Decimal[], reqRuns.runOf) &&
    startsLow(c.numbers as Decimal[], reqRuns.runOf);
  const positive = (c: Column): boolean =>
    !!c.numbers && c.nonEmpty >= Math.max(1, n * 0.9) && c.numbers.every((x) => x === undefined || x.gt(0));
  const nonNegative = (c: Column): boolean =>
    !!c.numbers && c.nonEmpty > 0 && c.numbers.every((x) => x === undefined || x.gte(0));
  const priceUnitCands = pool.best(
    'priceUnit',
    (c) => positive(c) && scoreOf(c, 'priceUnit') >= scoreOf(c, 'unitPrice'),
  );
  const priceUnit = priceUnitCands[0];
  const totals = pool.best(
    'total',
    (c) => nonNegative(c) && c !== priceUnit && scoreOf(c, 'total') > scoreOf(c, 'unitPrice'),
  );
  const units = pool.best(
    'unitPrice',
    (c) => nonNegative(c) && c !== priceUnit && !totals.includes(c) && scoreOf(c, 'unitPrice') >= scoreOf(c, 'total'),
  );
  const qtyCands = pool
    .best('qty', (c) => positive(c) && c !== priceUnit && !totals.includes(c) && !units.includes(c))
    .sort((a, b) => Number(counter(a)) - Number(counter(b)));
  return { priceUnit, totals, units, qtyCands, positive, counter };
}

/** The quantity: named like one; of several, the one that makes qty x unit = total; else by its values. */
function pickQuantity(pool: ColumnPool, notes: SuggestNotes, cands: AmountCandidates): Column {
  const { columns, n } = pool;
  const { priceUnit, totals, units, qtyCands, positive } = cands;
  let qty = qtyCands[0];
  const total = totals[0];
  const unit = units[0];
  let relation: { qty: Column; fit: number; of: number } | undefined;
  if (unit && total) {
    const rel = qtyCands
      .map((qc) => ({ qty: qc, ...relationFit(qc, unit, total!, priceUnit) }))
      .filter((r) => r.of > 0 && r.fit >= r.of * 0.9);
    if (rel.length === 1 || (rel.length > 1 && rel.slice(1).every((r) => sameValues(r.qty, rel[0]!.qty))))
      relation = rel[0];
  }
  if (qtyCands.length > 1) {
    if (relation) {
      qty = relation.qty;
      notes.say(
        'fields.qty',
        ref(qty),
        'high',
        `of ${qtyCands.map(q).join(', ')}, only ${q(qty)} x ${q(unit!)} = ${q(total!)} (${relation.fit} of ${relation.of} rows)`,
      );
    } else {
      notes.say(
        'fields.qty',
        ref(qty!),
        'low',
        `${qtyCands.length} columns could be the quantity: ${qtyCands.map(q).join(', ')}`,
      );
      notes.review(
        'fields.qty',
        `two candidate quantity columns: ${qtyCands.map(q).join(' and ')} (positive numbers, named like a quantity); ${q(qty!)} taken, and no price total on the rows tells them apart`,
      );
    }
  } else if (qty) {
    notes.say(
      'fields.qty',
      ref(qty),
      'high',
      `named like a quantity; positive numbers on ${qty.nonEmpty} of ${n} rows`,
    );
  } else {
    const byValues = columns.filter(
      (c) =>
        pool.free(c) &&
        positive(c) &&
        !totals.includes(c) &&
        !units.includes(c) &&
        c !== priceUnit &&
        c.numbers!.every((x) => x === undefined || x.isInteger()),
    );
    qty = byValues.find((c) => !cands.counter(c)) ?? byValues[0];
    if (qty) {
      notes.say(
        'fields.qty',
        ref(qty),
        'low',
        'no column is named like a quantity; the first column of positive whole numbers',
      );
      notes.review(
        'fields.qty',
        `no column is named like a quantity: ${q(qty)} was taken from its values (positive whole numbers)`,
      );
    } else {
      // never a column of text (a quantity written with its unit, "5 pcs"), nor one of the prices
      qty = pool.need(
        columns.find(
          (c) =>
            pool.free(c) &&
            c.numbers !== undefined &&
            c.nonEmpty > 0 &&
            !totals.includes(c) &&
            !units.includes(c) &&
            c !== priceUnit,
        ),
        'quantity',
        'column of numbers',
      );
      notes.review('fields.qty', 'no column holds positive numbers named like a quantity: name the quantity column');
    }
  }
  return qty!;
}

/** The price basis: a line total (checked against qty x unit price when both are there), else a unit price. */
function pickPrice(pool: ColumnPool, notes: SuggestNotes, qty: Column, cands: AmountCandidates): Omit<Amounts, 'qty'> {
  const { priceUnit } = cands;
  const total = cands.totals[0];
  const unit = cands.units[0];
  if (unit && total) {
    const fit = relationFit(qty, unit, total, priceUnit);
    const estimated = ref(total);
    if (fit.of > 0 && fit.fit >= fit.of * 0.9) {
      notes.say(
        'fields.estimated_price',
        estimated,
        'high',
        `a line total: ${q(total)} = ${q(qty)} x ${q(unit)}${priceUnit ? ` / ${q(priceUnit)}` : ''} on ${fit.fit} of ${fit.of} rows`,
      );
    } else {
      notes.say(
        'fields.estimated_price',
        estimated,
        'low',
        `${q(total)} = ${q(qty)} x ${q(unit)} holds on only ${fit.fit} of ${fit.of} rows`,
      );
      notes.review(
        'fields.estimated_price',
        `${q(total)} is not ${q(qty)} x ${q(unit)} on ${fit.of - fit.fit} of ${fit.of} rows: check which column is the line total (or use unit_price: ${ref(unit)})`,
      );
    }
    pool.use(total);
    pool.use(unit);
    return { estimated };
  }
  if (total) {
    const estimated = ref(total);
    pool.use(total);
    notes.say(
      'fields.estimated_price',
      estimated,
      'medium',
      `named like a line total; no unit price column to check it against`,
    );
    return { estimated };
  }
  if (unit) return pickUnitPrice(pool, notes, unit, priceUnit);
  notes.say(
    'fields.estimated_price',
    '(none)',
    'medium',
    'no column is named like a price or a line total: lines go without an estimated price',
  );
  return {};
}

/** A unit price without a line total, divided by the price unit when there is one. */
function pickUnitPrice(
  pool: ColumnPool,
  notes: SuggestNotes,
  unit: Column,
  priceUnit: Column | undefined,
): Omit<Amounts, 'qty'> {
  const unitPrice = ref(unit);
  pool.use(unit);
  notes.say(
    'fields.unit_price',
    unitPrice,
    'medium',
    `named like a unit price; no line total column: the total is qty x price${priceUnit ? ` / ${q(priceUnit)}` : ''}`,
  );
  if (!priceUnit) return { unitPrice };
  const perUnit = ref(priceUnit);
  pool.use(priceUnit);
  const divides = priceUnit.numbers!.some((x) => x && !x.eq(1));
  notes.say(
    'fields.price_unit',
    perUnit,
    'high',
    `named like a price unit; values ${[...new Set(priceUnit.numbers!.filter(Boolean).map((x) => x!.toString()))].join(', ')}${divides ? ' (the price is per that many units)' : ''}`,
  );
  return { unitPrice, perUnit };
}

/** Rows where qty x unit (/ per) equals the total within rounding to the cent. */
function relationFit(qty: Column, unit: Column, total: Column, per?: Column): { fit: number; of: number } {
  let fit = 0;
  let of = 0;
  for (let i = 0; i < qty.cells.length; i++) {
    const qv = qty.numbers?.[i];
    const u = unit.numbers?.[i];
    const t = total.numbers?.[i];
    if (!qv || !u || !t) continue;
    of++;
    const p = per?.numbers?.[i] ?? new Decimal(1);
    const computed = qv.times(u).dividedBy(p.gt(0) ? p : 1);
    if (
      computed
        .minus(t)
        .abs()
        .lte(new Decimal('0.01').plus(qv.times('0.005')))
    )
      fit++;
  }
  return { fit, of };
}

function sameValues(a: Column, b: Column): boolean {
  return a.texts.every((t, i) => t === b.texts[i]);
}
