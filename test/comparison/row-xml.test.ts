/**
 * The Comparison sheet's line rows are written as XML (src/comparison/sheets/row-xml.ts) instead of through exceljs'
 * Row and Cell objects: the sheet must be the same, byte for byte, as exceljs writes it from the same values and
 * styles, for every kind of value a line row holds (numbers, texts with markup and characters XML cannot carry,
 * empty texts, dates, styled and unstyled empty cells), row heights, and columns past Z.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Style, Worksheet } from 'exceljs';
import { strFromU8, unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { workbookWriter, writeStreamedFile } from '../../src/comparison/sheets/file-stream.ts';
import { RowXmlWriter } from '../../src/comparison/sheets/row-xml.ts';
import { rowCells, type RowCells, type Value } from '../../src/comparison/sheets/sheet-common.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const money: Partial<Style> = { numFmt: '#,##0.00 "EUR"', font: { bold: true } };
const plain: Partial<Style> = { alignment: { horizontal: 'left', wrapText: true } };
const hatched: Partial<Style> = {
  fill: { type: 'pattern', pattern: 'lightUp', fgColor: { argb: 'FFBFBFBF' }, bgColor: { argb: 'FFFFFFFF' } },
};
const date: Partial<Style> = { numFmt: 'yyyy-mm-dd hh:mm' };

/** Row number, height, and its cells left to right. */
const ROWS: Array<[number, number | undefined, Array<[number, Value, Partial<Style> | undefined]>]> = [
  [
    2,
    undefined,
    [
      [1, 'PR-100001-10', plain],
      [2, `<b>Bolt & "nut"</b> it's \u0001\u0008\u000b\u007f done\ttab\nline`, plain],
      [3, '', plain],
      [4, 12.34, money],
      [5, -0.000001234, money],
      [6, 1e21, undefined],
      [7, null, hatched],
      [8, null, undefined],
      [9, new Date(Date.UTC(2026, 0, 31, 13, 45, 7)), date],
      [27, 0.9423944869534271, money],
      [300, 7, hatched],
    ],
  ],
  [
    3,
    42,
    [
      [1, 'tall row', plain],
      [30, 3, money],
    ],
  ],
  // Only empty cells: exceljs writes the row for its styled cells only when it has a height.
  [
    4,
    undefined,
    [
      [1, null, hatched],
      [2, null, undefined],
    ],
  ],
  [5, 30, [[1, null, hatched]]],
  [6, 20, []],
  [
    7,
    undefined,
    [
      [2, 'first cell past column A', undefined],
      [3, 5, undefined],
    ],
  ],
];

async function sheetXml(dir: string, name: string, write: (ws: Worksheet, xml: RowXmlWriter) => void): Promise<string> {
  const file = join(dir, name);
  await writeStreamedFile(file, async (out) => {
    const wb = await workbookWriter(out, new Date(Date.UTC(2026, 1, 1)));
    const ws = wb.addWorksheet('S') as Worksheet;
    ws.columns = [{ width: 12 }, { width: 30 }];
    const header = ws.getRow(1);
    header.getCell(1).value = 'written by exceljs';
    header.commit();
    write(ws, new RowXmlWriter(wb, ws));
    ws.commit();
    await wb.commit();
  });
  const files = unzipSync(new Uint8Array(await readFile(file)));
  return strFromU8(files['xl/worksheets/sheet1.xml']!) + strFromU8(files['xl/styles.xml']!);
}

function fill(cells: RowCells, row: (typeof ROWS)[number]): void {
  for (const [col, value, style] of row[2]) cells.put(col, value, style);
}

describe('line rows written as XML', () => {
  it('are the XML exceljs writes from the same values and styles', async () => {
    const dir = tempDir('rfq-row-xml-');
    const byExcelJS = await sheetXml(dir, 'exceljs.xlsx', (ws) => {
      for (const row of ROWS) {
        const r = ws.getRow(row[0]);
        if (row[1] !== undefined) r.height = row[1];
        fill(rowCells(r), row);
        r.commit();
      }
    });
    const byXml = await sheetXml(dir, 'xml.xlsx', (_ws, xml) => {
      for (const row of ROWS) {
        const r = xml.row(row[0], row[1]);
        fill(r, row);
        r.commit();
      }
    });
    expect(byExcelJS).toContain('&lt;b&gt;Bolt &amp; &quot;nut&quot;&lt;/b&gt; it&apos;s  done\ttab\nline');
    expect(byExcelJS).toContain('r="KN2"');
    expect(byXml).toBe(byExcelJS);
  });

  it('refuses a column left of one already written, and rows before one not committed', async () => {
    const dir = tempDir('rfq-row-xml-');
    await sheetXml(dir, 'order.xlsx', (ws, xml) => {
      const r = xml.row(2);
      r.put(3, 1, money);
      expect(() => r.put(3, 2, money)).toThrow(/column 3 written after column 3/);
      expect(() => r.put(1, 2, money)).toThrow(/column 1 written after column 3/);
      expect(() => r.note(3, 'a note')).toThrow(/needs exceljs' Row/);
      r.commit();
      ws.getRow(4).getCell(1).value = 'pending';
      expect(() => xml.row(5)).toThrow(/rows before it are not committed/);
      ws.getRow(4).commit();
      expect(() => xml.row(4)).toThrow(/rows before it are not committed/);
    });
  });
});
