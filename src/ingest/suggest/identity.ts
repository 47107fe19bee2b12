/**
 * Who a row belongs to and which line it is, for `check --suggest`: the requisition column (its values come in
 * consecutive runs) and the external_id template (requisition plus a line counter that restarts per requisition, or a
 * column unique per row). The ids must be stable across re-exports, which no sample can prove: always a review point.
 */
import type { Decimal } from 'decimal.js';
import type { Concept } from './header-vocabulary.ts';
import { quoted as q, ref, scoreOf, type Column, type ColumnPool } from './columns.ts';
import type { SuggestNotes } from './evidence.ts';
import { isCounter, startsLow, valueRuns, type Runs } from './runs.ts';
import { reviewRivals } from './rivals.ts';

/** Concepts whose exact names say a column is not the requisition number. */
const OTHER_CONCEPTS: readonly Concept[] = [
  'uom',
  'currency',
  'category',
  'location',
  'product',
  'requester',
  'itemNumber',
];

/** The requisition column: values in consecutive runs (blank below a value = the same requisition). */
export function pickRequisition(pool: ColumnPool, notes: SuggestNotes): { reqCol: Column; reqRuns: Runs } {
  const { columns, n } = pool;
  const runsOf = new Map<Column, Runs>();
  for (const c of columns) runsOf.set(c, valueRuns(c.texts));
  const reqOk = (c: Column): boolean => {
    const r = runsOf.get(c)!;
    return r.contiguous && c.texts[0] !== '' && !c.dates && !(c.numbers && c.numbers.some((x) => x && !x.isInteger()));
  };
  const named = pool.best('requisition', reqOk);
  let reqCol = named[0];
  if (reqCol) reviewRivals(notes, 'requisition', reqCol, named, 'requisition');
  if (reqCol) {
    const r = runsOf.get(reqCol)!;
    notes.say(
      'fields.requisition',
      ref(reqCol),
      'high',
      `named like a requisition number; its values come in ${r.runs} consecutive run(s)${r.blanks > 0 ? `, blank on ${r.blanks} row(s) below a value` : ''}`,
    );
  } else {
    // No telling name: the finest partition into consecutive runs that is not one run per row.
    const cands = columns.filter(
      (c) => reqOk(c) && c.nonEmpty === n && runsOf.get(c)!.runs < n && runsOf.get(c)!.runs > 1 && !c.numbers,
    );
    // A column named for what else it is (a unit "Einheit", a site, a category) numbers no requisition: last.
    const other = (c: Column): number => (OTHER_CONCEPTS.some((k) => scoreOf(c, k) >= 3) ? 1 : 0);
    cands.sort((a, b) => other(a) - other(b) || runsOf.get(b)!.runs - runsOf.get(a)!.runs || a.i - b.i);
    reqCol = pool.need(cands[0] ?? columns.find((c) => c.nonEmpty > 0), 'requisition number');
    notes.say(
      'fields.requisition',
      ref(reqCol),
      'low',
      cands.length > 0
        ? 'no column is named like a requisition number; this one has the most consecutive runs of equal values'
        : 'nothing fits: first non-empty column',
    );
    notes.review(
      'fields.requisition',
      `no column is named like a requisition number; ${q(reqCol)} was chosen because its values come in consecutive runs: check that it numbers the requisitions`,
    );
  }
  pool.use(reqCol);
  return { reqCol, reqRuns: runsOf.get(reqCol)! };
}

/** The external_id template: a line counter restarting per requisition, else a per-row unique id. */
export function pickExternalId(pool: ColumnPool, notes: SuggestNotes, reqCol: Column, reqRuns: Runs): string {
  const counterOk = (c: Column): boolean =>
    !!c.numbers && c.nonEmpty === pool.n && isCounter(c.numbers as Decimal[], reqRuns.runOf);
  const lineCol = pool.best('line', counterOk)[0];
  let externalId: string;
  if (lineCol) {
    pool.use(lineCol);
    notes.say(
      'fields.external_id',
      `${ref(reqCol)}-${ref(lineCol)}`,
      'high',
      `${q(lineCol)} is a line counter: whole numbers rising within each requisition, restarting at the next`,
    );
    externalId = `${ref(reqCol)}-${ref(lineCol)}`;
  } else {
    externalId = externalIdWithoutLineName(pool, notes, reqCol, reqRuns, counterOk);
  }
  notes.review(
    'fields.external_id',
    'the ids must stay the same on every re-export and differ from those of every other profile feeding the same account: add a prefix naming the ERP (e.g. "SAP-") if another export may use the same numbers',
  );
  return externalId;
}

/** No column is named like a line counter: a per-row id by name, else a counter or a unique column by its values. */
function externalIdWithoutLineName(
  pool: ColumnPool,
  notes: SuggestNotes,
  reqCol: Column,
  reqRuns: Runs,
  counterOk: (c: Column) => boolean,
): string {
  const { columns, n } = pool;
  const uniqueOk = (c: Column): boolean =>
    c.nonEmpty === n &&
    c.distinct === n &&
    !c.dates &&
    /\d/.test(c.texts[0] ?? '') &&
    c.texts.every((t) => !/\s/.test(t));
  let idCol = pool.best('lineId', uniqueOk)[0];
  const byValues = !idCol;
  if (!idCol) {
    // A column named like a quantity is never the line counter, whatever its values (1, 2 / 1 / 1, 2, 3...).
    const counters = columns.filter(
      (c) =>
        pool.free(c) &&
        counterOk(c) &&
        scoreOf(c, 'qty') < 2 &&
        c.numbers!.every((x) => x!.lte(1000)) &&
        startsLow(c.numbers as Decimal[], reqRuns.runOf),
    );
    const lineCol = counters[0];
    if (lineCol) {
      pool.use(lineCol);
      const externalId = `${ref(reqCol)}-${ref(lineCol)}`;
      notes.say(
        'fields.external_id',
        externalId,
        'medium',
        `no column is named like a line number; ${q(lineCol)} counts the lines of each requisition`,
      );
      notes.review(
        'fields.external_id',
        `${q(lineCol)} was taken as the line number from its values only (it counts 1, 2, ... per requisition): check that the ERP keeps it stable across re-exports`,
      );
      return externalId;
    }
    idCol = columns.find((c) => pool.free(c) && uniqueOk(c));
  }
  if (idCol) {
    pool.use(idCol);
    // A per-row number not named as an id (a running "No." in a hand-made sheet) restarts in the next file:
    // the requisition keeps the ids apart.
    const externalId = byValues ? `${ref(reqCol)}-${ref(idCol)}` : ref(idCol);
    notes.say(
      'fields.external_id',
      externalId,
      byValues ? 'low' : 'high',
      `${q(idCol)} is unique on every row (${n} distinct values)${byValues ? ' though not named like an id' : ''}`,
    );
    if (byValues)
      notes.review(
        'fields.external_id',
        `${q(idCol)} is unique per row but not named like a line id: the ids are ${externalId}; check that a row keeps its number across re-exports (inserting a row renumbers the rows below it)`,
      );
    return externalId;
  }
  const externalId = ref(reqCol);
  notes.review(
    'fields.external_id',
    'no line number and no per-row id found: write a template that is unique per line and stable across re-exports',
  );
  notes.say('fields.external_id', externalId, 'low', 'no line counter and no unique column');
  return externalId;
}
