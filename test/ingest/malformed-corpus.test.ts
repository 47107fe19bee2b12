/**
 * A corpus of broken and awkward files, built here in a temp folder: each is refused with one exact sentence
 * naming the file and the reason, or ingested with exactly the row problems listed (and its requisition held back
 * whole while the others go on).
 */
import ExcelJS from 'exceljs';
import { strToU8, unzipSync, zipSync } from 'fflate';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import iconv from 'iconv-lite';
import { beforeAll, describe, expect, it } from 'vitest';
import { FileRefusedError, MappingError, type RowProblem } from '../../src/core/errors.ts';
import {
  ingestFile,
  loadProfiles,
  type IngestOptions,
  type IngestSummary,
  type MappingProfile,
} from '../../src/ingest/index.ts';
import type { Requisition } from '../../src/core/requisition.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const NOW = new Date('2026-11-22T10:00:00Z');
const LIMITS = { maxFileBytes: 1024 * 1024, maxXlsxUncompressedBytes: 1024 * 1024, maxXlsxEntries: 50 };

let dir: string;
let profiles: MappingProfile[];
beforeAll(async () => {
  dir = tempDir('rfq-ingest-corpus-');
  profiles = await loadProfiles(`${ROOT}mappings`);
});

async function put(name: string, data: string | Uint8Array): Promise<string> {
  const p = join(dir, name);
  await writeFile(p, data);
  return p;
}

async function ingest(
  path: string,
  extra: Partial<IngestOptions> = {},
): Promise<{ s: IngestSummary; reqs: Requisition[] }> {
  const reqs: Requisition[] = [];
  const s = await ingestFile(path, { profiles, limits: LIMITS, now: NOW, ...extra }, async (r) => void reqs.push(r));
  return { s, reqs };
}

async function refusal(path: string, extra: Partial<IngestOptions> = {}): Promise<string> {
  try {
    await ingest(path, extra);
  } catch (err) {
    if (err instanceof FileRefusedError || err instanceof MappingError)
      return `${err.constructor.name}: ${err.message}`;
    throw err;
  }
  throw new Error('was not refused');
}

async function xlsx(build: (wb: ExcelJS.Workbook) => void): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  build(wb);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

/** A zip whose directory claims a 5 MB sheet holds 10 bytes (a zip bomb that lies about its sizes). */
function lyingZip(): Buffer {
  const z = Buffer.from(
    zipSync({ 'xl/workbook.xml': strToU8('<x/>'), 'xl/worksheets/sheet1.xml': new Uint8Array(5_000_000) }),
  );
  for (let i = 0; i < z.length - 28; i++) {
    const sig = z.readUInt32LE(i);
    if (sig === 0x04034b50 && z.readUInt32LE(i + 22) === 5_000_000) z.writeUInt32LE(10, i + 22);
    if (sig === 0x02014b50 && z.readUInt32LE(i + 24) === 5_000_000) z.writeUInt32LE(10, i + 24);
  }
  return z;
}

/** The generic sample with its sheet XML cut in half (a lenient XML parser would read the first half silently). */
async function halfSheet(): Promise<Uint8Array> {
  const parts = unzipSync(await readFile(`${ROOT}samples/generic-template.xlsx`));
  const sheet = parts['xl/worksheets/sheet1.xml']!;
  parts['xl/worksheets/sheet1.xml'] = sheet.subarray(0, Math.floor(sheet.length / 2));
  return zipSync(parts);
}

const OLE2 = Buffer.concat([Buffer.from('d0cf11e0a1b11ae1', 'hex'), Buffer.alloc(2048, 0)]);

describe('refused files', () => {
  it.each<[string, () => Promise<string | Uint8Array>, string]>([
    ['empty.csv', async () => '', 'FileRefusedError: empty.csv: is empty (0 bytes)'],
    ['blank.csv', async () => '\r\n\r\n   \r\n', 'FileRefusedError: blank.csv: is empty (no rows)'],
    ['only-commas.csv', async () => ',,,\n,,,\n', 'FileRefusedError: only-commas.csv: is empty (no rows)'],
    [
      'legacy.xls',
      async () => OLE2,
      'FileRefusedError: legacy.xls: is an old binary Excel file (.xls) or a password-protected workbook, but its OLE2 container is corrupt (its sector tables cannot be read)',
    ],
    [
      'protected.xlsx',
      async () => OLE2,
      'FileRefusedError: protected.xlsx: is an old binary Excel file (.xls) or a password-protected workbook, but its OLE2 container is corrupt (its sector tables cannot be read)',
    ],
    [
      'calc.ods',
      async () =>
        zipSync({
          mimetype: strToU8('application/vnd.oasis.opendocument.spreadsheet'),
          'content.xml': strToU8('<x/>'),
        }),
      'FileRefusedError: calc.ods: is a corrupt OpenDocument spreadsheet (.ods) (Unsupported ZIP file)',
    ],
    [
      'calc-renamed.xlsx',
      async () =>
        zipSync({
          mimetype: strToU8('application/vnd.oasis.opendocument.spreadsheet'),
          'content.xml': strToU8('<x/>'),
        }),
      'FileRefusedError: calc-renamed.xlsx: is a corrupt OpenDocument spreadsheet (.ods) (Unsupported ZIP file)',
    ],
    [
      'bomb.xlsx',
      async () =>
        zipSync({ 'xl/workbook.xml': strToU8('<x/>'), 'xl/worksheets/sheet1.xml': new Uint8Array(3 * 1024 * 1024) }),
      'FileRefusedError: bomb.xlsx: would inflate to more than 1.0 MiB (zip bomb guard)',
    ],
    [
      'liar.xlsx',
      async () => lyingZip(),
      'FileRefusedError: liar.xlsx: inflates to more than its zip directory declares (zip bomb guard)',
    ],
    [
      'many.xlsx',
      async () => zipSync(Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`xl/e${i}.xml`, strToU8('<x/>')]))),
      'FileRefusedError: many.xlsx: is a zip with 60 entries, over the limit of 50',
    ],
    [
      'photos.xlsx',
      async () => zipSync({ 'a.jpg': strToU8('jpeg') }),
      'FileRefusedError: photos.xlsx: is a zip archive but not an xlsx or OpenDocument workbook (no xl/workbook.xml, no content.xml)',
    ],
    [
      'truncated.xlsx',
      async () => (await readFile(`${ROOT}samples/generic-template.xlsx`)).subarray(0, 3000),
      'FileRefusedError: truncated.xlsx: is a corrupt zip/xlsx archive (End of central directory record signature not found. Either not a zip file, or file is truncated.)',
    ],
    [
      'garbage-xml.xlsx',
      async () =>
        zipSync({
          'xl/workbook.xml': strToU8('<<<not xml'),
          'xl/worksheets/sheet1.xml': strToU8('<worksheet><sheetData></sheetData></worksheet>'),
        }),
      'FileRefusedError: garbage-xml.xlsx: is a corrupt xlsx workbook (its workbook part xl/workbook.xml holds no <workbook> element)',
    ],
    [
      'binary-sheet.xlsx',
      async () =>
        zipSync({
          'xl/workbook.xml': strToU8('<workbook/>'),
          'xl/worksheets/sheet1.xml': strToU8(`<worksheet>${'\u0001'.repeat(50)}</worksheet>`),
        }),
      'FileRefusedError: binary-sheet.xlsx: is a corrupt xlsx workbook (1:61: disallowed character.)',
    ],
    [
      'half-sheet.xlsx',
      async () => halfSheet(),
      'FileRefusedError: half-sheet.xlsx: is a corrupt xlsx workbook (sheet xl/worksheets/sheet1.xml is cut short)',
    ],
    [
      // text named .xlsx is read as the CSV it is (formats are recognised by content): here it fits no profile
      'renamed.xlsx',
      async () => 'Requisition,Line\nA,1\n',
      'FileRefusedError: renamed.xlsx: fits no mapping profile by file name or header columns; closest is "facilities-pandas", missing "PR Number", "Item", "Qty", "Description", "UoM", "Amount", "Requested By", "Need By" and 2 more',
    ],
    [
      'huge.csv',
      async () => 'x'.repeat(LIMITS.maxFileBytes + 1),
      'FileRefusedError: huge.csv: is 1.0 MiB, over the 1.0 MiB size limit',
    ],
    [
      'image.csv',
      async () => Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'),
      'FileRefusedError: image.csv: holds binary data (NUL bytes), not CSV text',
    ],
    [
      'noise.csv',
      async () => Buffer.from(Array.from({ length: 4000 }, (_, i) => ((i * 7919) % 31) + 1)),
      'FileRefusedError: noise.csv: holds binary data (control characters), not CSV text',
    ],
    [
      'shopping-list.csv',
      async () => 'Article;Count\nMilk;2\n',
      'FileRefusedError: shopping-list.csv: fits no mapping profile by file name or header columns; closest is "maintenance-requests", missing "Request", "No.", "Item", "Qty", "Details", "Unit", "Price each (EUR)", "Quotes due" and 2 more',
    ],
    [
      'ME5A_wrong_layout.csv',
      async () => 'Banf;Pos\n1;10\n',
      'FileRefusedError: ME5A_wrong_layout.csv: matches the file name patterns of mappings "sap-me5a-de-warengruppe", "sap-me5a-de", "sap-me5a-en" but has no header row with the columns of any in its rows (closest "sap-me5a-de-warengruppe", missing: "Bestellanforderung", "Position", "Kurztext", "Menge", "Material", "Bestellmengeneinheit", "Gesamtwert", "Anforderer" and 4 more)',
    ],
    [
      'empty-sheet.xlsx',
      async () => xlsx((wb) => void wb.addWorksheet('Sheet1')),
      'FileRefusedError: empty-sheet.xlsx: is empty (no rows)',
    ],
  ])('%s', async (name, make, want) => {
    expect(await refusal(await put(name, await make()))).toBe(want);
  });

  it('a CSV whose quote is never closed', async () => {
    const p = await put(
      'generic-open-quote.csv',
      csv(row('R1', 1)) + 'R2,1,"Unclosed item,,pc,1,10,T,,2027-03-01,2027-04-01,Private,C,L\n',
    );
    expect(await refusal(p)).toBe(
      'FileRefusedError: generic-open-quote.csv: is not valid CSV: a quoted field is never closed (a " is missing, or the file was cut off) (Quote Not Closed: the parsing is finished with an opening quote at line 3)',
    );
  });

  it('a CSV whose quote is never closed, read by a slow consumer: refused, and the parser error is no uncaught exception', async () => {
    // The parser meets the end of input while the caller is busy with a requisition (the ingest job writing it
    // away): its error must wait for the reader, not escape as an uncaught exception that kills the worker.
    const rows = Array.from({ length: 300 }, (_, i) => row(`S${i}`, 1));
    const p = await put(
      'slow-open-quote.csv',
      csv(...rows) + 'S999,1,"Unclosed item,,pc,1,10,T,,2027-03-01,2027-04-01,Private,C,L\n',
    );
    let seen = 0;
    const err = await ingestFile(p, { profiles, limits: LIMITS, now: NOW }, async () => {
      seen++;
      await new Promise((r) => setTimeout(r, 2));
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FileRefusedError);
    expect((err as Error).message).toContain('Quote Not Closed');
    expect(seen).toBeGreaterThan(0);
  });

  it('a forced mapping whose columns are missing', async () => {
    const p = await put('forced.csv', 'Requisition,Line,Item\nA,1,x\n');
    expect(await refusal(p, { mappingName: 'generic' })).toBe(
      'FileRefusedError: forced.csv: has no header row with the columns of mapping "generic" in its rows (missing: "Qty", "Specification", "UoM", "Estimated Total", "Title", "Description", "Due Date", "Required Date" and 3 more)',
    );
  });

  it('an unknown --mapping name', async () => {
    const p = await put('unknown-mapping.csv', 'a,b\n1,2\n');
    expect(await refusal(p, { mappingName: 'sap' })).toBe(
      'MappingError: no mapping profile is named "sap" (profiles: banf-liste-de, dynamics-365, facilities-pandas, generic, libreoffice-ods, maintenance-requests, netsuite-xml, netsuite, odoo, oracle-ebs, oracle-iproc-html, sage-100, sap-alv-list-tabs, sap-list-unconverted, sap-me5a-de-warengruppe, sap-me5a-de, sap-me5a-en, sap-xxl-xls)',
    );
  });

  it('a workbook without the sheet its profile names', async () => {
    const p = await put('D365_other_sheet.xlsx', await xlsx((wb) => wb.addWorksheet('Lines').addRow(['x'])));
    expect(await refusal(p, { mappingName: 'dynamics-365' })).toBe(
      'FileRefusedError: D365_other_sheet.xlsx: has no sheet named "Purchase requisition lines" (sheets: "Lines")',
    );
  });

  it('uses the display name, not the processing path', async () => {
    const p = await put('x1', '');
    expect(await refusal(p, { displayName: 'orders.csv' })).toBe('FileRefusedError: orders.csv: is empty (0 bytes)');
  });
});

// ------------------------------------------------------------------ row problems (generic template)

const HEADER =
  'Requisition,Line,Item,Specification,UoM,Qty,Estimated Total,Title,Description,Due Date,Required Date,RFQ Type,Category,Location';
/** One generic-template row; overrides by column. */
function row(
  req: string,
  line: number,
  o: Partial<Record<'item' | 'qty' | 'total' | 'due' | 'required' | 'type', string>> = {},
): string {
  return [
    req,
    line,
    o.item ?? `Item ${line}`,
    '',
    'pc',
    o.qty ?? '1',
    o.total ?? '10',
    `Title ${req}`,
    '',
    o.due ?? '2027-03-01',
    o.required ?? '2027-04-01',
    o.type ?? 'Private',
    'Cat',
    'Loc',
  ].join(',');
}
const csv = (...rows: string[]) => [HEADER, ...rows].join('\n') + '\n';
const err = (file: string, r: number, column: string, value: string, reason: string): RowProblem => ({
  file,
  row: r,
  column,
  value,
  reason,
  severity: 'error',
});
const warn = (file: string, r: number, column: string, value: string, reason: string): RowProblem => ({
  file,
  row: r,
  column,
  value,
  reason,
  severity: 'warning',
});

describe('row problems', () => {
  it.each<[string, string, RowProblem[], string[]]>([
    [
      'generic-fractional-qty.csv',
      csv(row('R1', 1, { qty: '2.5' }), row('R1', 2), row('R2', 1)),
      [
        err(
          'generic-fractional-qty.csv',
          2,
          'Qty',
          '2.5',
          'qty must be a whole number (the profile names no qty_rounding rule)',
        ),
      ],
      ['R2'],
    ],
    [
      'generic-zero-qty.csv',
      csv(row('R1', 1, { qty: '0' }), row('R2', 1, { qty: '-3' })),
      [
        err('generic-zero-qty.csv', 2, 'Qty', '0', 'qty must be a positive whole number'),
        err('generic-zero-qty.csv', 3, 'Qty', '-3', 'qty must be a positive whole number'),
      ],
      [],
    ],
    [
      'generic-bad-number.csv',
      csv(row('R1', 1, { total: '12abc' }), row('R2', 1, { qty: '' })),
      [
        err(
          'generic-bad-number.csv',
          2,
          'Estimated Total',
          '12abc',
          'estimated_price is not a number (expected digits with "." as decimal separator)',
        ),
        err(
          'generic-bad-number.csv',
          3,
          'Qty',
          '',
          `qty is required by the sourcing service and is empty here: fill it in the export, or change fields.qty (a column, or a constant) in mapping profile "generic" (generic.yaml; now fields.qty: "{Qty}")`,
        ),
      ],
      [],
    ],
    [
      'generic-negative-price.csv',
      csv(row('R1', 1, { total: '-5' }), row('R2', 1)),
      [err('generic-negative-price.csv', 2, 'Estimated Total', '-5', 'estimated_price must not be negative')],
      ['R2'],
    ],
    [
      'generic-impossible-date.csv',
      csv(row('R1', 1, { due: '2027-02-31' }), row('R2', 1)),
      [
        err(
          'generic-impossible-date.csv',
          2,
          'Due Date',
          '2027-02-31',
          'due_date is not a real date (day out of range)',
        ),
      ],
      ['R2'],
    ],
    [
      'generic-past-due.csv',
      csv(row('R1', 1, { due: '2026-01-15' }), row('R2', 1)),
      [
        err(
          'generic-past-due.csv',
          2,
          'Due Date',
          '2026-01-15',
          'due_date 2026-01-15T17:00:00.000Z is not in the future',
        ),
      ],
      ['R2'],
    ],
    [
      'generic-missing-due.csv',
      csv(row('R1', 1, { due: '' })),
      [
        err(
          'generic-missing-due.csv',
          2,
          'Due Date',
          '',
          `due_date is required by the sourcing service and is empty here: fill it in the export, or change fields.due_date (a column), or add a due_date_rule (days after ingest) in mapping profile "generic" (generic.yaml; now fields.due_date: "{Due Date}")`,
        ),
      ],
      [],
    ],
    [
      'generic-due-after-required.csv',
      csv(row('R1', 1, { due: '2027-05-01', required: '2027-04-01' })),
      [
        warn(
          'generic-due-after-required.csv',
          2,
          'Due Date',
          '2027-05-01',
          'due_date 2027-05-01T17:00:00.000Z is not before required_date 2027-04-01T17:00:00.000Z',
        ),
      ],
      ['R1'],
    ],
    [
      'generic-dup-in-req.csv',
      csv(row('R1', 1), row('R1', 1), row('R2', 1)),
      [
        err(
          'generic-dup-in-req.csv',
          3,
          'external_id (Requisition + Line)',
          'R1-1',
          'external_id R1-1 appears twice in requisition R1 (rows 2 and 3)',
        ),
      ],
      ['R2'],
    ],
    [
      'generic-incomplete-id.csv',
      csv(row('R1', 1), row('R1', 2).replace('R1,2,', 'R1,,'), row('R3', 1)),
      [err('generic-incomplete-id.csv', 3, 'Line', '', 'external_id is incomplete: column Line is empty')],
      ['R3'],
    ],
    [
      'generic-reappearing.csv',
      csv(row('R1', 1), row('R2', 1), row('R1', 2)),
      [
        err(
          'generic-reappearing.csv',
          4,
          'Requisition',
          'R1',
          'requisition R1 already ended at row 2; its rows must be contiguous (sort the export by requisition): this row was not ingested',
        ),
      ],
      ['R1', 'R2'],
    ],
    [
      'generic-empty-key.csv',
      csv(row('R1', 1), row('', 2)),
      [
        err(
          'generic-empty-key.csv',
          3,
          'Requisition',
          '',
          'requisition key is empty: the row belongs to no requisition',
        ),
      ],
      ['R1'],
    ],
    [
      'generic-missing-item.csv',
      csv(row('R1', 1, { item: '' }), row('R1', 2)),
      [
        err(
          'generic-missing-item.csv',
          2,
          'Item',
          '',
          `product_name is required by the sourcing service and is empty here: fill it in the export, or change fields.product_name (a column, or a constant) in mapping profile "generic" (generic.yaml; now fields.product_name: "{Item}")`,
        ),
      ],
      [],
    ],
    [
      'generic-bad-type.csv',
      csv(row('R1', 1, { type: 'Restricted' }), row('R2', 1, { type: 'PUBLIC' })),
      [err('generic-bad-type.csv', 2, 'RFQ Type', 'Restricted', 'rfq_type must be Public or Private')],
      ['R2'],
    ],
    [
      'generic-rounding-cases.csv',
      csv(
        row('R1', 1, { total: '0.49' }),
        row('R1', 2, { total: '2.50' }),
        row('R1', 3, { total: '007.5' }),
        row('R1', 4, { total: '12.00' }),
        row('R1', 5, { total: '"1,234.5"' }),
      ),
      [
        warn(
          'generic-rounding-cases.csv',
          2,
          'Estimated Total',
          '0.49',
          'estimated_price: line total 0.49 rounded half-up to 0 (the service takes whole numbers)',
        ),
        warn(
          'generic-rounding-cases.csv',
          3,
          'Estimated Total',
          '2.50',
          'estimated_price: line total 2.5 rounded half-up to 3 (the service takes whole numbers)',
        ),
        warn(
          'generic-rounding-cases.csv',
          4,
          'Estimated Total',
          '007.5',
          'estimated_price: line total 7.5 rounded half-up to 8 (the service takes whole numbers)',
        ),
        warn(
          'generic-rounding-cases.csv',
          6,
          'Estimated Total',
          '1,234.5',
          'estimated_price: line total 1234.5 rounded half-up to 1235 (the service takes whole numbers)',
        ),
      ],
      ['R1'],
    ],
    [
      'generic-rounding.csv',
      csv(row('R1', 1, { total: '10.5' })),
      [
        warn(
          'generic-rounding.csv',
          2,
          'Estimated Total',
          '10.5',
          'estimated_price: line total 10.5 rounded half-up to 11 (the service takes whole numbers)',
        ),
      ],
      ['R1'],
    ],
  ])('%s', async (name, content, problems, keys) => {
    const { s, reqs } = await ingest(await put(name, content));
    expect(s.profile).toBe('generic');
    expect(s.problems).toEqual(problems);
    expect(reqs.map((r) => r.key)).toEqual(keys);
  });

  it('an external_id claimed by another requisition of the file holds the later requisition back', async () => {
    // generic builds external_id as {Requisition}-{Line}: "A-1" + "1" and "A" + "1-1" collide.
    const content = csv(row('A', 1).replace(/^A,1,/, 'A-1,1,'), row('A', 1).replace(/^A,1,/, 'A,1-1,'));
    const { s, reqs } = await ingest(await put('generic-claimed.csv', content));
    expect(s.problems).toEqual([
      err(
        'generic-claimed.csv',
        3,
        'external_id (Requisition + Line)',
        'A-1-1',
        'external_id A-1-1 is already used by requisition A-1 in this file',
      ),
    ]);
    expect(reqs.map((r) => r.key)).toEqual(['A-1']);
    expect(s.heldRequisitions).toBe(1);
  });

  it('an id claimed by another requisition and then repeated in its own is said twice, each for what it is', async () => {
    // generic builds external_id as {Requisition}-{Line}: "A-1" + "1" and "A" + "1-1" collide.
    const a = row('A', 1).replace(/^A,1,/, 'A,1-1,');
    const content = csv(row('A', 1).replace(/^A,1,/, 'A-1,1,'), a, row('A', 2), a);
    const { s, reqs } = await ingest(await put('generic-claimed-twice.csv', content));
    const col = 'external_id (Requisition + Line)';
    expect(s.problems).toEqual([
      err(
        'generic-claimed-twice.csv',
        3,
        col,
        'A-1-1',
        'external_id A-1-1 is already used by requisition A-1 in this file',
      ),
      err(
        'generic-claimed-twice.csv',
        5,
        col,
        'A-1-1',
        'external_id A-1-1 appears twice in requisition A (rows 3 and 5)',
      ),
    ]);
    expect(reqs.map((r) => r.key)).toEqual(['A-1']);
  });

  it('a requisition with one bad line is held back whole; its good rows are reported as held', async () => {
    const { s, reqs } = await ingest(
      await put('generic-held.csv', csv(row('R1', 1), row('R1', 2, { qty: 'x' }), row('R1', 3), row('R2', 1))),
    );
    expect(reqs.map((r) => r.key)).toEqual(['R2']);
    expect(s.rows.map((r) => [r.row, r.requisition, r.status])).toEqual([
      [2, 'R1', 'held'],
      [3, 'R1', 'rejected'],
      [4, 'R1', 'held'],
      [5, 'R2', 'ok'],
    ]);
    expect([s.requisitions, s.lines, s.heldRequisitions, s.rejectedRows]).toEqual([1, 1, 1, 1]);
  });
});

describe('awkward but readable files', () => {
  it('UTF-16 LE with BOM, tab-delimited, CRLF, title lines, trailing empty rows and columns', async () => {
    const text =
      'Export of requisitions\r\n\r\n' +
      csv(row('U1', 1, { item: 'Größe "XL" — ½ inch' }))
        .replace(/,/g, '\t')
        .replace(/\n/g, '\t\t\r\n') +
      '\t\t\r\n\r\n';
    const p = await put('generic-utf16.csv', Buffer.concat([Buffer.from([0xff, 0xfe]), iconv.encode(text, 'utf16le')]));
    const { s, reqs } = await ingest(p);
    expect(s.problems).toEqual([]);
    expect(reqs.map((r) => [r.key, r.lines[0]!.product_name, r.lines[0]!.row])).toEqual([
      ['U1', 'Größe "XL" — ½ inch', 4],
    ]);
  });

  it('UTF-16 BE with BOM', async () => {
    const be = Buffer.from(iconv.encode(csv(row('B1', 1, { item: 'Ørsted ñ' })), 'utf16le')).swap16();
    const { reqs } = await ingest(await put('generic-utf16be.csv', Buffer.concat([Buffer.from([0xfe, 0xff]), be])));
    expect(reqs[0]!.lines[0]!.product_name).toBe('Ørsted ñ');
  });

  it('UTF-8 BOM does not stick to the first header; Windows-1252 bytes are decoded', async () => {
    const { reqs } = await ingest(await put('generic-bom.csv', '\uFEFF' + csv(row('W1', 1))));
    expect(reqs.map((r) => r.key)).toEqual(['W1']);
    const { reqs: r2 } = await ingest(
      await put('generic-1252.csv', iconv.encode(csv(row('W2', 1, { item: 'Café crème 25 €' })), 'win1252')),
    );
    expect(r2[0]!.lines[0]!.product_name).toBe('Café crème 25 €');
  });

  it('quoted fields with newlines and a stray quote; semicolon delimiter detected', async () => {
    const content =
      csv(row('Q1', 1)).replace(/,/g, ';').replace('Item 1', '"Cable\nreel 50 m"') +
      'Q1;2;19" monitor;;pc;1;10;Title Q1;;2027-03-01;2027-04-01;Private;Cat;Loc\n';
    const { s, reqs } = await ingest(await put('generic-quotes.csv', content));
    expect(s.problems).toEqual([]);
    expect(reqs[0]!.lines.map((l) => [l.row, l.product_name])).toEqual([
      [2, 'Cable\nreel 50 m'],
      [3, '19" monitor'],
    ]);
  });

  it('headers match regardless of case, spaces and punctuation', async () => {
    const header =
      'REQUISITION,line,ITEM,specification,U.o.M.,QTY,estimated-total,TITLE,description,due_date,required date,rfq type,CATEGORY,location';
    const { reqs } = await ingest(await put('generic-headers.csv', `${header}\n${row('H1', 1)}\n`));
    expect(reqs.map((r) => r.key)).toEqual(['H1']);
  });

  it('xlsx: a date typed as a number (serial) and a formula with no cached result', async () => {
    const p = await put(
      'generic-serial.xlsx',
      await xlsx((wb) => {
        const ws = wb.addWorksheet('S');
        ws.addRow(HEADER.split(','));
        ws.addRow([
          'X1',
          1,
          'Item',
          { formula: 'F2*2' },
          'pc',
          3,
          90,
          'T',
          null,
          46461,
          '2027-04-01',
          'Private',
          'C',
          'L',
        ]);
      }),
    );
    const { s, reqs } = await ingest(p);
    expect(s.problems).toEqual([]);
    expect(reqs[0]!.due_date).toBe(Date.parse('2027-03-15T17:00:00Z'));
    // the specification's formula was never calculated: empty, neither 0 nor its text
    expect(reqs[0]!.lines[0]!.specification).toBeUndefined();
  });
  it('xlsx: merged title and merged group header above the real header', async () => {
    const p = await put(
      'generic-merged.xlsx',
      await xlsx((wb) => {
        const ws = wb.addWorksheet('S');
        ws.addRow(['Purchase requisitions, plant 1000']);
        ws.mergeCells('A1:N1');
        ws.addRow(['Requisition', null, 'Line details', null, null, null, null, 'Header details']);
        ws.mergeCells('A2:B2');
        ws.mergeCells('C2:G2');
        ws.mergeCells('H2:N2');
        ws.addRow(HEADER.split(','));
        ws.addRow(['M1', 1, 'Item', null, 'pc', 3, 30, 'T', null, '2027-03-01', '2027-04-01', 'Private', 'C', 'L']);
      }),
    );
    const { s, reqs } = await ingest(p);
    expect(s.problems).toEqual([]);
    expect(s.profileReason).toBe(
      'file name matches "generic*" or "rfq-template*" or "requisition-template*" and the header on row 3 has all 14 of its columns',
    );
    expect(reqs.map((r) => [r.key, r.lines[0]!.row])).toEqual([['M1', 4]]);
  });

  it('Odoo-style continuation rows in CSV: blank requisition columns come from the row above', async () => {
    const content = [
      'Reference,Agreement Type,Purchase Representative,Company,Source Document,Agreement Deadline,Delivery Date,Products/ID,Products/Product,Products/Description,Products/Quantity,Products/Unit of Measure,Products/Unit Price,Products/Product Category',
      'PR/9,Call for Tenders,Marc,BE,,2027-02-01 17:00:00,2027-03-01,l1,Desk,,2,Units,100,All / Saleable / Office Furniture',
      ',,,,,,,l2,Chair,,4,Units,50,',
      'PR/10,Call for Tenders,Marc,BE,,2027-02-02 17:00:00,2027-03-02,l3,Lamp,,1,Units,30,All / Saleable / Office Furniture',
    ].join('\n');
    const { s, reqs } = await ingest(await put('odoo-continuation.csv', content));
    expect(s.problems).toEqual([]);
    expect(reqs.map((r) => [r.key, r.due_date, r.lines.map((l) => l.external_id)])).toEqual([
      ['PR/9', Date.parse('2027-02-01T16:00:00Z'), ['ODOO-l1', 'ODOO-l2']],
      ['PR/10', Date.parse('2027-02-02T16:00:00Z'), ['ODOO-l3']],
    ]);
  });

  it('an error thrown by the caller passes through as it is (not as a refused file)', async () => {
    const p = await put('generic-callback.csv', csv(row('C1', 1)));
    const boom = new Error('queue down');
    await expect(
      ingestFile(p, { profiles, limits: LIMITS, now: NOW }, async () => {
        throw boom;
      }),
    ).rejects.toBe(boom);
  });
});
