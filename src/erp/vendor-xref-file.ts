/**
 * The vendor cross-reference as a file (VENDOR_XREF_FILE): a CSV (comma, semicolon or tab; UTF-8 with or without a
 * byte-order mark, else Windows-1252 as Excel on Windows saves it) or an xlsx (its first sheet), with a header row
 * naming `supplier_key`, `supplier_name`, `erp_vendor_id` and optionally `erp_vendor_site`, `company`, `plant`
 * (case, spaces and `-` do not matter). Every problem names the file, the row and the field.
 */
import { readFile } from 'node:fs/promises';
import { parse } from 'csv-parse/sync';
import iconv from 'iconv-lite';
import { loadExcelJS, VendorXrefError } from '../core/index.ts';

export const XREF_COLUMNS = ['supplier_key', 'supplier_name', 'erp_vendor_id'] as const;
export const XREF_OPTIONAL = ['erp_vendor_site', 'company', 'plant'] as const;
type Column = (typeof XREF_COLUMNS)[number] | (typeof XREF_OPTIONAL)[number];

export interface XrefRow {
  /** 1-based row as a spreadsheet shows it (the header is row 1). */
  row: number;
  supplierKey: string;
  supplierName: string;
  erpVendorId: string;
  erpVendorSite: string;
  company: string;
  plant: string;
}

/** A cell a spreadsheet-safe writer guarded (`'=...`, the draft's own) read as the text it stands for. */
const unguard = (v: string): string => (/^'[=+\-@]/.test(v) ? v.slice(1) : v);

const normal = (h: string): string =>
  h
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');

function decode(bytes: Buffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes).replace(/^\uFEFF/, '');
  } catch {
    return iconv.decode(bytes, 'windows-1252');
  }
}

function csvCells(file: string, bytes: Buffer): string[][] {
  const text = decode(bytes);
  const head = text.split(/\r?\n/, 1)[0] ?? '';
  const delimiter = [';', '\t', ','].find((d) => head.includes(d)) ?? ',';
  try {
    return parse(text, { delimiter, relax_column_count: true, skip_empty_lines: true }) as string[][];
  } catch (err) {
    throw new VendorXrefError(`vendor cross-reference ${file}: not a readable CSV: ${(err as Error).message}`, {
      cause: err,
    });
  }
}

async function xlsxCells(file: string, bytes: Buffer): Promise<string[][]> {
  const ExcelJS = await loadExcelJS();
  const wb = new ExcelJS.Workbook();
  try {
    await wb.xlsx.load(bytes as unknown as ArrayBuffer);
  } catch (err) {
    throw new VendorXrefError(`vendor cross-reference ${file}: not a readable xlsx: ${(err as Error).message}`, {
      cause: err,
    });
  }
  const ws = wb.worksheets[0];
  const rows: string[][] = [];
  ws?.eachRow({ includeEmpty: true }, (row, n) => {
    rows[n - 1] = Array.from({ length: row.cellCount }, (_, i) => row.getCell(i + 1).text ?? '');
  });
  return Array.from(rows, (r) => r ?? []);
}

/** The rows of the cross-reference; a VendorXrefError for a file that cannot be used. */
export async function readXrefFile(file: string): Promise<XrefRow[]> {
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (err) {
    throw new VendorXrefError(`vendor cross-reference ${file}: cannot be read: ${(err as Error).message}`, {
      cause: err,
    });
  }
  const zip = bytes.subarray(0, 2).toString('latin1') === 'PK';
  const cells = zip ? await xlsxCells(file, bytes) : csvCells(file, bytes);
  const header = (cells[0] ?? []).map(normal);
  const at = new Map<Column, number>();
  for (const c of [...XREF_COLUMNS, ...XREF_OPTIONAL]) if (header.includes(c)) at.set(c, header.indexOf(c));
  const missing = XREF_COLUMNS.filter((c) => !at.has(c));
  if (missing.length > 0)
    throw new VendorXrefError(
      `vendor cross-reference ${file} row 1: column${missing.length > 1 ? 's' : ''} ${missing.join(', ')} missing (the header names ${header.filter(Boolean).join(', ') || 'nothing'})`,
    );
  const rows: XrefRow[] = [];
  cells.slice(1).forEach((cols, i) => {
    const get = (c: Column) => (at.has(c) ? unguard((cols[at.get(c)!] ?? '').trim()) : '');
    const r: XrefRow = {
      row: i + 2,
      supplierKey: get('supplier_key'),
      supplierName: get('supplier_name'),
      erpVendorId: get('erp_vendor_id'),
      erpVendorSite: get('erp_vendor_site'),
      company: get('company'),
      plant: get('plant'),
    };
    if (Object.values(r).every((v) => v === '' || typeof v === 'number')) return;
    if (!r.supplierKey && !r.supplierName)
      throw new VendorXrefError(
        `vendor cross-reference ${file} row ${r.row}: supplier_key and supplier_name are both empty`,
      );
    rows.push(r);
  });
  return rows;
}
