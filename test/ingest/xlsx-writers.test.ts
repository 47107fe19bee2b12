/**
 * Workbooks as openpyxl (pandas), LibreOffice, Google Sheets and Excel package them (fixtures/xlsx-writers.ts): the
 * sheets keep their names and tab order, the typed cells their values, whatever the zip order, relative or absolute
 * part paths, inline or shared strings; a profile that names its sheet takes the file; the D365 sample saved the
 * openpyxl way is read by `check` exactly as the original.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { compileProfile, ingestFile, loadProfiles, runCheck } from '../../src/ingest/index.ts';
import { listXlsxSheets, readXlsxRows, type XlsxRow } from '../../src/ingest/formats/xlsx-reader.ts';
import type { Requisition } from '../../src/core/requisition.ts';
import {
  rezipAs,
  WRITERS,
  writeXlsxAs,
  zipOrder,
  zipText,
  type SheetSpec,
  type Writer,
} from './fixtures/xlsx-writers.ts';
import { LIMITS, NOW } from './suggest-helpers.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const dir = tempDir('rfq-xlsx-writers-');

const d = (y: number, m: number, day: number) => new Date(Date.UTC(y, m - 1, day));
const LINES: SheetSpec = {
  name: 'Purchase Agreements',
  rows: [
    ['Agreement', 'Line', 'Item', 'Qty', 'Unit', 'Line total', 'Quote deadline'],
    ['PA-1', 1, 'Hydraulic hose 1/2" & fittings', 4, 'pc', 312.5, d(2031, 3, 14)],
    ['PA-1', 2, 'Hose clamp <20 mm>', 40, 'pc', 88, d(2031, 3, 14)],
    ['PA-2', 1, 'Grease cartridge', 12, 'pc', 126.36, d(2031, 4, 1)],
  ],
};
const SHEETS: SheetSpec[] = [{ name: 'Read me', rows: [['Exported for procurement']] }, LINES];

function save(name: string, bytes: Uint8Array): string {
  const p = join(dir, name);
  writeFileSync(p, bytes);
  return p;
}

async function rows(path: string, sheet?: string): Promise<XlsxRow[]> {
  const out: XlsxRow[] = [];
  for await (const b of readXlsxRows(path, sheet)) out.push(...b);
  return out;
}

const profile = compileProfile(
  {
    name: 'agreements',
    source: { sheet: 'Purchase Agreements' },
    due_date_rule: { days_after_ingest: 14 },
    required_date_rule: { days_after_due: 14 },
    fields: {
      requisition: '{Agreement}',
      external_id: '{Agreement}-{Line}',
      product_name: '{Item}',
      qty: '{Qty}',
      uom: '{Unit}',
      estimated_price: '{Line total}',
      due_date: '{Quote deadline}',
      rfq_type: 'Private',
      rfq_category: 'Hydraulics',
      rfq_location: 'Plant 1',
    },
  },
  'agreements.yaml',
);

async function requisitions(path: string, mappingName?: string): Promise<Requisition[]> {
  const out: Requisition[] = [];
  await ingestFile(path, { profiles: [profile], mappingName, limits: LIMITS, now: NOW }, async (r) => {
    out.push(r);
  });
  return out;
}

describe.each(WRITERS)('a workbook written by %s', (writer: Writer) => {
  const path = save(`${writer}.xlsx`, writeXlsxAs(writer, SHEETS));

  it('is packaged the way that writer packages it', () => {
    const order = zipOrder(readFileSync(path));
    const at = (p: string) => order.indexOf(p);
    if (writer === 'openpyxl') {
      expect(at('xl/worksheets/sheet1.xml')).toBeLessThan(at('xl/workbook.xml'));
      expect(order).not.toContain('xl/sharedStrings.xml');
      expect(zipText(readFileSync(path), 'xl/_rels/workbook.xml.rels')).toContain('Target="/xl/worksheets/sheet1.xml"');
      expect(zipText(readFileSync(path), 'xl/worksheets/sheet2.xml')).toContain('t="inlineStr"');
    }
    if (writer === 'libreoffice') expect(at('xl/styles.xml')).toBeGreaterThan(at('xl/worksheets/sheet1.xml'));
    if (writer === 'google-sheets') expect(at('xl/sharedStrings.xml')).toBeGreaterThan(at('xl/worksheets/sheet2.xml'));
    if (writer === 'excel') expect(order.slice(2, 4)).toEqual(['xl/workbook.xml', 'xl/_rels/workbook.xml.rels']);
  });

  it('names its sheets as workbook.xml does, in tab order', async () => {
    expect((await listXlsxSheets(path)).map((s) => s.name)).toEqual(['Read me', 'Purchase Agreements']);
  });

  it('reads the named sheet with its strings, numbers and dates', async () => {
    const got = await rows(path, 'purchase agreements');
    expect(got.map((r) => r.sheet)).toEqual(Array(4).fill('Purchase Agreements'));
    expect(got.map((r) => r.row)).toEqual([1, 2, 3, 4]);
    expect(got.map((r) => r.cells)).toEqual(LINES.rows);
  });

  it('without a sheet name, reads the first tab with any value', async () => {
    const got = await rows(path);
    expect(got.map((r) => [r.sheet, r.cells])).toEqual([['Read me', ['Exported for procurement']]]);
  });

  it('is taken by a profile that names its sheet, with the same requisitions as any other workbook', async () => {
    const reqs = await requisitions(path);
    expect(reqs.map((r) => [r.key, r.lines.map((l) => [l.external_id, l.qty, l.estimated_price])])).toEqual([
      [
        'PA-1',
        [
          ['PA-1-1', 4, 313],
          ['PA-1-2', 40, 88],
        ],
      ],
      ['PA-2', [['PA-2-1', 12, 126]]],
    ]);
    expect(reqs[0]!.due_date).toBe(Date.UTC(2031, 2, 14, 12));
  });
});

describe('sheets the reader must not pick or misname', () => {
  it('a hidden first tab is passed over for the first visible one', async () => {
    const path = save(
      'hidden-first.xlsx',
      writeXlsxAs('excel', [{ name: 'Lookup', state: 'hidden', rows: [['code', 'text']] }, LINES]),
    );
    expect(await listXlsxSheets(path)).toEqual([
      { name: 'Lookup', state: 'hidden' },
      { name: 'Purchase Agreements', state: 'visible' },
    ]);
    expect((await rows(path))[0]!.sheet).toBe('Purchase Agreements');
  });

  it('a sheet name that is not there is refused naming the sheets that are', async () => {
    const path = save('no-such-sheet.xlsx', writeXlsxAs('openpyxl', SHEETS));
    await expect(rows(path, 'Lines')).rejects.toThrow(
      'has no sheet named "Lines" (sheets: "Read me", "Purchase Agreements")',
    );
  });
});

describe('samples/D365_PurchReqLines.xlsx saved the openpyxl way', () => {
  const original = join(ROOT, 'samples', 'D365_PurchReqLines.xlsx');
  const resaved = save('D365_PurchReqLines.xlsx', rezipAs('openpyxl', readFileSync(original)));

  it('passes check with the shipped profile, line for line as the original', async () => {
    const profiles = await loadProfiles(join(ROOT, 'mappings'));
    const run = async (p: string) => {
      const out: string[] = [];
      const code = await runCheck(p, { profiles, limits: LIMITS, now: NOW }, (l) => out.push(l));
      return { code, out };
    };
    expect(zipOrder(readFileSync(resaved)).indexOf('xl/workbook.xml')).toBeGreaterThan(
      zipOrder(readFileSync(resaved)).indexOf('xl/worksheets/sheet2.xml'),
    );
    const want = await run(original);
    const got = await run(resaved);
    expect(got.code, got.out.join('\n')).toBe(0);
    expect(got.out[0]).toMatch(/^mapping profile "dynamics-365"/);
    expect(got.out).toEqual(want.out);
  });
});
