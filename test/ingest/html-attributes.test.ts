/**
 * The HTML reader takes each tag's attributes one by one (htmlparser2's onattribute, for speed): a cell's spans and a
 * table's id must read as a browser reads them whatever their order, case or repetition (the first of a name
 * counts), so the columns after a spanning cell stay in place.
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
});
