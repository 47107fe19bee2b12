/**
 * What every sheet of the comparison workbook shares: bounded, formula-safe text; cell writing; column widths from
 * content; the headings that name the RFQ; and the pacing of exceljs' streaming writer.
 */
import type { Cell, Row, Style } from 'exceljs';
import type { Decimal } from 'decimal.js';
import { safeCellText } from '../../core/index.ts';
import type { ComparisonModel, SupplierSummary } from '../types.ts';
import type { SupplierHeaderKind } from './styles.ts';

export const SHEETS = { comparison: 'Comparison', suppliers: 'Suppliers', award: 'Award', notes: 'Notes' } as const;

export type Value = string | number | Date | null;

/** Excel refuses (offers to "repair") a cell holding more than 32,767 characters. */
const EXCEL_MAX_CELL_TEXT = 32_767;

/** Every text from the service or the ERP export passes through here: neutralised, then bounded. */
export function t(value: string | null | undefined): string {
  const safe = safeCellText(value);
  const mark = ' [truncated]';
  return safe.length > EXCEL_MAX_CELL_TEXT ? safe.slice(0, EXCEL_MAX_CELL_TEXT - mark.length) + mark : safe;
}

/** Excel's last column is XFD (16,384). */
export const EXCEL_MAX_COLUMNS = 16_384;
export const num = (d: Decimal | undefined | null): number | null =>
  d === undefined || d === null ? null : d.toNumber();

export function put(row: Row, col: number, value: Value, style?: Partial<Style>): Cell {
  const cell = row.getCell(col);
  if (value !== null) cell.value = value;
  if (style) cell.style = style;
  return cell;
}

/**
 * The cells of one row, as the Comparison sheet's line rows write them: into exceljs' Row (rowCells) or as XML
 * (row-xml.ts). Columns are put left to right, each once.
 */
export interface RowCells {
  put(col: number, value: Value, style?: Partial<Style>): void;
  /** A note (an Excel comment) on the cell put at `col`. */
  note(col: number, text: string): void;
}

export function rowCells(row: Row): RowCells {
  return {
    put: (col, value, style) => void put(row, col, value, style),
    note: (col, text) => void (row.getCell(col).note = text),
  };
}

export function colLetter(n: number): string {
  let s = '';
  while (n > 0) {
    const m = (n - 1) % 26;
    s = String.fromCharCode(65 + m) + s;
    n = Math.floor((n - 1) / 26);
  }
  return s;
}

/** Display width (characters) of a money value in '#,##0.00' (extra = additional decimals shown). */
export function moneyWidth(d: Decimal | undefined | null, extra = 0): number {
  if (!d) return 0;
  const intDigits = d.abs().floor().toFixed().length;
  return intDigits + Math.floor((intDigits - 1) / 3) + 3 + extra + (d.isNegative() ? 1 : 0);
}

/** Display width of a non-negative double in '#,##0.00'. */
export function numberWidth(v: number): number {
  const intDigits = v >= 1 ? Math.floor(Math.log10(v)) + 1 : 1;
  return intDigits + Math.floor((intDigits - 1) / 3) + 3;
}

export function textWidth(s: string | undefined): number {
  return s ? s.length : 0;
}

/**
 * Row height (points) for text wrapped in a column `width` characters wide. Neither LibreOffice's converter nor
 * every Excel version re-measures rows on open, so wrapped rows get an explicit height.
 */
export function wrappedHeight(text: string, width: number): number {
  const lines = text.split(/\r?\n/).reduce((n, part) => n + Math.max(1, Math.ceil(part.length / (width * 1.05))), 0);
  return Math.min(409, Math.max(15, lines * 13 + 3));
}

export const clamp = (v: number, lo: number, hi: number): number => Math.max(lo, Math.min(hi, v));

export function decisionLabel(s: SupplierSummary): string {
  return s.decision === 'undecided' ? 'no decision yet' : s.decision;
}

export function headerKind(s: SupplierSummary): SupplierHeaderKind {
  return s.winner ? 'winner' : s.eligible ? 'eligible' : 'nq';
}

/** The price basis in the header: a wrong basis multiplies every amount by the quantity, so it is said up front. */
export function basisHeader(model: ComparisonModel): string {
  const basis =
    model.priceBasis === 'unit'
      ? 'Price basis: quoted prices are UNIT prices; line total = unit price × qty.'
      : 'Price basis: quoted prices are LINE TOTALS; unit price = line total ÷ qty.';
  return model.priceBasisWarning
    ? `${basis} WARNING: the quotes look like ${model.priceBasisWarning.looksLike === 'unit' ? 'unit prices' : 'line totals'} (see Notes).`
    : basis;
}

export function rfqHeading(model: ComparisonModel): string {
  const { rfq, version } = model.input;
  const no = rfq.rfq_no !== undefined ? `RFQ ${rfq.rfq_no}` : `RFQ id ${rfq._id}`;
  const v = version !== undefined ? ` · version ${version}` : '';
  return `${no}${rfq.title ? ` · ${rfq.title}` : ''}${v}`;
}

export function stateLabel(model: ComparisonModel): string {
  const { state, rfq } = model.input;
  return rfq.status ? `${state} (service status: ${rfq.status})` : state;
}

export function pctText(fraction: Decimal): string {
  return `${fraction.mul(100).toDecimalPlaces(1).toFixed(1)}%`;
}

/**
 * exceljs' streaming writer ignores back-pressure: committed rows pile up as Buffers until zlib (on the libuv
 * thread pool) takes them, and zlib only gets the next chunk when the event loop turns. Yielding after every row
 * keeps that backlog at a few chunks (measured at 5,000 x 50: 42 MB of pending buffers with a yield every 100
 * rows, 5 MB with one per row, and the write got faster). It also keeps a worker's event loop responsive.
 */
export const ROWS_PER_YIELD = 1;
export const yieldToLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
