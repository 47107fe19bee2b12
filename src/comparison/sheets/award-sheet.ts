/** The Award sheet: the scenarios (split, best single supplier, winner, estimate), then one row per line. */
import type ExcelJS from 'exceljs';
import type { PageSetup, Row, Worksheet } from 'exceljs';
import { readableSetup } from './print-layout.ts';
import type { Decimal } from 'decimal.js';
import { numberWidth } from './text-width.ts';
import { formats, stylesFor, type Styles } from './styles.ts';
import { draftText } from '../model.ts';
import { supplierLabel } from '../notes.ts';
import {
  clamp,
  num,
  put,
  rfqHeading,
  ROWS_PER_YIELD,
  SHEETS,
  t,
  textWidth,
  yieldToLoop,
  type Value,
} from './sheet-common.ts';
import type { ComparisonModel, LineComparison } from '../types.ts';

export const AWARD_ROWS = {
  scenarioHeader: 4,
  split: 5,
  bestSingle: 6,
  splitSaving: 7,
  winner: 8,
  estimate: 9,
  tableHeader: 11,
} as const;

function linesText(n: number, of: number): string {
  return `${n} of ${of}`;
}

export async function writeAwardSheet(wb: ExcelJS.stream.xlsx.WorkbookWriter, model: ComparisonModel): Promise<void> {
  const st = stylesFor(model.currency);
  const A = AWARD_ROWS;
  const widths = columnWidths(model);
  const ws = wb.addWorksheet(SHEETS.award, {
    views: [{ state: 'frozen', ySplit: A.tableHeader }],
    pageSetup: {
      orientation: 'landscape',
      ...(readableSetup(widths, model.input.paper ?? 'a4') as Partial<PageSetup>),
      printTitlesRow: `${A.tableHeader}:${A.tableHeader}`,
    },
  }) as Worksheet;
  ws.columns = widths.map((width) => ({ width }));
  const n = model.lines.length;
  if (n > 0) ws.autoFilter = `A${A.tableHeader}:K${A.tableHeader + n}`;
  writeTitle(ws, model, st);
  writeScenarios(ws, model, st);
  const hdr = ws.getRow(A.tableHeader);
  hdr.height = 30;
  [
    'External ID',
    'Line ID',
    'Product',
    'Qty',
    'UoM',
    'Recommended supplier',
    'Supplier key',
    'Unit price',
    'Line total',
    'Basis',
    'Remark',
  ].forEach((text, i) => put(hdr, i + 1, text, st.S.colHeader));
  for (let r = 1; r <= A.tableHeader; r++) ws.getRow(r).commit();
  for (const line of model.lines) {
    writeLineRow(ws.getRow(A.tableHeader + 1 + line.index), line, model, st);
    if ((line.index + 1) % (ROWS_PER_YIELD * 10) === 0) await yieldToLoop();
  }
  const totalRow = ws.getRow(A.tableHeader + 1 + n);
  put(totalRow, 6, `Total awarded (${linesText(model.award.awardedLines, n)} lines)`, st.S.label);
  put(totalRow, 9, num(model.award.awardedTotal), st.S.moneyBold);
  totalRow.commit();
  ws.commit();
}

function columnWidths(model: ComparisonModel): number[] {
  const { suppliers, lines, award } = model;
  let wExt = 12;
  let wProd = 16;
  let wSup = 20;
  for (const l of lines) {
    wExt = Math.max(wExt, textWidth(l.externalId));
    wProd = Math.max(wProd, textWidth(l.product));
  }
  for (const s of suppliers) wSup = Math.max(wSup, textWidth(s.name));
  // The scenario rows name a supplier with its key.
  if (award.bestSingle) wSup = Math.max(wSup, textWidth(supplierLabel(suppliers[award.bestSingle.supplier]!)));
  if (award.winner) wSup = Math.max(wSup, textWidth(supplierLabel(suppliers[award.winner.supplier]!)));
  // Amounts as formatted and styled (bold totals, currency): a number too wide for its column prints as `###`.
  const FMT = formats(model.currency);
  const totals = [
    award.awardedTotal,
    award.splitTotal,
    award.bestSingle?.total,
    award.winner?.total,
    award.estimatedTotal,
  ];
  let wTotal = 16;
  let wUnit = 14;
  let wDiff = 14;
  for (const d of totals) if (d) wTotal = Math.max(wTotal, numberWidth(d.toNumber(), FMT.money, { bold: true }));
  for (const l of lines) {
    if (l.award?.unitPrice)
      wUnit = Math.max(wUnit, numberWidth(l.award.unitPrice.toNumber(), FMT.unit.replace('0.00##', '0.0000')));
    if (l.award?.lineTotal)
      wTotal = Math.max(wTotal, numberWidth(l.award.lineTotal.toNumber(), FMT.money, { bold: true }));
  }
  for (const d of [
    award.splitSaving,
    award.bestSingle?.total.sub(award.splitTotal),
    award.winner?.total.sub(award.splitTotal),
  ])
    if (d)
      wDiff = Math.max(wDiff, numberWidth(d.toNumber(), FMT.money), numberWidth(-Math.abs(d.toNumber()), FMT.money));
  return [
    clamp(wExt + 2, 14, 30),
    12,
    clamp(wProd + 2, 18, 45),
    9,
    8,
    clamp(wSup + 2, 22, 48),
    14,
    wUnit,
    wTotal,
    Math.max(22, wDiff),
    44,
  ];
}

function writeTitle(ws: Worksheet, model: ComparisonModel, { S }: Styles): void {
  const { award } = model;
  put(
    ws.getRow(1),
    1,
    t(`${award.final ? 'Award (final)' : 'DRAFT award recommendation'} · ${rfqHeading(model)}`),
    S.title,
  );
  if (!award.final) put(ws.getRow(3), 1, draftText(award, model.input.state), S.draft);
  put(ws.getRow(2), 1, award.basisDescription, S.subtitle);
}

/** The award scenarios: split, best single supplier, what splitting saves, the winner, the estimate. */
function writeScenarios(ws: Worksheet, model: ComparisonModel, { S }: Styles): void {
  const { suppliers, award } = model;
  const A = AWARD_ROWS;
  const n = model.lines.length;
  const sh = ws.getRow(A.scenarioHeader);
  sh.height = 30;
  put(sh, 1, 'Award scenarios', S.colHeader);
  for (let c = 2; c <= 5; c++) put(sh, c, null, S.colHeader);
  put(sh, 6, 'Supplier', S.colHeader);
  put(sh, 7, 'Lines', S.colHeader);
  put(sh, 8, null, S.colHeader);
  put(sh, 9, 'Total', S.colHeader);
  put(sh, 10, 'Difference vs split award', S.colHeader);
  put(sh, 11, 'Difference %', S.colHeader);
  ws.mergeCells(A.scenarioHeader, 1, A.scenarioHeader, 5);
  const scenario = (
    r: number,
    label: string,
    supplier: Value,
    linesCell: Value,
    total: Value,
    diff?: Decimal,
    pct?: Decimal,
  ): void => {
    const row = ws.getRow(r);
    put(row, 1, label, S.label);
    ws.mergeCells(r, 1, r, 5);
    put(row, 6, supplier, S.textPad);
    put(row, 7, linesCell, S.center);
    put(row, 9, total, S.moneyBold);
    put(row, 10, num(diff), S.money);
    put(row, 11, num(pct?.toDecimalPlaces(6)), S.deviationCenter);
  };
  scenario(
    A.split,
    'Split award: each line to its lowest qualified price',
    'per line',
    linesText(award.splitLinesCovered, n),
    num(award.splitTotal),
  );
  const single = award.bestSingle ? suppliers[award.bestSingle.supplier]! : undefined;
  if (award.bestSingle && single) {
    scenario(
      A.bestSingle,
      'Best single qualified supplier covering every line',
      t(supplierLabel(single)),
      linesText(single.linesQuoted, n),
      num(award.bestSingle.total),
      award.splitSaving,
      award.splitSavingPct,
    );
  } else {
    scenario(
      A.bestSingle,
      'Best single qualified supplier covering every line',
      'none: no qualified supplier quoted every line',
      null,
      null,
    );
  }
  scenario(
    A.splitSaving,
    'Splitting the award saves (single supplier total − split total)',
    null,
    null,
    num(award.splitSaving),
    undefined,
    award.splitSavingPct,
  );
  if (award.winner) {
    const w = suppliers[award.winner.supplier]!;
    const diff = award.splitLinesCovered === n ? award.winner.total.sub(award.splitTotal) : undefined;
    scenario(
      A.winner,
      'Winning quotation (completed RFQ)',
      t(supplierLabel(w)),
      linesText(award.winner.linesQuoted, n),
      num(award.winner.total),
      diff,
      diff !== undefined && !award.splitTotal.isZero() ? diff.div(award.splitTotal) : undefined,
    );
  } else {
    scenario(
      A.winner,
      'Winning quotation',
      model.input.state === 'completed' ? 'not known' : 'RFQ not completed yet',
      null,
      null,
    );
  }
  scenario(A.estimate, 'Estimated total of the requisition', null, null, num(award.estimatedTotal));
}

function writeLineRow(row: Row, line: LineComparison, model: ComparisonModel, { S }: Styles): void {
  const { suppliers } = model;
  put(row, 1, t(line.externalId), S.text);
  put(row, 2, t(line.lineId), S.text);
  put(row, 3, t(line.product), S.text);
  put(row, 4, line.qty ?? null, S.qty);
  put(row, 5, t(line.uom), S.center);
  if (line.award) {
    const s = suppliers[line.award.supplier]!;
    put(row, 6, t(s.name), S.textPad);
    put(row, 7, t(s.key), S.center);
    put(row, 8, num(line.award.unitPrice), S.unit);
    put(row, 9, num(line.award.lineTotal), S.money);
    put(row, 10, model.award.basisLabel, S.textPad);
    const remark = line.award.remark ?? (s.decision === 'undecided' ? 'supplier not yet qualified (no decision)' : '');
    put(row, 11, t(remark), S.text);
  } else {
    put(row, 6, 'not awarded', S.awardNone);
    put(row, 11, t(line.noAwardReason ?? ''), S.awardNone);
  }
  row.commit();
}
