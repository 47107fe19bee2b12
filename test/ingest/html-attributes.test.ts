/**
 * The HTML reader takes each tag's attributes one by one (htmlparser2's onattribute, for speed): a cell's spans and a
 * table's id must read as a browser reads them whatever their order, case or repetition (the first of a name
 * counts), so the columns after a spanning cell stay in place; a row's `style="display:none"` (Excel's export of a
 * filtered sheet) or `hidden` marks it hidden. A heading before a table names it as LibreOffice names a sheet.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listHtmlTables, readHtmlRows } from '../../src/ingest/formats/html-reader.ts';
import { utf8 } from '../../src/ingest/formats/text-encoding.ts';
import type { HeadRow } from '../../src/ingest/formats/index.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const dir = tempDir('rfq-html-attrs-');

async function cells(html: string, table?: string): Promise<string[][]> {
  const p = join(dir, 'page.html');
  await writeFile(p, html);
  const out: HeadRow[] = [];
  for await (const b of readHtmlRows(p, utf8('test'), 'page.html', table)) out.push(...b);
  return out.map((r) => r.cells as string[]);
}

async function rows(html: string, table?: string): Promise<HeadRow[]> {
  const p = join(dir, 'page.html');
  await writeFile(p, html);
  const out: HeadRow[] = [];
  for await (const b of readHtmlRows(p, utf8('test'), 'page.html', table)) out.push(...b);
  return out;
}

describe('HTML cell and table attributes', () => {
  it('rowspan before colspan, upper case and repeated attributes: the first of each name, columns in place', async () => {
    const html = `<table><tr><th>A</th><th>B</th><th>C</th><th>D</th></tr>
      <tr><td ROWSPAN="2" class="x" COLSPAN=2 colspan="3">ab</td><td>c2</td><td rowspan=2 rowspan=5>d2</td></tr>
      <tr><td>c3</td></tr>
      <tr><td>a4</td><td colspan="x">b4</td><td colspan="0">c4</td><td rowspan="">d4</td></tr></table>`;
    expect(await cells(html)).toEqual([
      ['A', 'B', 'C', 'D'],
      ['ab', '', 'c2', 'd2'],
      ['', '', 'c3', ''],
      ['a4', 'b4', 'c4', 'd4'],
    ]);
  });

  it("a table's first id names it; attributes of other elements are not the table's", async () => {
    const html = `<div id="not-a-table"><table ID=" first " id="second"><tr><td id="cell" colspan="2">v</td><td>w</td></tr></table>
      <table id="  " id="later"><tr><td>x</td></tr></table></div>`;
    const p = join(dir, 'ids.html');
    await writeFile(p, html);
    expect((await listHtmlTables(p, utf8('test'), 'ids.html')).map((t) => t.name)).toEqual(['first', 'Table 2']);
    expect(await cells(html, 'first')).toEqual([['v', '', 'w']]);
    expect(await cells(html, 'Table 2')).toEqual([['x']]);
    await expect(cells(html, 'later')).rejects.toThrow(/later/);
  });

  it("rows Excel hides (height=0 style='display:none') or marked hidden are marked; others are not", async () => {
    const html = `<table><tr><td>Requisition</td></tr><tr height=0 style='display: NONE'><td>PR-2</td></tr>
      <tr style="color:red" class="display:none"><td>PR-3</td></tr><tr hidden><td>PR-4</td></tr><tr><td>PR-5</td></tr></table>`;
    expect((await rows(html)).map((r) => [r.cells[0], r.hidden ?? false])).toEqual([
      ['Requisition', false],
      ['PR-2', true],
      ['PR-3', false],
      ['PR-4', true],
      ['PR-5', false],
    ]);
  });

  it('a heading before a table names it ("Sheet 2: Lines" is known as Lines and as the whole heading)', async () => {
    const html = `<h1>Overview</h1><p>two sheets</p><a name="t0"><h1>Sheet 1: <em>Notes</em></h1></a><table><tr><td>n</td></tr></table>
      <h2>Tabelle 2: <em>Lines</em></h2><table><tr><td>l</td></tr></table><table><tr><td>other</td></tr></table>`;
    const p = join(dir, 'sheets.html');
    await writeFile(p, html);
    expect((await listHtmlTables(p, utf8('test'), 'sheets.html')).map((t) => t.name)).toEqual([
      'Notes',
      'Lines',
      'Table 3',
    ]);
    expect(await cells(html, 'lines')).toEqual([['l']]);
    expect(await cells(html, 'Tabelle 2: Lines')).toEqual([['l']]);
    expect(await cells(html, 'Table 3')).toEqual([['other']]);
  });
});
