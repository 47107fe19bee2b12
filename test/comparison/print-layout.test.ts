/**
 * The printout, from the page setup and the column widths alone (no LibreOffice): a short RFQ (up to 25 lines and
 * 5 quotations) is one landscape page fitted to width and height; a longer or wider one prints in blocks of lines and
 * suppliers with the line columns repeated and "page x of y" with the RFQ; every numeric cell of every sheet fits
 * its column as formatted and styled (a number that does not fit prints as `###`). The PDF itself is checked in
 * libreoffice.test.ts.
 */
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { buildComparison, writeComparisonWorkbook } from '../../src/comparison/index.ts';
import {
  columnPt,
  defaultPaper,
  MIN_PRINT_SCALE,
  printableLandscape,
  printLayout,
} from '../../src/comparison/sheets/print-layout.ts';
import { columnWidthFor, formatNumber } from '../../src/comparison/sheets/text-width.ts';
import type { ComparisonInput } from '../../src/comparison/types.ts';
import { demoInput, GENERATED_AT, printInput, shortNamesInput } from './fixtures.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import {
  COMPARISON_COLS as C,
  SUPPLIER_PARTS as P,
  supplierColumn,
} from '../../src/comparison/sheets/comparison/comparison-layout.ts';

const dir = tempDir('rfq-print-');

async function open(name: string, input: ComparisonInput): Promise<ExcelJS.Workbook> {
  const path = join(dir, name);
  await writeComparisonWorkbook(input, path);
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(path);
  return wb;
}

/**
 * Every numeric cell whose formatted, styled text is wider than the columns it shows in (a merged cell: the
 * visible columns it spans): `sheet!A1 text (needs n, has m)`; every cell not in Calibri.
 */
function tooNarrow(wb: ExcelJS.Workbook): string[] {
  const out: string[] = [];
  wb.eachSheet((ws) => {
    const shown = (c: number): number => (ws.getColumn(c).hidden ? 0 : (ws.getColumn(c).width ?? 9.14));
    const merges = (ws as unknown as { _merges: Record<string, { model: { left: number; right: number } }> })._merges;
    const span = new Map<string, number>();
    for (const [address, range] of Object.entries(merges)) {
      let w = 0;
      for (let c = range.model.left; c <= range.model.right; c++) w += shown(c);
      span.set(address, w);
    }
    ws.eachRow((row) =>
      row.eachCell((cell) => {
        // The widths are measured in Calibri: a cell in another font (an unnamed font is LibreOffice's serif,
        // far wider) prints wider than its column allows.
        if (cell.value !== null && cell.font && cell.font.name !== 'Calibri')
          out.push(`${ws.name}!${cell.address} font ${cell.font.name ?? '(none)'}`);
        const value = cell.value;
        if (!(typeof value === 'number' || value instanceof Date)) return;
        if (cell.isMerged && cell.master.address !== cell.address) return;
        const col = Number(cell.col);
        if (ws.getColumn(col).hidden) return;
        // a date is a number to a spreadsheet: too narrow, it prints as `###` like an amount
        const text = value instanceof Date ? dateText(value, cell.numFmt) : formatNumber(value, cell.numFmt || '0');
        const need = columnWidthFor(text, { bold: cell.font?.bold === true, size: cell.font?.size ?? 11 });
        const has = span.get(cell.address) ?? shown(col);
        if (need > has) out.push(`${ws.name}!${cell.address} ${text} (needs ${need}, has ${has})`);
      }),
    );
  });
  return out;
}

/** A date cell's text in the workbook's date formats (`yyyy-mm-dd hh:mm`, `yyyy-mm-dd`): the digits of its UTC parts. */
function dateText(d: Date, numFmt: string | undefined): string {
  const iso = d.toISOString();
  return (numFmt ?? 'yyyy-mm-dd')
    .replace('yyyy', iso.slice(0, 4))
    .replace(/mm(?=-)/, iso.slice(5, 7))
    .replace('dd', iso.slice(8, 10))
    .replace('hh', iso.slice(11, 13))
    .replace(/mm$/, iso.slice(14, 16));
}

describe('one page for a short RFQ', () => {
  it.each([
    ['25 lines, 5 quotations, line totals in millions', () => printInput(25, 5, { lastAwards: {} })],
    ['the demo (8 lines, 5 quotations)', () => demoInput()],
    ['1 line, 1 quotation', () => printInput(1, 1)],
    ['short product names: the header block dates above them', () => shortNamesInput()],
  ])('%s: landscape, fitted to one page wide and tall, every amount whole', async (_name, input) => {
    const wb = await open('short.xlsx', input());
    const ws = wb.getWorksheet('Comparison')!;
    expect(ws.pageSetup).toMatchObject({
      orientation: 'landscape',
      paperSize: 9,
      fitToPage: true,
      fitToWidth: 1,
      fitToHeight: 1,
    });
    expect(ws.headerFooter.oddFooter).toMatch(/^&LRFQ 117 quote comparison&RPage &P of &N$/);
    // nothing the committee looks for is folded away: the line, its estimate, the last price paid, each unit price
    // (the best one green) and its difference from the last price
    for (const col of [C.externalId, C.product, C.specification, C.qty, C.estTotal, C.lastPrice, C.lastDate])
      expect(ws.getColumn(col).hidden, `column ${col}`).toBe(false);
    expect(ws.getColumn(supplierColumn(0) + P.unit).hidden).toBe(false);
    expect(ws.getColumn(supplierColumn(0) + P.vsLast).hidden).toBe(false);
    expect(tooNarrow(wb)).toEqual([]);
  });

  it('a short RFQ whose columns fit at 70 % folds nothing', () => {
    const model = buildComparison(printInput(3, 1, { generatedAt: GENERATED_AT }));
    expect(model.lines).toHaveLength(3);
    const layout = printLayout({
      columns: [10, 20, 10, 5, 5].map((width) => ({ width, fold: 1 })),
      blockStarts: [1],
      lines: 3,
      quotations: 1,
      rowsHeightPt: 300,
      paper: 'a4',
    });
    expect(layout).toMatchObject({ mode: 'one-page', folded: [] });
    expect(layout.scale).toBeGreaterThanOrEqual(MIN_PRINT_SCALE);
  });
});

describe('blocks for a long or wide RFQ', () => {
  it('26 lines or 6 quotations: blocks, line columns and supplier header on every page, breaks between whole blocks', async () => {
    for (const [lines, suppliers] of [
      [26, 3],
      [10, 6],
    ] as const) {
      const wb = await open('long.xlsx', printInput(lines, suppliers));
      const ws = wb.getWorksheet('Comparison')!;
      expect(ws.pageSetup.fitToPage).toBe(false);
      expect(ws.pageSetup.scale).toBeGreaterThanOrEqual(MIN_PRINT_SCALE);
      expect(ws.pageSetup.printTitlesColumn).toBe('A:B');
      expect(ws.pageSetup.printTitlesRow).toBe('8:15');
      expect(ws.headerFooter.oddFooter).toContain('RFQ 117');
      expect(ws.headerFooter.oddFooter).toContain('Page &P of &N');
      expect(tooNarrow(wb)).toEqual([]);
      // page 1 (the header block) carries the award and the ranking by total in brief
      const status = String(ws.getCell(4, 4).value);
      expect(status).toMatch(/Split award [\d,]+\.\d{2} EUR \(\d+ of \d+ lines\)/);
      expect(status).toMatch(/Ranking by total: 1\. .+ [\d,]+\.\d{2} EUR; 2\. /);
    }
  });

  it('packs whole blocks per page at the largest scale from 70 % at which the widest block fits', () => {
    const lineBlock = [20, 30, 25, 8, 8, 12, 12, 7, 12, 12, 12, 20, 12, 12, 9, 12, 10, 14];
    const group = [14, 14, 7, 5, 7];
    const columns = [...lineBlock, ...Array.from({ length: 10 }, () => group).flat()].map((width) => ({
      width,
      fold: 0,
    }));
    const blockStarts = [1, 8, ...Array.from({ length: 10 }, (_, i) => 19 + 5 * i)];
    const layout = printLayout({ columns, blockStarts, lines: 40, quotations: 10, rowsHeightPt: 2000, paper: 'a4' });
    expect(layout.mode).toBe('blocks');
    expect(layout.scale).toBeGreaterThanOrEqual(MIN_PRINT_SCALE);
    expect(layout.breaksAfter.every((b) => b === 7 || (b >= 18 && (b - 18) % 5 === 0))).toBe(true);
    // each page's blocks, with the repeated columns, fit the printable width at the scale
    const page = (printableLandscape('a4').width * 100) / layout.scale;
    const edges = [0, ...layout.breaksAfter, columns.length];
    for (let p = 1; p < edges.length; p++) {
      const own = columns.slice(edges[p - 1], edges[p]).reduce((a, c) => a + columnPt(c.width), 0);
      const repeat = p === 1 ? 0 : columnPt(20) + columnPt(30);
      expect(own + repeat).toBeLessThanOrEqual(page + 1);
    }
  });
});

describe('paper', () => {
  it('A4, or Letter in the zones of Letter countries', async () => {
    expect(defaultPaper('Europe/Berlin')).toBe('a4');
    expect(defaultPaper('UTC')).toBe('a4');
    expect(defaultPaper('America/Chicago')).toBe('letter');
    expect(defaultPaper('America/Toronto')).toBe('letter');
    expect(defaultPaper(undefined)).toBe('a4');
    const wb = await open('letter.xlsx', printInput(5, 2, { paper: 'letter' }));
    expect(wb.getWorksheet('Comparison')!.pageSetup.paperSize).toBe(1);
  });
});

describe('formatted widths', () => {
  it('formats as the workbook does: thousands, decimals, currency, signs', () => {
    expect(formatNumber(8203437.4, '#,##0.00 "EUR"')).toBe('8,203,437.40 EUR');
    expect(formatNumber(1099.6565, '#,##0.00## "EUR"')).toBe('1,099.6565 EUR');
    expect(formatNumber(12.5, '#,##0.00##')).toBe('12.50');
    expect(formatNumber(-0.0512, '+0.0%;-0.0%;0.0%')).toBe('-5.1%');
    expect(formatNumber(0.0512, '+0.0%;-0.0%;0.0%')).toBe('+5.1%');
    expect(formatNumber(1.05, '0%')).toBe('105%');
    expect(formatNumber(7460, '#,##0')).toBe('7,460');
    // bold and wider figures need wider columns
    expect(columnWidthFor('8,203,437.40 EUR', { bold: true })).toBeGreaterThan(columnWidthFor('8,203,437.40'));
  });
});
