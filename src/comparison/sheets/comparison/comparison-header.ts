/**
 * The header block of the Comparison sheet: the title, the legend and the RFQ's details (dates, status, company,
 * requisition), merged over the first page's columns so they print there only.
 */
import type { Worksheet } from 'exceljs';
import { zoneOffsetLabel } from '../../../core/index.ts';
import { excelDateInZone } from '../dates.ts';
import { COMPARISON_COLS, COMPARISON_ROWS, top } from './comparison-layout.ts';
import { basisHeader, put, rfqHeading, SHEETS, stateLabel, t, type Value } from '../sheet-common.ts';
import { pageOneSummary } from '../page-one-summary.ts';
import { responseText } from '../../responses.ts';
import { columnWidthFor } from '../text-width.ts';
import type { ComparisonModel } from '../../types.ts';
import type { Styles } from '../styles.ts';

/** A date of the RFQ: the ERP's day when it gave only a day (and the RFQ still has that instant), else date and time. */
function headerDate(
  model: ComparisonModel,
  field: 'rfq_date' | 'due_date' | 'required_date',
): { value: Date | null; style: 'date' | 'dateOnly' } {
  const ms = model.input.rfq[field];
  if (ms === undefined) return { value: null, style: 'date' };
  const erp = field === 'rfq_date' ? undefined : model.input.erpDays?.[field];
  if (erp && erp.at === ms && /^\d{4}-\d{2}-\d{2}$/.test(erp.day)) {
    const [y, m, d] = erp.day.split('-').map(Number) as [number, number, number];
    return { value: new Date(Date.UTC(y, m - 1, d)), style: 'dateOnly' };
  }
  return { value: excelDateInZone(ms, model.timeZone), style: 'date' };
}

/**
 * `firstPageWidth`: characters of the columns the title and legend span (to `spanTo`: the first page's columns, the
 * ones before the statistics; on a one-page print, the line columns to the last price); `valueWidth`: of those from
 * D on, which the right-hand values span. `summaryOnTop`: the award and the ranking in brief under the award status
 * (page-one-summary.ts), for a printout whose award summary is not on page 1.
 */
export function writeHeaderBlock(
  ws: Worksheet,
  model: ComparisonModel,
  { S }: Styles,
  firstPageWidth: number,
  valueWidth: number,
  spanTo: number = COMPARISON_COLS.quotes - 1,
  summaryOnTop = false,
): void {
  const R = COMPARISON_ROWS;
  const { input, timeZone } = model;
  const { rfq } = input;
  const offset = zoneOffsetLabel(input.generatedAt.getTime(), timeZone);
  const title = ws.getRow(R.title);
  title.height = 22;
  put(title, 1, t(`Quote comparison · ${rfqHeading(model)}`), S.title);
  // Merged over the first page's columns and wrapped there: left to overflow, the legend would print in pieces
  // beside the repeated columns of every page.
  ws.mergeCells(R.title, 1, R.title, spanTo);
  const legend = ws.getRow(R.legend);
  const legendText =
    `${model.currency ? `Amounts in ${model.currency}.` : 'Currency not named (no profile currency or REQUISITION_CURRENCY).'} Times in ${timeZone} (${offset} when generated); dates the ERP gave without a time show as dates. ${basisHeader(model)} ` +
    `Green = lowest qualified price of the line; hatched = no quote (not zero); grey = not qualified (excluded); ` +
    `gold = winner; % of mean = unit price against the line's mean unit price. ${model.notes.length} notes on sheet "${SHEETS.notes}".`;
  put(legend, 1, legendText, S.subtitleWrap);
  ws.mergeCells(R.legend, 1, R.legend, spanTo);
  // 10 pt italic, measured as Calibri 11 scaled down
  legend.height = Math.min(120, Math.ceil((columnWidthFor(legendText) * 10) / 11 / firstPageWidth) * 13 + 4);
  const requisition = input.requisition
    ? `${input.requisition.key}${input.requisition.profile ? ` (profile ${input.requisition.profile})` : ''} from ${input.requisition.sourceFile}`
    : '';
  const rfqDate = headerDate(model, 'rfq_date');
  const due = headerDate(model, 'due_date');
  const required = headerDate(model, 'required_date');
  const meta: Array<[string, Value, keyof Styles['S'], string, string]> = [
    ['RFQ no / id', `${rfq.rfq_no ?? '—'} / ${rfq._id}`, 'text', 'Company', rfq.comp_name ?? ''],
    [
      'RFQ date',
      rfqDate.value,
      rfqDate.style,
      'Status',
      `${stateLabel(model)} · award ${model.award.final ? 'FINAL' : model.award.withheld !== undefined ? 'WITHHELD (ERP ids, see Notes)' : 'DRAFT'} (summary below the lines)` +
        (summaryOnTop ? `\n${pageOneSummary(model)}` : ''),
    ],
    [
      'Due date',
      due.value,
      due.style,
      'Type / category',
      [[rfq.rfq_type, rfq.rfq_category].filter(Boolean).join(' / '), model.responses && responseText(model.responses)]
        .filter(Boolean)
        .join(' · '),
    ],
    ['Required date', required.value, required.style, 'Location', rfq.rfq_location ?? ''],
    ['Generated', excelDateInZone(input.generatedAt.getTime(), timeZone), 'date', 'Requisition', requisition],
  ];
  meta.forEach(([l1, v1, style, l2, v2], i) => {
    const row = ws.getRow(R.metaFirst + i);
    put(row, 1, l1, top(S.label));
    put(row, 2, typeof v1 === 'string' ? t(v1) : v1, top(S[style]));
    put(row, 3, l2, top(S.labelRight));
    // merged to the end of the first page and wrapped there, as the legend
    put(row, 4, t(v2), S.wrapTop);
    ws.mergeCells(row.number, 4, row.number, spanTo);
    const textLines = v2
      .split('\n')
      .reduce((n, part) => n + Math.ceil(columnWidthFor(part) / Math.max(10, valueWidth)), 0);
    row.height = Math.max(15, textLines * 15);
  });
}
