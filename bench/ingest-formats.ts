/**
 * The cases of `npm run bench:ingest` for the formats read besides CSV and xlsx: an old binary .xls at BIFF8's
 * maximum of 65,535 data rows per sheet, the same rows as a 100,000-row .xls in XML Spreadsheet 2003 (NetSuite's
 * "Excel" export; BIFF8 cannot hold 100,000 rows in one sheet), and a 100,000-row HTML table named .xls. Each file is
 * measured twice in a child process of its own: the library's own raw parse (SheetJS' XLSX.read with the options
 * the reader uses / htmlparser2 with no-op callbacks, rows counted) and our ingestFile on it.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { once } from 'node:events';
import * as XLSX from '@e965/xlsx';
import { Parser } from 'htmlparser2';
import { createInterface } from 'node:readline';
import { readHtmlRows } from '../src/ingest/formats/html-reader.ts';
import { readSapListRows } from '../src/ingest/formats/sap-list-reader.ts';
import { loadOds } from '../src/ingest/formats/ods.ts';
import { readWorkbookRows } from '../src/ingest/formats/sheetjs-reader.ts';
import { utf8 } from '../src/ingest/formats/text-encoding.ts';
import { loadXls } from '../src/ingest/formats/xls.ts';
import { loadXml2003 } from '../src/ingest/formats/xml2003.ts';

export const FORMAT_KINDS = [
  'raw-sheetjs',
  'raw-html',
  'raw-lines',
  'reader-xls',
  'reader-xml2003',
  'reader-ods',
  'reader-html',
  'reader-sap',
] as const;

type Row = (string | number)[];

/** The rows of a sheet as SheetJS types them (quantities and totals as numbers). */
function typed(header: string[], dataRow: (i: number) => Row, rows: number): Row[] {
  const aoa: Row[] = [header];
  for (let i = 0; i < rows; i++) {
    const r = dataRow(i);
    r[6] = Number(r[6]);
    aoa.push(r);
  }
  return aoa;
}

export async function writeBiff(path: string, header: string[], dataRow: (i: number) => Row, rows: number) {
  const wb = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet(typed(header, dataRow, rows)), 'Requisitions');
  await writeFile(path, XLSX.write(wb, { bookType: 'biff8', type: 'buffer' }) as Buffer);
}

export async function writeXml2003(path: string, header: string[], dataRow: (i: number) => Row, rows: number) {
  const wb = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet(typed(header, dataRow, rows)), 'Requisitions');
  await writeFile(path, XLSX.write(wb, { bookType: 'xlml', type: 'buffer' }) as Buffer);
}

export async function writeOds(path: string, header: string[], dataRow: (i: number) => Row, rows: number) {
  const wb = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet(typed(header, dataRow, rows)), 'Requisitions');
  await writeFile(path, XLSX.write(wb, { bookType: 'ods', type: 'buffer' }) as Buffer);
}

/**
 * An SAP list saved "unconverted": fixed-width cells between `|`, rule lines, the page header (title, date, column
 * header) repeated every 60 lines, and a subtotal line after each requisition.
 */
export async function writeSapList(path: string, header: string[], dataRow: (i: number) => Row, rows: number) {
  const widths = header.map((h, c) => Math.max(h.length, ...[0, 1, 7].map((i) => String(dataRow(i)[c]).length)) + 1);
  const line = (cells: (string | number)[]) =>
    `|${cells.map((v, c) => (typeof v === 'number' ? String(v).padStart(widths[c]!) : String(v).padEnd(widths[c]!))).join('|')}|\n`;
  const rule = `${'-'.repeat(line(header).length - 1)}\n`;
  const pageHead = (page: number) =>
    `\n20.11.2026                 Dynamic List Display                 ${page}\n\n${rule}${line(header)}${rule}`;
  const out = createWriteStream(path);
  let buf = '';
  let page = 0;
  let onPage = 60;
  for (let i = 0; i < rows; i++) {
    if (onPage >= 60) {
      buf += pageHead(++page);
      onPage = 0;
    }
    const r = dataRow(i);
    r[6] = Number(r[6]);
    buf += line(r);
    onPage++;
    if (i % 10 === 9 || i === rows - 1) {
      buf += line(header.map((_, c) => (c === 0 ? '*' : '')));
      onPage++;
    }
    if (buf.length > 1 << 20) {
      if (!out.write(buf)) await once(out, 'drain');
      buf = '';
    }
  }
  out.end(`${buf}${rule}`);
  await once(out, 'finish');
}

export async function writeHtml(path: string, header: string[], dataRow: (i: number) => Row, rows: number) {
  const esc = (v: string | number) => String(v).replace(/&/g, '&amp;').replace(/</g, '&lt;');
  const out = createWriteStream(path);
  out.write(
    `<html><head><meta charset="utf-8"><title>Requisitions</title></head><body><table border="1">\n<tr>${header.map((h) => `<th>${esc(h)}</th>`).join('')}</tr>\n`,
  );
  let buf = '';
  for (let i = 0; i < rows; i++) {
    buf += `<tr>${dataRow(i)
      .map((c) => `<td>${esc(c)}</td>`)
      .join('')}</tr>\n`;
    if (buf.length > 1 << 20) {
      if (!out.write(buf)) await once(out, 'drain');
      buf = '';
    }
  }
  out.end(`${buf}</table></body></html>\n`);
  await once(out, 'finish');
}

/** The raw parse of `kind` (or our reader alone, `reader-*`): rows counted, nothing else. */
export async function rawParse(kind: (typeof FORMAT_KINDS)[number], file: string): Promise<number> {
  if (kind === 'reader-html') {
    let n = 0;
    for await (const b of readHtmlRows(file, utf8('bench'), 'bench')) n += b.length;
    return n;
  }
  if (kind === 'reader-sap') {
    let n = 0;
    for await (const b of readSapListRows(file, utf8('bench'), 'bench')) n += b.length;
    return n;
  }
  if (kind === 'raw-lines') {
    // the SAP list reader's library: node's readline over the same decoded stream, lines counted
    let n = 0;
    const input = createReadStream(file, { highWaterMark: 256 * 1024 }).setEncoding('utf8');
    for await (const _ of createInterface({ input, crlfDelay: Infinity })) n++;
    return n;
  }
  if (kind === 'reader-xls' || kind === 'reader-xml2003' || kind === 'reader-ods') {
    let n = 0;
    const wb =
      kind === 'reader-xls'
        ? await loadXls(file, 'bench')
        : kind === 'reader-ods'
          ? await loadOds(file, 'bench')
          : await loadXml2003(file, 'bench', utf8('bench'));
    for await (const b of readWorkbookRows(wb)) n += b.length;
    return n;
  }
  if (kind === 'raw-sheetjs') {
    const wb = XLSX.read(await readFile(file), {
      type: 'buffer',
      dense: true,
      cellDates: true,
      UTC: true,
      cellText: false,
      cellHTML: false,
      cellNF: false,
      cellStyles: false,
    });
    return (wb.Sheets[wb.SheetNames[0]!]!['!data'] ?? []).length;
  }
  let rows = 0;
  const parser = new Parser(
    {
      onclosetag(name) {
        if (name === 'tr') rows++;
      },
    },
    { decodeEntities: true, lowerCaseTags: true },
  );
  for await (const chunk of createReadStream(file, { encoding: 'utf8', highWaterMark: 256 * 1024 }))
    parser.write(chunk as string);
  parser.end();
  return rows;
}

export const FORMAT_WRITERS = {
  xls: writeBiff,
  xml2003: writeXml2003,
  ods: writeOds,
  html: writeHtml,
  sap: writeSapList,
};
