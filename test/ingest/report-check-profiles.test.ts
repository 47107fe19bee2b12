/**
 * What IT and procurement read: the per-file xlsx report, the `check` dry run (output and exit code, honest counts),
 * and the error a broken mapping profile gives (file and field named).
 */
import ExcelJS from 'exceljs';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { MappingError } from '../../src/core/errors.ts';
import { ingestFile, loadProfiles, runCheck, writeIngestReport, type MappingProfile } from '../../src/ingest/index.ts';
import { MAX_REPORTED } from '../../src/ingest/row-report.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const NOW = new Date('2026-11-22T10:00:00Z');
const LIMITS = { maxFileBytes: 1024 * 1024, maxXlsxUncompressedBytes: 1024 * 1024, maxXlsxEntries: 50 };
const HEADER =
  'Requisition,Line,Item,Specification,UoM,Qty,Estimated Total,Title,Description,Due Date,Required Date,RFQ Type,Category,Location';

let dir: string;
let profiles: MappingProfile[];
beforeAll(async () => {
  dir = tempDir('rfq-ingest-report-');
  profiles = await loadProfiles(`${ROOT}mappings`);
});

const BAD = [
  HEADER,
  'R1,1,=HYPERLINK("http://evil"),,pc,2,10,Title,,2027-03-01,2027-04-01,Private,C,L',
  'R1,2,Bolt,,pc,1.5,10,Title,,2027-03-01,2027-04-01,Private,C,L',
  'R2,1,Nut,,pc,3,10.5,Title,,2027-03-01,2027-04-01,Private,C,L',
].join('\n');

describe('per-file report', () => {
  it('lists every row with requisition and status, rejects with column, value and reason; no formula cells', async () => {
    const file = join(dir, 'generic-bad.csv');
    await writeFile(file, BAD);
    const s = await ingestFile(file, { profiles, limits: LIMITS, now: NOW }, async () => {});
    const out = join(dir, 'reports', 'generic-bad.csv.report.xlsx');
    await writeIngestReport(s, out, { notes: ['=1+1 note from the caller'] });
    expect((await readdir(join(dir, 'reports'))).filter((n) => n.endsWith('.tmp'))).toEqual([]);

    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(out);
    const summary = wb.getWorksheet('Summary')!;
    const kv = Object.fromEntries(
      summary
        .getSheetValues()
        .slice(1)
        .map((r) => [(r as unknown[])[1], (r as unknown[])[2]]),
    );
    expect(kv).toMatchObject({
      File: 'generic-bad.csv',
      'Mapping profile': 'generic',
      'Requisitions to create': 1,
      'Lines to create': 1,
      'Requisitions held back': 1,
      'Rejected rows': 1,
      Warnings: 1,
      Note: "'=1+1 note from the caller",
    });
    const rows = wb
      .getWorksheet('Rows')!
      .getSheetValues()
      .slice(1)
      .map((r) => (r as unknown[]).slice(1));
    expect(rows).toEqual([
      ['Row', 'Requisition', 'Status', 'Severity', 'Column', 'Value', 'Reason'],
      [2, 'R1', 'held back (another row of its requisition is rejected)', '', '', '', ''],
      [
        3,
        'R1',
        'rejected',
        'error',
        'Qty',
        '1.5',
        'qty must be a whole number (the profile names no qty_rounding rule)',
      ],
      [
        4,
        'R2',
        'ok, with warning',
        'warning',
        'Estimated Total',
        '10.5',
        'estimated_price: line total 10.5 rounded half-up to 11 (the service takes whole numbers)',
      ],
    ]);
    // No cell anywhere is a formula.
    for (const ws of wb.worksheets)
      ws.eachRow((r) => r.eachCell((c) => expect(c.type).not.toBe(ExcelJS.ValueType.Formula)));
    // Printed one page wide, so page 1 shows the values beside their labels (not the labels alone).
    for (const ws of wb.worksheets)
      expect(ws.pageSetup).toMatchObject({ fitToPage: true, fitToWidth: 1, fitToHeight: 0 });
  });

  it('neutralises formula-like text coming from the file', async () => {
    const file = join(dir, 'generic-formula.csv');
    await writeFile(file, [HEADER, '=CMD(),1,x,,pc,0,10,T,,2027-03-01,2027-04-01,Private,C,L'].join('\n'));
    const s = await ingestFile(file, { profiles, limits: LIMITS, now: NOW }, async () => {});
    const out = join(dir, 'reports', 'formula.xlsx');
    await writeIngestReport(s, out);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(out);
    const r2 = wb.getWorksheet('Rows')!.getRow(2);
    expect(r2.getCell(2).value).toBe("'=CMD()");
  });
});

describe('check', () => {
  it('prints profile and why, requisitions and lines; exit 0 for every sample', async () => {
    const lines: string[] = [];
    expect(
      await runCheck(`${ROOT}samples/ME5A_export_EN.csv`, { profiles, limits: LIMITS, now: NOW }, (l) => lines.push(l)),
    ).toBe(0);
    expect(lines).toContain(
      'requisition 10012346: "PR 10012346 - Plant 1000" (2 lines; due 2026-12-06 16:00 UTC; required 2027-02-01 11:00 UTC; Private, Safety, 1000)',
    );
    expect(lines).toContain('  row 8: SAP-10012346-10  Safety gloves EN 388 size 9  qty 120 PR, estimated 474');
    expect(lines[0]).toBe(
      'mapping profile "sap-me5a-en" (file name matches "*ME5A*" or "*me5a*" and the header on row 4 has all 13 of its columns)',
    );
    expect(lines.at(-1)).toBe(
      'would create 4 requisition(s) with 8 line(s); 0 requisition(s) held back, 0 row(s) rejected, 1 warning(s)',
    );
    for (const f of await readdir(`${ROOT}samples`)) {
      expect(await runCheck(`${ROOT}samples/${f}`, { profiles, limits: LIMITS, now: NOW }, () => {}), f).toBe(0);
    }
  });

  it('exit 1 with the row errors when rows are rejected', async () => {
    const file = join(dir, 'generic-check.csv');
    await writeFile(file, BAD);
    const lines: string[] = [];
    expect(await runCheck(file, { profiles, limits: LIMITS, now: NOW }, (l) => lines.push(l))).toBe(1);
    expect(lines).toContain(
      'error: generic-check.csv row 3, column Qty ("1.5"): qty must be a whole number (the profile names no qty_rounding rule)',
    );
    expect(lines.at(-1)).toBe(
      'would create 1 requisition(s) with 1 line(s); 1 requisition(s) held back, 1 row(s) rejected, 1 warning(s)',
    );
  });

  /** `n` one-line requisitions, every row's qty `qty` (2.5 is a row error); the check's exit code and lines. */
  async function checkRows(name: string, n: number, qty: string): Promise<{ code: number; lines: string[] }> {
    let body = `${HEADER}\n`;
    for (let i = 0; i < n; i++)
      body += `PR-${i},1,Item ${i},Spec,pc,${qty},100,Requisition ${i},Test,2031-01-15,2031-02-15,Public,Tests,Plant 1\n`;
    const file = join(dir, name);
    await writeFile(file, body);
    const lines: string[] = [];
    const limits = { ...LIMITS, maxFileBytes: 64 * 1024 * 1024 };
    return { code: await runCheck(file, { profiles, limits, now: NOW }, (l) => lines.push(l)), lines };
  }

  // Issue 21: "more problems not shown" was printed for every file longer than the report's row list.
  it('a clean file longer than the row list says nothing about problems not shown', async () => {
    const { code, lines } = await checkRows('long-clean.csv', MAX_REPORTED + 5, '2');
    expect(code).toBe(0);
    expect(lines.filter((l) => /not shown/.test(l))).toEqual([]);
    expect(lines.at(-1)).toMatch(/^would create 10005 requisition\(s\) with 10005 line\(s\); .* 0 row\(s\) rejected/);
  });

  it('a file with more problems than are listed says how many were cut', async () => {
    const { code, lines } = await checkRows('long-bad.csv', MAX_REPORTED + 3, '2.5');
    expect(code).toBe(1);
    expect(lines.filter((l) => l.startsWith('error: '))).toHaveLength(MAX_REPORTED);
    expect(lines).toContain(`... 3 more problem(s) not shown (the first ${MAX_REPORTED} are above)`);
  });

  it('warns when "1,000" in a decimal-point profile may be a decimal comma (read as a thousand, as the profile says)', async () => {
    const file = join(dir, 'generic-comma.csv');
    await writeFile(
      file,
      [
        HEADER,
        'C1,1,Paper,,ream,"1,000",10,T,,2027-03-01,2027-04-01,Private,C,L',
        'C2,1,Paper,,ream,"1,000.5",10,T,,2027-03-01,2027-04-01,Private,C,L',
        'C3,1,Paper,,ream,"1,5",10,T,,2027-03-01,2027-04-01,Private,C,L',
      ].join('\n'),
    );
    const lines: string[] = [];
    expect(await runCheck(file, { profiles, limits: LIMITS, now: NOW }, (l) => lines.push(l))).toBe(1);
    expect(lines).toContain(
      'warning: generic-comma.csv row 2, column Qty ("1,000"): qty "1,000" read as 1000 ("," taken as thousands separator); if "," is the decimal separator of this export, set numbers.decimal: "," in the profile (it says ".")',
    );
    expect(lines.filter((l) => l.startsWith('warning:'))).toHaveLength(1); // "1,000.5" is unambiguous
    expect(lines).toContain(
      'error: generic-comma.csv row 4, column Qty ("1,5"): qty is not a number (expected digits with "." as decimal separator)',
    );
  });

  it('exit 2 with one sentence when the file cannot be read; --mapping forces a profile', async () => {
    const file = join(dir, 'empty.csv');
    await writeFile(file, '');
    const lines: string[] = [];
    expect(await runCheck(file, { profiles, limits: LIMITS, now: NOW }, (l) => lines.push(l))).toBe(2);
    expect(lines).toEqual(['cannot read: empty.csv: is empty (0 bytes)']);
    const l2: string[] = [];
    expect(
      await runCheck(
        `${ROOT}samples/generic-template.csv`,
        { profiles, limits: LIMITS, now: NOW, mappingName: 'odoo' },
        (l) => l2.push(l),
      ),
    ).toBe(2);
    expect(l2[0]).toMatch(/^cannot read: generic-template.csv: has no header row with the columns of mapping "odoo"/);
    const l3: string[] = [];
    expect(
      await runCheck(join(dir, 'no-such-export.csv'), { profiles, limits: LIMITS, now: NOW }, (l) => l3.push(l)),
    ).toBe(2);
    expect(l3).toEqual(['cannot read: no-such-export.csv: no such file (ENOENT)']);
  });
});

describe('mapping profiles', () => {
  async function loadOne(yaml: string): Promise<string> {
    const d = tempDir('maps-', dir);
    await mkdir(d, { recursive: true });
    await writeFile(join(d, 'acme.yaml'), yaml);
    try {
      await loadProfiles(d);
      return 'loaded';
    } catch (err) {
      expect(err).toBeInstanceOf(MappingError);
      return (err as Error).message.replace(d, '<dir>');
    }
  }
  const base =
    'fields:\n  requisition: "{PR}"\n  external_id: "{PR}-{L}"\n  product_name: "{Item}"\n  qty: "{Qty}"\n  due_date: "{Due}"\n';

  it.each([
    [base, 'loaded'],
    [
      'fields:\n  requisition: "{PR}"\n',
      'mapping profile <dir>/acme.yaml: field fields.external_id: Invalid input: expected string, received undefined',
    ],
    [base.replace('{Qty}', '{Qty'), 'mapping profile <dir>/acme.yaml: field fields.qty: unclosed "{" in "{Qty"'],
    [
      base + 'dates:\n  time_zone: Mars/Olympus\n',
      'mapping profile <dir>/acme.yaml: field dates.time_zone: is not an IANA time zone (e.g. Europe/Berlin, UTC)',
    ],
    [
      base + 'numbers:\n  decimal: ";"\n',
      'mapping profile <dir>/acme.yaml: field numbers.decimal: Invalid option: expected one of "."|","',
    ],
    [base + 'colums: {}\n', 'mapping profile <dir>/acme.yaml: field (top level): Unrecognized key: "colums"'],
    [
      base.replace('  due_date: "{Due}"\n', ''),
      'mapping profile <dir>/acme.yaml: field fields.due_date: give a due_date column or a due_date_rule (days_after_ingest)',
    ],
    [
      base + '  rfq_type: Restricted\n',
      'mapping profile <dir>/acme.yaml: field fields.rfq_type: "Restricted" must be Public or Private',
    ],
    [
      base + '  estimated_price: "{T}"\n  unit_price: "{U}"\n',
      'mapping profile <dir>/acme.yaml: field fields.unit_price: give either estimated_price (line total) or unit_price, not both',
    ],
    [
      'fields: [\n',
      'mapping profile <dir>/acme.yaml: not valid YAML: Flow sequence in block collection must be sufficiently indented and end with a ] at line 2, column 1:',
    ],
  ])('%#', async (yaml, want) => {
    expect(await loadOne(yaml)).toBe(want);
  });

  it('every shipped profile loads', async () => {
    expect(profiles.map((p) => p.name)).toEqual([
      'banf-liste-de',
      'dynamics-365',
      'facilities-pandas',
      'generic',
      'libreoffice-ods',
      'maintenance-requests',
      'netsuite-xml',
      'netsuite',
      'odoo',
      'oracle-ebs',
      'oracle-iproc-html',
      'sage-100',
      'sap-alv-list-tabs',
      'sap-list-unconverted',
      'sap-me5a-de-warengruppe',
      'sap-me5a-de',
      'sap-me5a-en',
      'sap-xxl-xls',
    ]);
  });
});
