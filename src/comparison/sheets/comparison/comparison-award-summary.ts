/**
 * The award summary of the Comparison sheet, below the lines: whether the award is final, the split award total,
 * the best single supplier, what splitting saves, the estimate, the winner or the award basis.
 */
import type { Row, Style, Worksheet } from 'exceljs';
import { Decimal } from 'decimal.js';
import { COMPARISON_COLS, top } from './comparison-layout.ts';
import { draftText } from '../../model.ts';
import { responseText } from '../../responses.ts';
import { num, pctText, put, SHEETS, t } from '../sheet-common.ts';
import type { ComparisonModel } from '../../types.ts';
import { stylesFor } from '../styles.ts';

/** Rows of the award summary below the lines, from its first row. */
export const AWARD_SUMMARY_ROWS = {
  title: 0,
  status: 1,
  split: 2,
  bestSingle: 3,
  splitSaving: 4,
  estimate: 5,
  winnerOrBasis: 6,
  responses: 7,
  lastPrices: 8,
} as const;

/**
 * The bottom line, below the lines (on the first page of a short RFQ): whether the award is final, what a split
 * award costs and saves. Not beside the supplier header rows: those print beside every page's supplier groups.
 */
/**
 * `detailWidth`: characters of the columns the details are merged over (D to `lastCol`). Returns the row after the
 * summary.
 */
export function writeAwardSummary(
  ws: Worksheet,
  model: ComparisonModel,
  first: number,
  detailWidth: number,
  lastCol: number = COMPARISON_COLS.quotes - 1,
): number {
  const { S } = stylesFor(model.currency);
  const { award, suppliers, lines } = model;
  const A = AWARD_SUMMARY_ROWS;
  const n = lines.length;
  // Details are merged over the first page's remaining columns and wrapped: overflowing, they would print on the
  // pages of supplier groups.
  const detailCell = (x: Row, text: string, style: Partial<Style>): void => {
    put(x, 4, t(text), { ...style, alignment: { wrapText: true, vertical: 'top' } });
    ws.mergeCells(x.number, 4, x.number, lastCol);
    // ~0.8 characters of 11 pt text per width unit (bold and proportional text run wider than digits)
    const lines = Math.max(1, Math.ceil(text.length / Math.max(10, Math.floor(detailWidth * 0.8))));
    x.height = Math.min(409, lines * 15 + 2);
  };
  const row = (r: number, label: string, value: Decimal | undefined, detail: string): void => {
    const x = ws.getRow(first + r);
    put(x, 1, label, top(S.label));
    put(x, 3, num(value), top(S.moneyBold));
    detailCell(x, detail, S.text);
  };
  put(ws.getRow(first + A.title), 1, `Award summary (details on sheet "${SHEETS.award}")`, S.summaryTitle);
  const status = ws.getRow(first + A.status);
  put(status, 1, 'Award status', top(S.label));
  if (award.final) {
    put(status, 3, 'FINAL', top(S.winnerMark));
    detailCell(
      status,
      award.finalBecause === 'winning-quotation'
        ? 'the winning quotation of the completed RFQ'
        : 'every quotation has a qualification decision',
      S.text,
    );
  } else {
    put(status, 3, award.withheld !== undefined ? 'WITHHELD' : 'DRAFT', top(S.draft));
    detailCell(status, draftText(award, model.input.state), S.draft);
  }
  row(
    A.split,
    'Split award total',
    award.splitTotal,
    `${award.splitLinesCovered} of ${n} lines, each to its lowest qualified price`,
  );
  const single = award.bestSingle ? suppliers[award.bestSingle.supplier]! : undefined;
  row(
    A.bestSingle,
    'Best single supplier',
    award.bestSingle?.total,
    single ? `${single.name || `key ${single.key}`} (all lines)` : 'none: no qualified supplier quoted every line',
  );
  row(
    A.splitSaving,
    'Splitting saves',
    award.splitSaving,
    award.splitSavingPct !== undefined ? `${pctText(award.splitSavingPct)} of the best single supplier's total` : '',
  );
  const vsEstimate =
    award.estimatedTotal !== undefined && award.splitLinesCovered === n
      ? award.estimatedTotal.sub(award.splitTotal)
      : undefined;
  row(
    A.estimate,
    'Estimated total',
    award.estimatedTotal,
    vsEstimate !== undefined && award.estimatedTotal && !award.estimatedTotal.isZero()
      ? `split award is ${vsEstimate.isNegative() ? 'above' : 'below'} it by ${pctText(vsEstimate.abs().div(award.estimatedTotal))}`
      : '',
  );
  if (award.winner) {
    const w = suppliers[award.winner.supplier]!;
    row(
      A.winnerOrBasis,
      'Winner (completed)',
      award.winner.total,
      `${w.name || `key ${w.key}`}: ${award.winner.linesQuoted} of ${n} lines`,
    );
  } else {
    const x = ws.getRow(first + A.winnerOrBasis);
    put(x, 1, 'Award basis', S.label);
    put(x, 3, award.basisLabel, S.text);
  }
  writeResponses(ws, model, first + A.responses, detailCell);
  const vsLast = awardVsLastPrices(model);
  if (vsLast) {
    const x = ws.getRow(first + A.lastPrices);
    put(x, 1, 'Against last prices', top(S.label));
    put(x, 3, num(vsLast.atLast), top(S.moneyBold));
    detailCell(x, vsLast.text, S.text);
  }
  for (let r = A.title; r <= A.lastPrices; r++) ws.getRow(first + r).commit();
  return first + A.lastPrices + 1;
}

/** The response rate row: vendors who quoted of those following the category, and who to chase. */
function writeResponses(
  ws: Worksheet,
  model: ComparisonModel,
  at: number,
  detailCell: (x: Row, text: string, style: Partial<Style>) => void,
): void {
  const { S } = stylesFor(model.currency);
  const responses = model.responses;
  if (responses) {
    const x = ws.getRow(at);
    put(x, 1, 'Vendors who quoted', top(S.label));
    put(x, 3, responses.unavailable === undefined ? `${responses.quoted} of ${responses.following}` : '—', top(S.text));
    const chase =
      responses.notQuoted.length > 0
        ? ` ${responses.notQuoted.length} did not quote: sheet "${SHEETS.suppliers}" lists them with contact and e-mail.`
        : '';
    detailCell(x, responseText(responses) + chase, S.text);
  }
}

/**
 * The awarded lines whose product has an earlier award in the same currency: what they cost at the last prices
 * paid, against what they are awarded at now. Undefined when the history was not looked up.
 */
/** An amount as the sheet's cells show it (thousands separators, two decimals), exact. */
const money = (d: Decimal): string => d.toFixed(2).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

export function awardVsLastPrices(model: ComparisonModel): { atLast?: Decimal; text: string } | undefined {
  const history = model.input.lastAwards;
  if (!history) return undefined;
  let atLast = new Decimal(0);
  let awarded = new Decimal(0);
  let compared = 0;
  let awardedLines = 0;
  for (const line of model.lines) {
    if (!line.award) continue;
    awardedLines++;
    const last = history[line.lineId];
    if (!last || (last.currency ?? '') !== (model.currency ?? '') || line.qty === undefined) continue;
    if (!line.award.lineTotal) continue;
    compared++;
    atLast = atLast.add(new Decimal(last.unitPrice).mul(line.qty));
    awarded = awarded.add(line.award.lineTotal);
  }
  if (compared === 0)
    return {
      text:
        awardedLines === 0
          ? 'no line awarded yet'
          : `no earlier award in ${model.currency ?? 'this currency'} for the ${awardedLines} awarded line(s)`,
    };
  const diff = awarded.sub(atLast);
  const pct = atLast.isZero() ? '' : ` (${diff.isNegative() ? '' : '+'}${pctText(diff.div(atLast))})`;
  return {
    atLast,
    text: `${compared} of ${awardedLines} awarded lines bought before: awarded now at ${money(awarded)}, at the last prices ${money(atLast)}; ${diff.isNegative() ? 'cheaper' : diff.isZero() ? 'the same' : 'dearer'} by ${money(diff.abs())}${pct}`,
  };
}
