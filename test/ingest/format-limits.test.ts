/**
 * Format limits are facts: a sheet whose last used row is the last its format holds (65,536 in an .xls of Excel
 * 97-2003, 16,384 in one of Excel 5 and 95, 1,048,576 in xlsx) may have been cut there by the program that wrote it.
 * The file is never taken as complete in silence: the report and `check` say so naming the limit, and the
 * requisition on that row is held, even when it happens to be complete. The .xls is LibreOffice's save of a
 * 70,000-row export (made in the test: it keeps 65,536 rows and says nothing), the Excel 5 workbook
 * test/helpers/biff5-writer.ts's.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadExcelJS } from '../../src/core/exceljs-loader.ts';
import { runCheck, sniffFile, writeIngestReport } from '../../src/ingest/index.ts';
import { writeBiff5 } from '../helpers/biff5-writer.ts';
import { convertWithLibreOffice, CONVERT_TIMEOUT_MS, hasSoffice } from '../helpers/libreoffice.ts';
import { GENERIC_HEADER } from '../helpers/generic-template.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { genericProfile, genericRows, ingest, LIMITS, NOW, type Ingested } from './generic-rows.ts';

const dir = tempDir('rfq-limits-');
const generic = genericProfile();

/** What check prints for the file, and its exit code. */
async function check(path: string): Promise<{ code: number; out: string }> {
  const lines: string[] = [];
  const code = await runCheck(path, { profiles: [generic], limits: LIMITS, now: NOW }, (l) => lines.push(l));
  return { code, out: lines.join('\n') };
}

/** The sheet ends on `last`, the last row of `what`: said in a note, and the requisition on it held for it. */
function expectCutAt(got: Ingested, last: number, what: RegExp, heldKey: string): void {
  const n = last.toLocaleString('en-US');
  expect(got.summary.notes.some((x) => x.startsWith(`the sheet ends on row ${n}, the last row `) && what.test(x))).toBe(
    true,
  );
  expect(got.summary.heldRequisitions).toBe(1);
  const cut = got.summary.problems.filter((p) => p.severity === 'error');
  expect(cut).toHaveLength(1);
  expect(cut[0]).toMatchObject({ row: last, value: heldKey });
  expect(cut[0]!.reason).toMatch(
    new RegExp(`^the sheet ends on row ${n}, the last row .* holds: it may have been cut there .*; it is held`),
  );
  expect(got.reqs.some((r) => r.key === heldKey)).toBe(false);
}

describe("a sheet full to its format's last row", () => {
  it.skipIf(!hasSoffice())(
    'a 70,000-row export saved as .xls by LibreOffice: the limit named, the requisition cut at row 65,536 held',
    async () => {
      // 17,500 requisitions of 4 lines; the .xls keeps the header and 65,535 lines: the 16,384th requisition is cut
      // after 3 of its lines, and nothing after it is in the file
      const lines = genericRows('LO', 17_500, 4);
      const csv = [GENERIC_HEADER, ...lines].map((r) => r.join(',')).join('\n');
      const xls = await convertWithLibreOffice(await put('export-70000.csv', csv), 'xls', dir);
      expect((await sniffFile(xls, 'export-70000.xls', LIMITS)).format.kind).toBe('xls');
      const got = await ingest(xls, [generic]);
      expectCutAt(got, 65_536, /an \.xls sheet \(BIFF8, Excel 97-2003\)/, 'LO-16384');
      expect(got.reqs).toHaveLength(16_383);
      expect(got.reqs.at(-1)!.key).toBe('LO-16383');
      const { code, out } = await check(xls);
      expect(code).toBe(1);
      expect(out).toMatch(
        /^note: the sheet ends on row 65,536, the last row an \.xls sheet \(BIFF8, Excel 97-2003\) holds/m,
      );
      expect(out).toMatch(
        /^error: export-70000\.xls row 65536, column Requisition \("LO-16384"\): the sheet ends on row 65,536, the last row/m,
      );
    },
    3 * CONVERT_TIMEOUT_MS,
  );

  it('an Excel 5 workbook at exactly 16,384 rows, its last requisition complete: still held, and said', async () => {
    // header + 16,383 lines: 5,461 requisitions of 3 lines, the last one whole; nothing tells it is
    const path = join(dir, 'excel5-full.xls');
    await writeFile(
      path,
      writeBiff5({
        excel: 5,
        codepage: 1252,
        sheets: [{ name: 'Export', rows: [GENERIC_HEADER, ...genericRows('B5', 5461, 3)] }],
      }),
    );
    const got = await ingest(path, [generic]);
    expectCutAt(got, 16_384, /an \.xls sheet \(BIFF5\/7, Excel 5 and 95\)/, 'B5-5461');
    expect(got.reqs).toHaveLength(5460);
    // the report says it too
    const report = join(dir, 'excel5-full.report.xlsx');
    await writeIngestReport(got.summary, report);
    const { Workbook } = await loadExcelJS();
    const wb = new Workbook();
    await wb.xlsx.readFile(report);
    const summary: string[] = [];
    wb.getWorksheet('Summary')!.eachRow((r) => summary.push(r.values.toString()));
    expect(
      summary.some((l) => l.includes(',Note,the sheet ends on row 16,384, the last row an .xls sheet (BIFF5/7')),
    ).toBe(true);
  }, 60_000);

  it("an xlsx sheet whose last used row is 1,048,576: the limit named, that row's requisition held", async () => {
    const { Workbook } = await loadExcelJS();
    const wb = new Workbook();
    const ws = wb.addWorksheet('Export');
    ws.addRow(GENERIC_HEADER);
    for (const r of genericRows('X', 2, 2)) ws.addRow(r);
    ws.getRow(1_048_576).values = genericRows('X', 3, 2).at(-1)!;
    const path = join(dir, 'full.xlsx');
    await wb.xlsx.writeFile(path);
    const got = await ingest(path, [generic]);
    expectCutAt(got, 1_048_576, /an xlsx sheet/, 'X-3');
    expect(got.reqs.map((r) => r.key)).toEqual(['X-1', 'X-2']);
  });

  it("a sheet that fills its format's last column: the limit named", async () => {
    const { Workbook } = await loadExcelJS();
    const wb = new Workbook();
    const ws = wb.addWorksheet('Export');
    ws.addRow(GENERIC_HEADER);
    for (const r of genericRows('C', 1, 2)) ws.addRow(r);
    ws.getRow(1).getCell(16_384).value = 'Remark';
    const path = join(dir, 'wide.xlsx');
    await wb.xlsx.writeFile(path);
    const got = await ingest(path, [generic]);
    expect(got.reqs.map((r) => r.key)).toEqual(['C-1']);
    expect(got.summary.notes).toEqual([
      'the sheet fills column 16,384, the last column an xlsx sheet holds: columns after it may have been cut by the program that wrote the file',
    ]);
  });

  it('a sheet one row short of the limit is read as it is: no note, nothing held', async () => {
    const path = join(dir, 'excel5-short.xls');
    await writeFile(
      path,
      writeBiff5({
        excel: 5,
        codepage: 1252,
        sheets: [{ name: 'Export', rows: [GENERIC_HEADER, ...genericRows('S5', 5460, 3), ...genericRows('T5', 1, 2)] }],
      }),
    );
    const got = await ingest(path, [generic]);
    expect(got.summary.notes).toEqual([]);
    expect(got.summary.heldRequisitions).toBe(0);
    expect(got.reqs).toHaveLength(5461);
  }, 60_000);
});

async function put(name: string, data: string): Promise<string> {
  const p = join(dir, name);
  await writeFile(p, data);
  return p;
}
