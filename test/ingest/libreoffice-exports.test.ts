/**
 * One workbook, saved by LibreOffice in the formats a buyer picks (xlsx, .xls, .ods, HTML, CSV), reads the same:
 *
 * - rows hidden in the sheet (a filter, or by hand) are never read with no word: the profile's `source.hidden_rows`
 *   holds their requisitions (the default), leaves them out or reads them, and the report and `check` name them
 *   either way. LibreOffice leaves hidden rows out of its HTML and keeps them in its CSV, as shown;
 * - a 00:00 date and time formatted `DD.MM.YYYY HH:MM` is 00:00 from every format (it was the profile's default time
 *   from xlsx, and 00:00 from the HTML and CSV of the same workbook);
 * - a profile's `sheet` names the sheet in the HTML export of a workbook of several sheets, and a sheet not there is
 *   refused as such.
 *
 * The workbook is written with exceljs (a notes sheet, then the lines: a filter on the header, PR-2's two rows
 * hidden), then saved by LibreOffice into each format.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadExcelJS } from '../../src/core/exceljs-loader.ts';
import { runCheck } from '../../src/ingest/index.ts';
import { convertWithLibreOffice, CONVERT_TIMEOUT_MS, hasSoffice } from '../helpers/libreoffice.ts';
import { GENERIC_HEADER } from '../helpers/generic-template.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { genericProfile, genericRows, ingest, LIMITS, NOW, refusal } from './generic-rows.ts';

const dir = tempDir('rfq-lo-exports-');
const DATES = {
  formats: ['dd.MM.yyyy HH:mm', 'dd.MM.yyyy', 'iso', 'excel_serial'],
  time_zone: 'UTC',
  default_time: '17:00',
};
const profile = (hidden?: 'hold' | 'skip' | 'read') =>
  genericProfile({ dates: DATES, source: { sheet: 'Requisitions', ...(hidden ? { hidden_rows: hidden } : {}) } });

const files: Record<string, string> = {};

beforeAll(async () => {
  if (!hasSoffice()) return;
  const { Workbook } = await loadExcelJS();
  const wb = new Workbook();
  const notes = wb.addWorksheet('Notes');
  notes.addRow(['Export of open requisitions']);
  notes.addRow(['Run', '2026-11-20']);
  const ws = wb.addWorksheet('Requisitions');
  ws.addRow(GENERIC_HEADER);
  for (const r of genericRows('PR', 3, 2)) {
    r[9] = new Date(Date.UTC(2027, 2, 1, 0, 0)) as unknown as string; // 00:00, shown with its time
    r[10] = new Date(Date.UTC(2027, 3, 1)) as unknown as string;
    ws.addRow(r);
  }
  ws.getColumn(10).numFmt = 'DD.MM.YYYY HH:MM';
  ws.getColumn(11).numFmt = 'DD.MM.YYYY';
  ws.autoFilter = 'A1:N7';
  ws.getRow(4).hidden = true;
  ws.getRow(5).hidden = true;
  const source = join(dir, 'requisitions.xlsx');
  await wb.xlsx.writeFile(source);
  files.source = source;
  // beside it, not over it (LibreOffice's xlsx would take the source's name)
  const lo = join(dir, 'lo');
  await mkdir(lo);
  for (const format of ['xlsx', 'xls', 'ods', 'html']) files[format] = await convertWithLibreOffice(source, format, lo);
  // the second sheet, cells as shown (LibreOffice's CSV export options: separator, quote, UTF-8, ..., sheet 2)
  files.csv = await convertWithLibreOffice(
    source,
    'csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,true,false,false,2',
    lo,
    'requisitions-Requisitions.csv',
  );
}, 6 * CONVERT_TIMEOUT_MS);

describe.skipIf(!hasSoffice())('a workbook saved by LibreOffice', () => {
  it('a filtered sheet (xlsx, .xls, .ods): the hidden rows named, their requisition held by default', async () => {
    for (const f of ['source', 'xlsx', 'xls', 'ods']) {
      const { summary, reqs } = await ingest(files[f]!, [profile()]);
      expect(
        reqs.map((r) => r.key),
        f,
      ).toEqual(['PR-1', 'PR-3']);
      expect(summary.heldRequisitions, f).toBe(1);
      expect(
        summary.problems.map((p) => [p.row, p.value, p.severity]),
        f,
      ).toEqual([
        [4, 'PR-2', 'error'],
        [5, 'PR-2', 'error'],
      ]);
      expect(summary.problems[0]!.reason).toMatch(
        /^is hidden in the sheet \(filtered out or hidden by hand\): its requisition is held/,
      );
      expect(summary.notes, f).toEqual([
        "2 row(s) are hidden in the sheet (filtered out or hidden by hand): 4, 5; their requisitions are held (the profile's source.hidden_rows: hold)",
      ]);
    }
    const out: string[] = [];
    expect(await runCheck(files.xls!, { profiles: [profile()], limits: LIMITS, now: NOW }, (l) => out.push(l))).toBe(1);
    expect(out.filter((l) => /row [45], column Requisition \("PR-2"\): is hidden in the sheet/.test(l))).toHaveLength(
      2,
    );
    expect(out).toContain(
      `note: ${"2 row(s) are hidden in the sheet (filtered out or hidden by hand): 4, 5; their requisitions are held (the profile's source.hidden_rows: hold)"}`,
    );
  });

  it('hidden_rows: skip leaves them out, listed as skipped; read reads them, each with a warning', async () => {
    for (const f of ['xlsx', 'xls', 'ods']) {
      const skip = await ingest(files[f]!, [profile('skip')]);
      expect(
        skip.reqs.map((r) => r.key),
        f,
      ).toEqual(['PR-1', 'PR-3']);
      expect(skip.summary.skippedRows, f).toBe(2);
      expect(skip.summary.rows.filter((r) => r.status === 'skipped').map((r) => [r.row, r.note])).toEqual([
        [
          4,
          "hidden in the sheet (filtered out or hidden by hand): left out, as the profile's source.hidden_rows is skip",
        ],
        [
          5,
          "hidden in the sheet (filtered out or hidden by hand): left out, as the profile's source.hidden_rows is skip",
        ],
      ]);
      const read = await ingest(files[f]!, [profile('read')]);
      expect(
        read.reqs.map((r) => r.key),
        f,
      ).toEqual(['PR-1', 'PR-2', 'PR-3']);
      expect(read.summary.warnings, f).toBe(2);
      expect(read.summary.notes[0]).toMatch(
        /^2 row\(s\) are hidden .*: 4, 5; read \(the profile's source.hidden_rows: read\)$/,
      );
    }
  });

  it('a 00:00 date and time formatted DD.MM.YYYY HH:MM: the same due time from xlsx, .xls, .ods, HTML and CSV', async () => {
    for (const f of ['source', 'xlsx', 'xls', 'ods', 'html', 'csv']) {
      const { reqs } = await ingest(files[f]!, [profile()]);
      expect(
        reqs.map((r) => [r.key, new Date(r.due_date).toISOString(), new Date(r.required_date!).toISOString()]),
        f,
      ).toContainEqual(['PR-1', '2027-03-01T00:00:00.000Z', '2027-04-01T17:00:00.000Z']);
    }
  });

  it("HTML of a workbook of several sheets: a profile's sheet names its sheet; a sheet not there is refused so", async () => {
    expect((await ingest(files.html!, [profile()])).reqs.map((r) => r.key)).toEqual(['PR-1', 'PR-3']);
    const elsewhere = genericProfile(
      { match: { filename: ['requisitions*'] }, dates: DATES, source: { sheet: 'Bestellungen' } },
      'elsewhere',
    );
    expect(await refusal(files.html!, [elsewhere])).toBe(
      'requisitions.html: has no sheet named "Bestellungen" (sheets: "Notes", "Requisitions")',
    );
  });
});
