/**
 * Empty lines (an ERP export padded with a million of them) are skipped by the CSV parser itself, not emitted as
 * records one by one (that took 20-90 s for 1,000,000 lines), while row numbers in the report still count rows as
 * a spreadsheet shows the file: every empty line is a row, a quoted multi-line field is one row.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { readCsvRows } from '../../src/ingest/formats/csv-reader.ts';
import { utf8 } from '../../src/ingest/formats/text-encoding.ts';
import { ingestFile, loadProfiles, type MappingProfile } from '../../src/ingest/index.ts';
import type { Requisition } from '../../src/core/requisition.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const NOW = new Date('2026-11-22T10:00:00Z');
const LIMITS = { maxFileBytes: 8 * 1024 * 1024, maxXlsxUncompressedBytes: 1024 * 1024, maxXlsxEntries: 50 };
const HEADER =
  'Requisition,Line,Item,Specification,UoM,Qty,Estimated Total,Title,Description,Due Date,Required Date,RFQ Type,Category,Location';
const line = (key: string, n: number, item: string, qty = '5'): string =>
  `${key},${n},${item},,pc,${qty},100,Title ${key},,2027-03-01,2027-04-01,Private,Cat,Loc`;

let dir: string;
let profiles: MappingProfile[];
beforeAll(async () => {
  dir = tempDir('rfq-csv-empty-');
  profiles = await loadProfiles(`${ROOT}mappings`);
});

describe('CSV empty lines', () => {
  it('a bad row after blank lines and a quoted multi-line field is reported at the row a spreadsheet shows', async () => {
    for (const eol of ['\n', '\r\n']) {
      // Spreadsheet rows: 1 header, 2 E1/1, 3-4 empty, 5 E1/2 (its product name spans 3 lines), 6 empty,
      // 7 E1/3 with qty 0 (bad), 8 ",,," row, 9 E2/1.
      const content = [
        HEADER,
        line('E1', 1, 'Paper'),
        '',
        '',
        line('E1', 2, '"Cable\nreel\n50 m"'),
        '',
        line('E1', 3, 'Toner', '0'),
        ',,,',
        line('E2', 1, 'Desk'),
        '',
        '',
      ]
        .join(eol)
        .replace(/\n/g, eol === '\n' ? '\n' : '\r\n')
        .replace(/\r\r/g, '\r');
      const path = join(dir, `blank-lines-${eol === '\n' ? 'lf' : 'crlf'}.csv`);
      await writeFile(path, content);
      const reqs: Requisition[] = [];
      const s = await ingestFile(path, { profiles, limits: LIMITS, now: NOW }, async (r) => void reqs.push(r));
      expect(s.problems.filter((p) => p.severity === 'error').map((p) => [p.row, p.column, p.reason])).toEqual([
        [7, 'Qty', 'qty must be a positive whole number'],
      ]);
      expect(reqs.map((r) => [r.key, r.lines.map((l) => [l.row, l.product_name.replace(/\r\n/g, '\n')])])).toEqual([
        ['E2', [[9, 'Desk']]],
      ]);
      expect(s.rows.filter((r) => r.requisition === 'E1').map((r) => r.row)).toEqual([2, 5, 7]);
    }
  });

  it('empty lines never reach the row loop: one record per non-empty line, numbered as in a spreadsheet', async () => {
    const path = join(dir, 'padded.csv');
    await writeFile(
      path,
      [HEADER, line('P1', 1, 'Paper'), ...Array<string>(20_000).fill(''), ',,,', line('P1', 2, 'Ink'), '', ''].join(
        '\r\n',
      ),
    );
    const rows: Array<{ row: number; first: string }> = [];
    for await (const batch of readCsvRows(path, utf8('test'), 'test.csv', ','))
      for (const r of batch) rows.push({ row: r.row, first: r.cells[0]! });
    expect(rows).toEqual([
      { row: 1, first: 'Requisition' },
      { row: 2, first: 'P1' },
      { row: 20_003, first: '' },
      { row: 20_004, first: 'P1' },
    ]);
  });
});
