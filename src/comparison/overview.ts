/**
 * The daily overview workbook (`outbox/overview.xlsx`): one row per tracked RFQ of an account,
 * sorted by due date, filters on; and the Prices sheet (prices-sheet.ts): the last three awards of each product. This file holds the pure parts: the summary a comparison job keeps with the
 * tracked RFQ (so the overview is built from Redis alone, never by reopening workbooks) and the renderer. The rows
 * are gathered from Redis by src/awarding/overview.ts.
 */
import type { WriteStream } from 'node:fs';
import type { Row, Style, Worksheet } from 'exceljs';
import { writeAtomically, safeCellText, minuteText, zoneOffsetLabel } from '../core/index.ts';
import {
  colLetter,
  COLOR,
  excelDateInZone,
  stylesFor,
  workbookWriter,
  writePricesSheet,
  writeStreamedFile,
  type PriceHistoryEntry,
} from './sheets/index.ts';
import type { ComparisonModel } from './types.ts';

/**
 * What the overview shows of an RFQ's latest comparison, taken from the model the comparison job rendered: the
 * same totals as its workbook, whatever QUOTATION_PRICE_BASIS. Amounts are decimal strings (exact).
 */
export interface ComparisonSummary {
  /** Quotations received: readable ones plus those that could not be read. */
  quotations: number;
  /** The recommended award's total (the Award sheet's "Total awarded"); absent when no line is awarded. */
  bestTotal?: string;
  currency?: string;
  /**
   * Estimated total minus bestTotal (positive = saving), only when every line is awarded and the requisition's
   * estimate is known: a partial award against a full estimate would show a saving that is not one.
   */
  savings?: string;
  /** savings / estimated total, a fraction (0.05 = 5 %). */
  savingsPct?: string;
  /** The winner, the one supplier every awarded line goes to, or `split: A, B, ...`. */
  recommended?: string;
  /** The award is final (an award file was written), else a draft. */
  final: boolean;
  /** No award file because the lines' ERP ids are not certain (the workbook's Notes say why). */
  withheld?: boolean;
  /** Vendors following the RFQ's category, and how many of them quoted (absent without a vendor directory). */
  vendors?: { following: number; quoted: number };
}

const MAX_NAMED_SUPPLIERS = 3;

/** Pure: the overview's figures of one comparison model. */
export function comparisonSummary(model: ComparisonModel): ComparisonSummary {
  const { award, suppliers, lines } = model;
  const name = (i: number): string => suppliers[i]!.name || `key ${suppliers[i]!.key}`;
  let recommended: string | undefined;
  if (award.winner) recommended = name(award.winner.supplier);
  else {
    const awarded = [...new Set(lines.flatMap((l) => (l.award ? [l.award.supplier] : [])))];
    if (awarded.length === 1) recommended = name(awarded[0]!);
    else if (awarded.length > 1) {
      const named = awarded.slice(0, MAX_NAMED_SUPPLIERS).map(name).join(', ');
      recommended = `split: ${named}${awarded.length > MAX_NAMED_SUPPLIERS ? ` and ${awarded.length - MAX_NAMED_SUPPLIERS} more` : ''}`;
    }
  }
  const allEstimated = lines.length > 0 && lines.every((l) => l.estimatedTotal !== undefined);
  const fullAward = award.awardedLines > 0 && award.awardedLines === lines.length;
  const savings =
    fullAward && allEstimated && award.estimatedTotal !== undefined
      ? award.estimatedTotal.sub(award.awardedTotal)
      : undefined;
  return {
    quotations: suppliers.length + model.counts.invalidQuotations,
    ...(award.awardedLines > 0 ? { bestTotal: award.awardedTotal.toFixed() } : {}),
    ...(model.currency ? { currency: model.currency } : {}),
    ...(savings !== undefined ? { savings: savings.toFixed() } : {}),
    ...(savings !== undefined && !award.estimatedTotal!.isZero()
      ? { savingsPct: savings.div(award.estimatedTotal!).toDecimalPlaces(6).toFixed() }
      : {}),
    ...(recommended !== undefined ? { recommended } : {}),
    final: award.final,
    ...(award.withheld !== undefined ? { withheld: true } : {}),
    ...(model.responses && model.responses.unavailable === undefined
      ? { vendors: { following: model.responses.following, quoted: model.responses.quoted } }
      : {}),
  };
}

/** One row of the overview. */
export interface OverviewRow {
  rfqId: number;
  requisition?: string;
  sourceFile?: string;
  title?: string;
  /** Tracked state (`created`: not yet seen by a poll); `flagged`: missing from every status list. */
  state: string;
  flagged?: boolean;
  /** Unix ms. */
  dueDate?: number;
  summary?: ComparisonSummary;
  /** Currency of the requisition, shown when no comparison names one yet. */
  currency?: string;
  /** Path of the latest comparison workbook, relative to the overview's folder (`comparisons/...xlsx`). */
  comparison?: string;
  /** The winners whose ERP vendor the cross-reference lacks: the award's ERP files are held (src/awarding/erp-hold.ts). */
  erpHeld?: string[];
}

export const OVERVIEW_SHEET = 'Overview';
export const OVERVIEW_ROWS = { title: 1, legend: 2, header: 3, first: 4 } as const;
export const OVERVIEW_COLS = {
  dueDate: 1,
  requisition: 2,
  sourceFile: 3,
  rfqId: 4,
  title: 5,
  state: 6,
  quotations: 7,
  bestTotal: 8,
  currency: 9,
  savings: 10,
  savingsPct: 11,
  recommended: 12,
  final: 13,
  comparison: 14,
  vendorsQuoted: 15,
} as const;

const HEADERS: Record<keyof typeof OVERVIEW_COLS, [string, number]> = {
  dueDate: ['Due date', 17],
  requisition: ['Requisition', 22],
  sourceFile: ['Source file', 28],
  rfqId: ['RFQ id', 10],
  title: ['Title', 30],
  state: ['State', 12],
  quotations: ['Quotations received', 12],
  bestTotal: ['Best total', 18],
  currency: ['Currency', 12],
  savings: ['Savings vs estimate', 18],
  savingsPct: ['Savings %', 11],
  recommended: ['Recommended supplier', 30],
  final: ['Award final', 10],
  comparison: ['Latest comparison', 60],
  vendorsQuoted: ['Vendors who quoted', 14],
};

/** Earliest due date first; RFQs without one last; then by RFQ id, so equal dates keep a stable order. */
export function sortOverviewRows(rows: OverviewRow[]): OverviewRow[] {
  return rows.sort((a, b) => (a.dueDate ?? Infinity) - (b.dueDate ?? Infinity) || a.rfqId - b.rfqId);
}

/** Excel refuses (offers to "repair") a cell holding more than 32,767 characters. */
const EXCEL_MAX_CELL_TEXT = 32_767;
/** Every text from the service or the ERP export passes through here: neutralised, then bounded. */
function t(value: string | null | undefined): string {
  const safe = safeCellText(value);
  return safe.length > EXCEL_MAX_CELL_TEXT ? safe.slice(0, EXCEL_MAX_CELL_TEXT) : safe;
}

const num = (d: string | undefined): number | null => (d === undefined ? null : Number(d));

function put(row: Row, col: number, value: string | number | Date | null, style?: Partial<Style>): void {
  const cell = row.getCell(col);
  if (value !== null) cell.value = value;
  if (style) cell.style = style;
}

/** See writeComparisonModel: the streaming writer yields to the event loop so zlib keeps up (and the worker answers). */
const ROWS_PER_YIELD = 50;
const yieldToLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

const flaggedStyle: Partial<Style> = {
  font: { italic: true, color: { argb: 'FFC00000' } },
  alignment: { horizontal: 'left' },
};
const finalStyle: Partial<Style> = {
  font: { bold: true, color: { argb: COLOR.lowestFont } },
  alignment: { horizontal: 'center' },
};

export interface OverviewOptions {
  timeZone: string;
  generatedAt: Date;
  account?: string;
  /** The price history per product, newest award first: the Prices sheet (absent: no such sheet). */
  prices?: ReadonlyArray<readonly PriceHistoryEntry[]>;
}

/** Streams the overview to `filePath` (not atomic: writeOverview is). `rows` are written in the order given. */
export async function writeOverviewWorkbook(
  rows: readonly OverviewRow[],
  filePath: string,
  opts: OverviewOptions,
): Promise<void> {
  await writeStreamedFile(filePath, (file, broken) => render(rows, file, opts, broken));
}

async function render(
  rows: readonly OverviewRow[],
  file: WriteStream,
  opts: OverviewOptions,
  broken: () => Error | undefined,
): Promise<void> {
  const R = OVERVIEW_ROWS;
  const C = OVERVIEW_COLS;
  const { S } = stylesFor();
  const wb = await workbookWriter(file, opts.generatedAt);
  const lastCol = C.vendorsQuoted;
  const ws = wb.addWorksheet(OVERVIEW_SHEET, {
    views: [{ state: 'frozen', xSplit: 2, ySplit: R.header, activeCell: `C${R.first}` }],
    pageSetup: {
      orientation: 'landscape',
      paperSize: 9,
      fitToWidth: 1,
      fitToHeight: 0,
      printTitlesRow: `${R.header}:${R.header}`,
    },
  }) as Worksheet;
  ws.columns = Object.values(HEADERS).map(([, width]) => ({ width }));
  // The filter covers the header and every row; with no RFQ tracked yet, the header alone.
  ws.autoFilter = `A${R.header}:${colLetter(lastCol)}${R.header + Math.max(rows.length, 1)}`;

  const at = opts.generatedAt.getTime();
  put(ws.getRow(R.title), 1, t(`RFQ overview${opts.account ? ` · account ${opts.account}` : ''}`), S.title);
  put(
    ws.getRow(R.legend),
    1,
    t(
      `${rows.length} tracked RFQs, earliest due date first. Written ${minuteText(at, opts.timeZone)} ${opts.timeZone} (${zoneOffsetLabel(at, opts.timeZone)}); ` +
        'dates in that zone. Figures are those of the latest comparison workbook of each RFQ (best total = its award total); ' +
        'paths are relative to this folder.',
    ),
    S.subtitle,
  );
  ws.getRow(R.title).commit();
  ws.getRow(R.legend).commit();
  const hdr = ws.getRow(R.header);
  hdr.height = 30;
  for (const [key, [text]] of Object.entries(HEADERS)) put(hdr, C[key as keyof typeof C], text, S.colHeader);
  hdr.commit();

  for (let i = 0; i < rows.length; i++) {
    const r = rows[i]!;
    const s = r.summary;
    const currency = s?.currency ?? r.currency;
    const money = stylesFor(currency).S;
    const row = ws.getRow(R.first + i);
    put(row, C.dueDate, r.dueDate === undefined ? null : excelDateInZone(r.dueDate, opts.timeZone), S.date);
    put(row, C.requisition, t(r.requisition), S.text);
    put(row, C.sourceFile, t(r.sourceFile), S.text);
    put(row, C.rfqId, r.rfqId, S.int);
    put(row, C.title, t(r.title), S.text);
    put(row, C.state, r.flagged ? `${r.state} (missing)` : r.state, r.flagged ? flaggedStyle : S.center);
    put(row, C.quotations, s?.quotations ?? null, S.int);
    put(row, C.bestTotal, num(s?.bestTotal), money.money);
    put(row, C.currency, t(currency), S.center);
    put(row, C.savings, num(s?.savings), money.money);
    put(row, C.savingsPct, num(s?.savingsPct), S.pct);
    put(row, C.recommended, t(s?.recommended), S.text);
    const erpHeld = r.erpHeld?.length ? `yes; ERP files held: no ERP vendor for ${r.erpHeld.join(', ')}` : undefined;
    put(
      row,
      C.final,
      erpHeld !== undefined ? t(erpHeld) : s?.final ? 'yes' : s?.withheld ? 'no: withheld' : 'no',
      s?.withheld || erpHeld !== undefined ? flaggedStyle : s?.final ? finalStyle : S.center,
    );
    put(row, C.comparison, t(r.comparison), S.text);
    put(row, C.vendorsQuoted, s?.vendors ? vendorsText(s.vendors) : null, S.center);
    row.commit();
    if ((i + 1) % ROWS_PER_YIELD === 0) {
      await yieldToLoop();
      if (broken()) return;
    }
  }
  ws.commit();
  if (opts.prices) writePricesSheet(wb, opts.prices, opts.timeZone);
  await wb.commit();
}

/**
 * Writes the overview atomically (temporary name, then rename): a reader never sees half a file. Several workers
 * may write it (a poll per slot, `rfq-sync poll` by hand): each rename replaces the file whole, the last one wins,
 * which is fine as each holds the whole account as it was read.
 */
export async function writeOverview(rows: readonly OverviewRow[], path: string, opts: OverviewOptions): Promise<void> {
  await writeAtomically(path, (tmp) => writeOverviewWorkbook(rows, tmp, opts));
}

/** "3 of 5 (60%)": the following vendors who quoted. */
function vendorsText(v: { following: number; quoted: number }): string {
  return v.following === 0
    ? 'none follow'
    : `${v.quoted} of ${v.following} (${Math.round((100 * v.quoted) / v.following)}%)`;
}
