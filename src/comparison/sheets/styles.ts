/**
 * Every style the comparison workbook uses, built once. exceljs' style manager recognises a style object it has
 * seen before by identity (WeakMap), so sharing these objects keeps 750,000 cells from each costing a style lookup.
 */
import type { Borders, Fill, Font, Style } from 'exceljs';

/**
 * Number formats. Money and unit prices name the RFQ's currency when it is known (`#,##0.00 "EUR"`), so a figure
 * never stands without it; quantities, ranks and percentages do not.
 */
export function formats(currency?: string) {
  const cur = currency ? ` "${currency}"` : '';
  return {
    money: `#,##0.00${cur}`,
    /** Unit prices may carry more decimals than totals. */
    unit: `#,##0.00##${cur}`,
    qty: '#,##0',
    pct: '0.0%',
    /** A quote against the line's mean unit price (100% = the mean), as SAP ME49 shows it. */
    pctOfMean: '0%',
    deviation: '+0.0%;-0.0%;0.0%',
    rank: '0',
    date: 'yyyy-mm-dd hh:mm',
    /** A date the ERP gave without a time. */
    dateOnly: 'yyyy-mm-dd',
  } as const;
}

export const FMT = formats();

export const COLOR = {
  headerFill: 'FFD9E1F2',
  statsHeaderFill: 'FFFFF2CC',
  groupFill: 'FFDDEBF7',
  winnerFill: 'FFFFD966',
  nqHeaderFill: 'FFE7E6E6',
  nqFill: 'FFF2F2F2',
  nqFont: 'FF8C8C8C',
  lowestFill: 'FFC6EFCE',
  lowestFont: 'FF006100',
  missingHatch: 'FFBFBFBF',
  groupBorder: 'FF8EA9DB',
  gridBorder: 'FFD9D9D9',
  titleFont: 'FF1F3864',
  mutedFont: 'FF595959',
  lastFill: 'FFF3EEF8',
  lastHeaderFill: 'FFE4DAF0',
} as const;

const solid = (argb: string): Fill => ({ type: 'pattern', pattern: 'solid', fgColor: { argb }, bgColor: { argb } });
/** Diagonal hatch: "no quote", visibly different from a price and from zero. */
const hatch: Fill = {
  type: 'pattern',
  pattern: 'lightUp',
  fgColor: { argb: COLOR.missingHatch },
  bgColor: { argb: 'FFFFFFFF' },
};

const groupStart: Partial<Borders> = { left: { style: 'thin', color: { argb: COLOR.groupBorder } } };
const headerBorder: Partial<Borders> = {
  bottom: { style: 'medium', color: { argb: 'FF1F3864' } },
  top: { style: 'thin', color: { argb: COLOR.groupBorder } },
};

const bold: Partial<Font> = { bold: true };

export type SupplierKind = 'normal' | 'lowest' | 'missing' | 'nq' | 'nqMissing';
export type SupplierHeaderKind = 'eligible' | 'nq' | 'winner';

type Formats = ReturnType<typeof formats>;

/** The styles of single cells: titles, labels, texts, numbers, column headers, line statistics, award marks. */
function sheetStyles(FMT: Formats) {
  return {
    title: { font: { bold: true, size: 14, color: { argb: COLOR.titleFont } } },
    subtitle: { font: { italic: true, size: 10, color: { argb: COLOR.mutedFont } } },
    subtitleWrap: {
      font: { italic: true, size: 10, color: { argb: COLOR.mutedFont } },
      alignment: { wrapText: true, vertical: 'top' },
    },
    label: { font: { bold: true, color: { argb: COLOR.mutedFont } }, alignment: { horizontal: 'left' } },
    summaryTitle: { font: { bold: true, size: 11, color: { argb: COLOR.titleFont } } },
    labelRight: { font: { bold: true, color: { argb: COLOR.mutedFont } }, alignment: { horizontal: 'right' } },
    text: { alignment: { horizontal: 'left' } },
    /** Text of a capped column: wraps (a line row is made as tall as it needs). */
    textWrap: { alignment: { horizontal: 'left', vertical: 'top', wrapText: true } },
    /** Text right of a number column: indented so the two do not run together. */
    textPad: { alignment: { horizontal: 'left', indent: 1 } },
    center: { alignment: { horizontal: 'center' } },
    textMuted: { font: { italic: true, color: { argb: COLOR.mutedFont } } },
    wrap: { alignment: { wrapText: true, vertical: 'top', indent: 1 } },
    wrapTop: { alignment: { wrapText: true, vertical: 'top', horizontal: 'left' } },
    labelTop: {
      font: { bold: true, color: { argb: COLOR.mutedFont } },
      alignment: { horizontal: 'left', vertical: 'top' },
    },
    date: { numFmt: FMT.date, alignment: { horizontal: 'left' } },
    dateOnly: { numFmt: FMT.dateOnly, alignment: { horizontal: 'left' } },
    money: { numFmt: FMT.money },
    moneyBold: { numFmt: FMT.money, font: bold },
    unit: { numFmt: FMT.unit },
    qty: { numFmt: FMT.qty },
    int: { numFmt: '0', alignment: { horizontal: 'center' } },
    pct: { numFmt: FMT.pct },
    deviation: { numFmt: FMT.deviation },
    deviationCenter: { numFmt: FMT.deviation, alignment: { horizontal: 'center' } },
    colHeader: {
      font: bold,
      fill: solid(COLOR.headerFill),
      alignment: { wrapText: true, vertical: 'middle', horizontal: 'center' },
      border: headerBorder,
    },
    statsHeader: {
      font: bold,
      fill: solid(COLOR.statsHeaderFill),
      alignment: { wrapText: true, vertical: 'middle', horizontal: 'center' },
      border: headerBorder,
    },
    statsUnit: { numFmt: FMT.unit, fill: solid('FFFFFBEA') },
    statsMoney: { numFmt: FMT.money, fill: solid('FFFFFBEA') },
    statsPct: { numFmt: FMT.deviation, fill: solid('FFFFFBEA') },
    statsText: {
      fill: solid('FFFFFBEA'),
      alignment: { horizontal: 'left', vertical: 'top', wrapText: true, indent: 1 },
    },
    statsNoQuote: {
      fill: solid('FFFFFBEA'),
      font: { italic: true, color: { argb: 'FFC00000' } },
      alignment: { horizontal: 'left', indent: 1 },
    },
    statsInt: { numFmt: '0', fill: solid('FFFFFBEA'), alignment: { horizontal: 'center' } },
    winnerMark: { font: { bold: true }, fill: solid(COLOR.winnerFill) },
    draft: { font: { bold: true, color: { argb: 'FFC00000' } } },
    awardNone: { font: { italic: true, color: { argb: 'FFC00000' } }, alignment: { horizontal: 'left', indent: 1 } },
    /** The last price paid beside the line (its unit price, date, supplier), and "no earlier award". */
    lastUnit: { numFmt: FMT.unit, fill: solid(COLOR.lastFill) },
    lastDate: { numFmt: FMT.dateOnly, fill: solid(COLOR.lastFill), alignment: { horizontal: 'center' } },
    lastText: {
      fill: solid(COLOR.lastFill),
      alignment: { horizontal: 'left', vertical: 'top', wrapText: true, indent: 1 },
    },
    noEarlier: {
      fill: solid(COLOR.lastFill),
      font: { italic: true, color: { argb: COLOR.mutedFont } },
      alignment: { horizontal: 'left' },
    },
    lastHeader: {
      font: bold,
      fill: solid(COLOR.lastHeaderFill),
      alignment: { wrapText: true, vertical: 'middle', horizontal: 'center' },
      border: headerBorder,
    },
    signOff: {
      font: { bold: true, color: { argb: COLOR.mutedFont } },
      alignment: { vertical: 'bottom', horizontal: 'left' },
      border: { bottom: { style: 'thin', color: { argb: 'FF595959' } } },
    },
  } satisfies Record<string, Partial<Style>>;
}

function supplierCell(numFmt: string, kind: SupplierKind, first: boolean, rank: boolean): Partial<Style> {
  const style: Partial<Style> = { numFmt };
  if (first) style.border = groupStart;
  if (rank) style.alignment = { horizontal: 'center' };
  switch (kind) {
    case 'lowest':
      style.fill = solid(COLOR.lowestFill);
      style.font = { bold: true, color: { argb: COLOR.lowestFont } };
      break;
    case 'missing':
      style.fill = hatch;
      break;
    case 'nq':
      style.fill = solid(COLOR.nqFill);
      style.font = { color: { argb: COLOR.nqFont } };
      break;
    case 'nqMissing':
      style.fill = hatch;
      style.font = { color: { argb: COLOR.nqFont } };
      break;
    case 'normal':
      break;
  }
  return style;
}

const KINDS: SupplierKind[] = ['normal', 'lowest', 'missing', 'nq', 'nqMissing'];
const table = <T>(make: (k: SupplierKind) => T): Record<SupplierKind, T> =>
  Object.fromEntries(KINDS.map((k) => [k, make(k)])) as Record<SupplierKind, T>;

/** Styles of the cells of a supplier group in a line row: unit price, line total, % of mean, rank, vs last price. */
function supplierCellStyles(FMT: Formats) {
  return {
    unit: table((k) => supplierCell(FMT.unit, k, true, false)),
    vsLast: table((k) => supplierCell(FMT.deviation, k === 'lowest' ? 'normal' : k, false, true)),
    total: table((k) => supplierCell(FMT.money, k, false, false)),
    pctOfMean: table((k) => supplierCell(FMT.pctOfMean, k, false, true)),
    rank: table((k) => supplierCell(FMT.rank, k === 'lowest' ? 'lowest' : k, false, true)),
  };
}

function groupHeader(kind: SupplierHeaderKind, extra: Partial<Style>, first: boolean): Partial<Style> {
  const fill = kind === 'winner' ? COLOR.winnerFill : kind === 'nq' ? COLOR.nqHeaderFill : COLOR.groupFill;
  const font: Partial<Font> =
    kind === 'nq' ? { italic: true, color: { argb: COLOR.nqFont }, ...(extra.font ?? {}) } : { ...(extra.font ?? {}) };
  return {
    ...extra,
    font,
    fill: solid(fill),
    alignment: { horizontal: 'center', vertical: 'middle', wrapText: true, ...(extra.alignment ?? {}) },
    border: first ? groupStart : {},
  };
}

const HEADER_KINDS: SupplierHeaderKind[] = ['eligible', 'nq', 'winner'];
const headerTable = (extra: Partial<Style>, first: boolean): Record<SupplierHeaderKind, Partial<Style>> =>
  Object.fromEntries(HEADER_KINDS.map((k) => [k, groupHeader(k, extra, first)])) as Record<
    SupplierHeaderKind,
    Partial<Style>
  >;

/** Styles of the supplier group header rows, [first cell of group, other cells]. */
function groupHeaderStyles(FMT: Formats) {
  return {
    name: [headerTable({ font: { bold: true } }, true), headerTable({ font: { bold: true } }, false)],
    info: [headerTable({ font: { size: 10 } }, true), headerTable({ font: { size: 10 } }, false)],
    money: [headerTable({ numFmt: FMT.money, font: { bold: true } }, true), headerTable({ numFmt: FMT.money }, false)],
    text: [headerTable({}, true), headerTable({}, false)],
    notes: [
      headerTable({ font: { size: 10 }, alignment: { horizontal: 'left', vertical: 'top', wrapText: true } }, true),
      headerTable({ font: { size: 10 } }, false),
    ],
    deviation: [headerTable({ numFmt: FMT.deviation }, true), headerTable({ numFmt: FMT.deviation }, false)],
    rank: [headerTable({ numFmt: '0', font: { bold: true } }, true), headerTable({ numFmt: '0' }, false)],
  } as const;
}

/** Every style of one currency, family by family. */
function buildStyles(currency: string | undefined) {
  const FMT = formats(currency);
  const S = sheetStyles(FMT);
  const SUPPLIER_CELL = supplierCellStyles(FMT);
  const GROUP_HEADER = groupHeaderStyles(FMT);
  const COL_HEADER_GROUP_START: Partial<Style> = { ...S.colHeader, border: { ...headerBorder, ...groupStart } };
  const styles = { FMT, S, SUPPLIER_CELL, GROUP_HEADER, COL_HEADER_GROUP_START };
  nameFonts(styles);
  return styles;
}

/**
 * Names Calibri in every font: a font without a name takes the application's default, which in LibreOffice is a
 * serif (DejaVu Serif) far wider than Calibri, so bold amounts printed as `###`. Column widths are measured in
 * Calibri (text-width.ts).
 */
function nameFonts(node: unknown, seen = new Set<unknown>()): void {
  if (typeof node !== 'object' || node === null || seen.has(node)) return;
  seen.add(node);
  const o = node as Record<string, unknown>;
  if (typeof o.font === 'object' && o.font !== null && !('name' in o.font)) o.font = { name: 'Calibri', ...o.font };
  for (const [k, v] of Object.entries(o)) if (k !== 'font') nameFonts(v, seen);
}

export type Styles = ReturnType<typeof buildStyles>;

/**
 * The styles of one currency, built once per currency and shared: exceljs recognises a style object it has seen
 * by identity, so every workbook of a currency reuses the same objects.
 */
const byCurrency = new Map<string, Styles>();
export function stylesFor(currency?: string): Styles {
  const key = currency ?? '';
  let st = byCurrency.get(key);
  if (!st) {
    st = buildStyles(currency);
    byCurrency.set(key, st);
  }
  return st;
}
