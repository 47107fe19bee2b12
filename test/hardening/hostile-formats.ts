/**
 * Hostile files in the formats read besides CSV and xlsx (binary .xls, XML Spreadsheet 2003, HTML tables, .ods, SAP
 * lists): entity expansion, deep nesting, a corrupt BIFF record, huge cells, formulas, merged cells, hidden sheets,
 * several sheets or tables, a CODEPAGE that lies, an encoding no decoder knows, a sheet full to its last row. Each is a named refusal or a correct read; hostile-files.ts adds them to its cases, so
 * the pipeline part drops them into one inbox with all the others (nothing else may be blocked).
 */
import { mkdir, open, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as XLSX from '@e965/xlsx';
import { writeBiff5 } from '../helpers/biff5-writer.ts';
import type { HostileCase, Template, TemplateLine } from './hostile-files.ts';

type Add = (c: Omit<HostileCase, 'drop'> & { drop?: HostileCase['drop'] }) => void;
type Lines = (prefix: string, n: number, per?: number) => TemplateLine[];

async function put(dir: string, name: string, data: string | Uint8Array): Promise<string> {
  await mkdir(dir, { recursive: true });
  const p = join(dir, name);
  await writeFile(p, data);
  return p;
}

/** The template's rows with quantities and prices as numbers (as a workbook types them). */
function typedRows(t: Template, lines: TemplateLine[]): unknown[][] {
  const qty = t.header.indexOf('Qty');
  const price = t.header.indexOf('Estimated Total');
  return [t.header, ...lines.map((l) => t.cells(l).map((v, i) => (i === qty || i === price ? Number(v) : v)))];
}

function workbook(sheets: Array<[string, XLSX.WorkSheet, number?]>): XLSX.WorkBook {
  const wb = XLSX.utils.book_new();
  for (const [name, ws] of sheets) XLSX.utils.book_append_sheet(wb, ws, name);
  wb.Workbook = { Sheets: sheets.map(([name, , hidden]) => ({ name, Hidden: (hidden ?? 0) as 0 | 1 | 2 })) };
  return wb;
}

function write(wb: XLSX.WorkBook, bookType: 'biff8' | 'xlml' | 'ods' | 'xlsx'): Uint8Array {
  return XLSX.write(wb, { bookType, type: 'buffer' }) as Uint8Array;
}

/** A BIFF8 workbook whose first LABEL record (a text cell) claims a length past the end of its stream. */
function corruptBiff(t: Template, lines: TemplateLine[]): Uint8Array {
  const good = write(workbook([['Sheet1', XLSX.utils.aoa_to_sheet(typedRows(t, lines))]]), 'biff8');
  const cfb = XLSX.CFB.read(good, { type: 'buffer' });
  const entry = XLSX.CFB.find(cfb, 'Workbook')!;
  const c = Buffer.from(entry.content as Uint8Array);
  let off = 0;
  let seenSheet = 0;
  while (off + 4 <= c.length) {
    const type = c.readUInt16LE(off);
    const len = c.readUInt16LE(off + 2);
    if (type === 0x0809) seenSheet++; // BOF: the globals, then the sheet
    if (seenSheet === 2 && (type === 0x0204 || type === 0x00fd)) {
      c.writeUInt16LE(0xffff, off + 2);
      break;
    }
    off += 4 + len;
  }
  entry.content = c;
  entry.size = c.length;
  return XLSX.CFB.write(cfb, { type: 'buffer' }) as Uint8Array;
}

function htmlTable(rows: unknown[][], attrs = ''): string {
  const esc = (v: unknown) => String(v).replace(/&/g, '&amp;').replace(/</g, '&lt;');
  return `<table${attrs}>${rows.map((r) => `<tr>${r.map((v) => `<td>${esc(v)}</td>`).join('')}</tr>`).join('')}</table>`;
}

function sapList(rows: string[][], perPage: number): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  const line = (r: string[]) => `|${r.map((v, i) => v.padEnd(widths[i]!)).join('|')}|`;
  const rule = '-'.repeat(line(rows[0]!).length);
  const out: string[] = [];
  const body = rows.slice(1);
  for (let p = 0; p * perPage < body.length; p++) {
    out.push(`Hardening list display                 page ${p + 1}`, '', rule, line(rows[0]!), rule);
    for (const r of body.slice(p * perPage, (p + 1) * perPage)) out.push(line(r));
    out.push(line(rows[0]!.map((_, i) => (i === 0 ? '*' : ''))), rule, '');
  }
  return out.join('\r\n');
}

export function addFormatCases(
  add: Add,
  t: Template,
  linesOf: Lines,
  failed: (cause: RegExp) => HostileCase['expect'],
  archive: (requisitions: number, lines: number) => HostileCase['expect'],
): void {
  const rows = (prefix: string, n = 1, per = 2) => typedRows(t, linesOf(prefix, n, per));
  add({
    id: 'xml2003-billion-laughs',
    fileName: 'saved-search-laughs.xls',
    what: 'XML Spreadsheet 2003 with nested internal entities (billion laughs)',
    expect: failed(/DTD|entit/i),
    write: (d) => {
      let dtd = '<!ENTITY l0 "ha">';
      for (let i = 1; i <= 10; i++) dtd += `<!ENTITY l${i} "${`&l${i - 1};`.repeat(10)}">`;
      const xml = (write(workbook([['S', XLSX.utils.aoa_to_sheet(rows('XLAUGH'))]]), 'xlml') as Buffer)
        .toString('utf8')
        .replace('?>', `?>\n<!DOCTYPE Workbook [${dtd}]>`)
        .replace('Bolt M6x20', '&l10;');
      return put(d, 'saved-search-laughs.xls', xml);
    },
  });
  add({
    id: 'html-deep-nesting',
    fileName: 'deep-report.xls',
    what: 'HTML page nesting 200,000 elements deep around its table (the parser would take minutes)',
    expect: failed(/nested more than [\d,]+ deep/),
    write: (d) =>
      put(
        d,
        'deep-report.xls',
        `<html><body>${'<div>'.repeat(200_000)}${htmlTable(rows('HDEEP'))}${'</div>'.repeat(200_000)}</body></html>`,
      ),
  });
  add({
    id: 'html-nested-tables',
    fileName: 'nested-tables.xls',
    what: 'HTML page with tables nested 500 deep',
    expect: failed(/nested more than \d+ deep/),
    write: (d) => put(d, 'nested-tables.xls', `<html><body>${'<table><tr><td>'.repeat(500)}x</body></html>`),
  });
  add({
    id: 'xls-corrupt-record',
    fileName: 'xxl-corrupt.xls',
    what: 'binary .xls whose text cell record claims a length past the end of its stream',
    expect: failed(/corrupt binary Excel workbook/),
    write: (d) => put(d, 'xxl-corrupt.xls', corruptBiff(t, linesOf('XCORR', 1))),
  });
  add({
    id: 'html-huge-cell',
    fileName: 'huge-cell-report.xls',
    what: 'HTML table whose one product name is a 50 MB cell',
    expect: { ...failed(/longer than [\d,]+ characters/), createsNothing: true },
    write: async (d) => {
      await mkdir(d, { recursive: true });
      const p = join(d, 'huge-cell-report.xls');
      const fh = await open(p, 'w');
      try {
        const [head, first] = rows('HHUGE', 1, 1) as string[][];
        await fh.write(`<html><body><table>${htmlTable([head!]).slice(7, -8)}<tr><td>${first![0]}</td><td>1</td><td>`);
        const chunk = Buffer.alloc(1024 * 1024, 'A');
        for (let i = 0; i < 50; i++) await fh.write(chunk);
        await fh.write('</td></tr></table></body></html>');
      } finally {
        await fh.close();
      }
      return p;
    },
  });
  add({
    id: 'xml2003-huge',
    fileName: 'huge-saved-search.xls',
    what: 'XML Spreadsheet 2003 of 40 MB (one 40 MB cell): over the in-memory budget of the suite (256 MiB)',
    expect: { ...failed(/MAX_IN_MEMORY_READ_BYTES/), createsNothing: true },
    // written in chunks, never built whole: a synchronous 40 MB write would stall the pipeline test's slow copy
    write: async (d) => {
      await mkdir(d, { recursive: true });
      const p = join(d, 'huge-saved-search.xls');
      const xml = (write(workbook([['S', XLSX.utils.aoa_to_sheet(rows('XHUGE'))]]), 'xlml') as Buffer).toString();
      const [before, after] = xml.split('Bolt M6x20');
      const fh = await open(p, 'w');
      try {
        await fh.write(before!);
        const chunk = Buffer.alloc(1024 * 1024, 'A');
        for (let i = 0; i < 40; i++) await fh.write(chunk);
        await fh.write(after!);
      } finally {
        await fh.close();
      }
      return p;
    },
  });
  add({
    id: 'ods-formulas',
    fileName: 'formulas.ods',
    what: '.ods whose quantities are formulas (their cached results are read, never computed)',
    expect: archive(1, 2),
    write: (d) => {
      const ws = XLSX.utils.aoa_to_sheet(rows('OFORM'));
      const qty = t.header.indexOf('Qty');
      ws[XLSX.utils.encode_cell({ r: 1, c: qty })] = { t: 'n', v: 3, f: '1+2' };
      ws[XLSX.utils.encode_cell({ r: 2, c: qty })] = {
        t: 'n',
        v: 4,
        f: `${XLSX.utils.encode_cell({ r: 1, c: qty })}+1`,
      };
      return put(d, 'formulas.ods', write(workbook([['S', ws]]), 'ods'));
    },
  });
  add({
    id: 'xls-merged-title',
    fileName: 'merged-title.xls',
    what: 'binary .xls with a merged title row above the header and a merged empty range beside the data',
    expect: archive(1, 2),
    write: (d) => {
      const data = rows('XMERGE');
      const ws = XLSX.utils.aoa_to_sheet([['Open purchase requisitions'], [], ...data]);
      ws['!merges'] = [
        { s: { r: 0, c: 0 }, e: { r: 0, c: t.header.length - 1 } },
        { s: { r: 2, c: t.header.length }, e: { r: 4, c: t.header.length + 1 } },
      ];
      return put(d, 'merged-title.xls', write(workbook([['Sheet1', ws]]), 'biff8'));
    },
  });
  add({
    id: 'xlsx-two-row-header',
    fileName: 'two-row-header.xlsx',
    what: 'xlsx whose header is over two rows with a blank top: "Requisition" and "Line" merged down, "Item details" over the item columns, nothing above the others',
    expect: archive(1, 2),
    write: (d) => {
      const [header, ...data] = rows('X2ROW') as string[][];
      const items = header!.indexOf('Estimated Total');
      const top = header!.map((h, i) => (i < 2 ? h : i === 2 ? 'Item details' : null));
      const lower = header!.map((h, i) => (i < 2 ? null : h));
      const ws = XLSX.utils.aoa_to_sheet([top, lower, ...data]);
      ws['!merges'] = [
        { s: { r: 0, c: 0 }, e: { r: 1, c: 0 } },
        { s: { r: 0, c: 1 }, e: { r: 1, c: 1 } },
        { s: { r: 0, c: 2 }, e: { r: 0, c: items } },
      ];
      return put(d, 'two-row-header.xlsx', write(workbook([['Sheet1', ws]]), 'xlsx'));
    },
  });
  add({
    id: 'xls-hidden-sheet',
    fileName: 'hidden-sheet.xls',
    what: 'binary .xls with a hidden sheet of other lines before the visible one: the visible sheet is read',
    expect: archive(1, 2),
    write: (d) =>
      put(
        d,
        'hidden-sheet.xls',
        write(
          workbook([
            ['Old', XLSX.utils.aoa_to_sheet(rows('XHIDDEN', 3)), 1],
            ['Current', XLSX.utils.aoa_to_sheet(rows('XVISIBLE'))],
          ]),
          'biff8',
        ),
      ),
  });
  add({
    id: 'xml2003-several-sheets',
    fileName: 'several-sheets.xls',
    what: 'XML Spreadsheet 2003 with a cover sheet and a notes sheet before the data (no sheet named)',
    expect: archive(2, 4),
    write: (d) =>
      put(
        d,
        'several-sheets.xls',
        write(
          workbook([
            ['Cover', XLSX.utils.aoa_to_sheet([['Requisition export'], ['Run', '2026-11-20']])],
            [
              'Notes',
              XLSX.utils.aoa_to_sheet([
                ['Column', 'Meaning'],
                ['Qty', 'Quantity'],
              ]),
            ],
            ['Data', XLSX.utils.aoa_to_sheet(rows('XSEVERAL', 2))],
          ]),
          'xlml',
        ),
      ),
  });
  add({
    id: 'html-several-tables',
    fileName: 'several-tables.xls',
    what: 'HTML page with a parameters table, a layout table and then the data table',
    expect: archive(2, 4),
    write: (d) =>
      put(
        d,
        'several-tables.xls',
        `<html><body>${htmlTable([
          ['Operating unit', 'Vision'],
          ['Status', 'Approved'],
        ])}<table><tr><td>${htmlTable(rows('HSEVERAL', 2))}</td></tr></table></body></html>`,
      ),
  });
  add({
    id: 'xls-biff5-codepage-lies',
    fileName: 'excel95-lies.xls',
    what: 'Excel 5 workbook whose CODEPAGE says 1252 while its text is UTF-8 ("Ł" is C5 81; 0x81 is no Windows-1252 character)',
    expect: failed(/codepage 1252 \(Windows-1252\), as its CODEPAGE record declares/),
    write: (d) =>
      put(
        d,
        'excel95-lies.xls',
        writeBiff5({
          excel: 5,
          codepage: 1252,
          sheets: [
            {
              name: 'Export',
              rows: rows('XLIES').map(
                (r) => r.map((v) => (v === 'Bolt M6x20' ? 'Łożysko 6204' : v)) as Array<string | number>,
              ),
            },
          ],
          bytes: (s) => Buffer.from(s, 'utf8'),
        }),
      ),
  });
  add({
    id: 'xml2003-unknown-encoding',
    fileName: 'saved-search-klingon.xls',
    what: 'XML Spreadsheet 2003 whose declaration names an encoding no decoder knows',
    expect: failed(/declares the encoding "x-klingon-1" \(its XML declaration\), which rfq-sync cannot decode/),
    write: (d) =>
      put(
        d,
        'saved-search-klingon.xls',
        (write(workbook([['S', XLSX.utils.aoa_to_sheet(rows('XKLINGON'))]]), 'xlml') as Buffer)
          .toString('utf8')
          .replace('encoding="UTF-8"', 'encoding="x-klingon-1"'),
      ),
  });
  add({
    id: 'xls-biff5-row-limit',
    fileName: 'excel5-full-sheet.xls',
    what: "Excel 5 workbook of exactly 16,384 rows (its format's last: 129 requisitions of 127 lines), the last requisition complete: held all the same",
    expect: { ...archive(128, 128 * 127), held: 1 },
    write: (d) =>
      put(
        d,
        'excel5-full-sheet.xls',
        writeBiff5({
          excel: 5,
          codepage: 1252,
          sheets: [{ name: 'Export', rows: typedRows(t, linesOf('XFULL', 129, 127)) as Array<Array<string | number>> }],
        }),
      ),
  });
  add({
    id: 'sap-list-pages',
    fileName: 'sap-list-pages.txt',
    what: 'SAP list (unconverted) of 40 requisitions over 10 pages with page headers and subtotals',
    expect: archive(40, 80),
    write: (d) =>
      put(
        d,
        'sap-list-pages.txt',
        sapList(
          rows('SAPPG', 40).map((r) => r.map(String)),
          8,
        ),
      ),
  });
}
