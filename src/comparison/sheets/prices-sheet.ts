/**
 * The overview's Prices sheet: per product of the price history (src/awarding/price-history.ts), its last three
 * final awards (unit price, date, supplier, RFQ), newest first, and the trend: the last price against the one
 * before it. Products in name order.
 */
import type ExcelJS from 'exceljs';
import type { Style, Worksheet } from 'exceljs';
import { excelDateInZone } from './dates.ts';
import { put, t } from './sheet-common.ts';
import { stylesFor } from './styles.ts';
import type { LastAward } from '../types.ts';

export const PRICES_SHEET = 'Prices';

/** One award of a product as the Prices sheet shows it. */
export interface PriceHistoryEntry extends LastAward {
  /** The product key (code:... or name:...|uom). */
  product: string;
  name: string;
  uom: string;
}

/** Awards kept per product. */
export const AWARDS_SHOWN = 3;
const PER_AWARD = ['Unit price', 'Awarded on', 'Supplier', 'RFQ'] as const;

/** The trend of a product: its last unit price against the one before (a fraction), when both are in one currency. */
export function priceTrend(awards: readonly PriceHistoryEntry[]): number | undefined {
  const [last, before] = awards;
  if (!last || !before || (last.currency ?? '') !== (before.currency ?? '')) return undefined;
  const prev = Number(before.unitPrice);
  return prev > 0 ? Number(last.unitPrice) / prev - 1 : undefined;
}

function trendWord(trend: number | undefined): string {
  if (trend === undefined) return '';
  return trend > 0.0005 ? 'rising' : trend < -0.0005 ? 'falling' : 'steady';
}

/**
 * Writes the sheet into the overview workbook. `histories`: per product its awards, newest first (at most
 * AWARDS_SHOWN are shown).
 */
export function writePricesSheet(
  wb: ExcelJS.stream.xlsx.WorkbookWriter,
  histories: readonly (readonly PriceHistoryEntry[])[],
  timeZone: string,
): void {
  const { S } = stylesFor();
  const ws = wb.addWorksheet(PRICES_SHEET, {
    views: [{ state: 'frozen', xSplit: 1, ySplit: 3 }],
    pageSetup: { orientation: 'landscape', paperSize: 9, scale: 80, printTitlesRow: '3:3', printTitlesColumn: 'A:A' },
  }) as Worksheet;
  const awardCols = Array.from({ length: AWARDS_SHOWN }, () => [14, 12, 26, 10]).flat();
  ws.columns = [34, 8, 18, ...awardCols, 10, 10].map((width) => ({ width }));
  put(ws.getRow(1), 1, 'Prices paid · the last three final awards per product', S.title);
  put(
    ws.getRow(2),
    1,
    `Newest first; dates in ${timeZone}. Trend: the last unit price against the one before. A product is its ERP material number when the requisition gave one, else its name and unit.`,
    S.subtitle,
  );
  const hdr = ws.getRow(3);
  hdr.height = 30;
  const headers = ['Product', 'Unit', 'Material no.'];
  for (let k = 1; k <= AWARDS_SHOWN; k++)
    headers.push(...PER_AWARD.map((h) => (k === 1 ? `Last: ${h}` : `${k}. ${h}`)));
  headers.push('Trend', '');
  headers.forEach((h, i) => put(hdr, i + 1, h, S.colHeader));
  for (const r of [1, 2, 3]) ws.getRow(r).commit();
  if (histories.length === 0) put(ws.getRow(4), 1, 'No final award yet.', S.textMuted);
  histories.forEach((awards, i) => {
    const row = ws.getRow(4 + i);
    const first = awards[0]!;
    put(row, 1, t(first.name), S.text);
    put(row, 2, t(first.uom), S.center);
    put(row, 3, first.product.startsWith('code:') ? t(first.product.slice(5)) : null, S.text);
    awards.slice(0, AWARDS_SHOWN).forEach((a, k) => {
      const c = 4 + k * PER_AWARD.length;
      put(row, c, Number(a.unitPrice), stylesFor(a.currency).S.unit);
      put(row, c + 1, excelDateInZone(a.at, timeZone), S.dateOnly);
      put(row, c + 2, t(a.supplier), S.text);
      put(row, c + 3, a.rfqNo !== undefined ? `RFQ ${a.rfqNo}` : `id ${a.rfqId}`, S.text);
    });
    const trend = priceTrend(awards);
    const c = 4 + AWARDS_SHOWN * PER_AWARD.length;
    put(row, c, trend ?? null, S.deviation as Partial<Style>);
    put(row, c + 1, trendWord(trend), S.center);
    row.commit();
  });
  ws.commit();
}
