/**
 * An output profile's files for one award, as bytes: the POs (po-grouping.ts), each file's rows (one per PO or per
 * line) and cells (cell-values.ts), written as the profile's format says: CSV (delimiter, quoting, line ends,
 * encoding, header row or none), xlsx (one workbook per file, numbers as numbers), or a zip of the CSVs (Oracle FBDI).
 * Pure apart from loading exceljs; the caller writes the files atomically.
 */
import { loadExcelJS, safeFileName } from '../core/index.ts';
import type { ErpAward } from './award.ts';
import { cellOf, templateText, type Cell, type RowContext } from './cell-values.ts';
import { encodeText } from './file-encoding.ts';
import type { ErpFileSpec, ErpProfile } from './output-profile.ts';
import type { TextTemplate } from './text-template.ts';
import type { ErpPo } from './vocabulary.ts';
import { zipFiles } from './zip-file.ts';

export interface RenderedFile {
  /** The file's name (safe on Windows and Linux shares). */
  name: string;
  data: Buffer;
}

export interface Rendered {
  files: RenderedFile[];
  /** Texts that had to change to fit the file (cut to a field's length, an encoding's repertoire). */
  warnings: string[];
}

/** The name a template of award fields gives. */
function fileName(t: TextTemplate, profile: ErpProfile, award: ErpAward, pos: readonly ErpPo[]): string {
  return safeFileName(templateText(t, profile, { award, po: pos[0]!, lineNo: 1 }), 180);
}

/** Each row of a file: its cells. */
function rowsOf(
  spec: ErpFileSpec,
  profile: ErpProfile,
  base: Omit<RowContext, 'po' | 'line' | 'lineNo'>,
  pos: readonly ErpPo[],
): Cell[][] {
  const rows: Cell[][] = [];
  for (const po of pos) {
    if (spec.rows === 'po') {
      const ctx: RowContext = { ...base, po, lineNo: 1 };
      rows.push(spec.columns.map((c) => cellOf(c, profile, ctx, true)));
      continue;
    }
    po.lines.forEach((line, i) => {
      const ctx: RowContext = { ...base, po, line, lineNo: i + 1 };
      rows.push(spec.columns.map((c) => cellOf(c, profile, ctx, i === 0)));
    });
  }
  return rows;
}

function csvField(text: string, delimiter: string, always: boolean): string {
  const needs = always || text.includes(delimiter) || /["\r\n]/.test(text);
  return needs ? `"${text.replace(/"/g, '""')}"` : text;
}

function csvBytes(spec: ErpFileSpec, profile: ErpProfile, rows: Cell[][]): Buffer {
  const f = profile.format;
  const eol = f.line_ending === 'crlf' ? '\r\n' : '\n';
  const always = f.quote === 'always';
  const lines: string[] = [];
  if (f.header_row) lines.push(spec.columns.map((c) => csvField(c.name, f.delimiter, always)).join(f.delimiter));
  for (const r of rows) lines.push(r.map((c) => csvField(c.text, f.delimiter, always)).join(f.delimiter));
  return encodeText(lines.map((l) => l + eol).join(''), f.encoding);
}

async function xlsxBytes(spec: ErpFileSpec, profile: ErpProfile, rows: Cell[][]): Promise<Buffer> {
  const ExcelJS = await loadExcelJS();
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet(profile.format.sheet ?? 'Sheet1');
  if (profile.format.header_row) ws.addRow(spec.columns.map((c) => c.name));
  // Numbers as numbers, text as text: never a formula (the cells' texts are made safe in cell-values.ts).
  for (const r of rows) ws.addRow(r.map((c) => (c.number !== undefined ? c.number : c.text === '' ? null : c.text)));
  return Buffer.from(await wb.xlsx.writeBuffer());
}

/** The profile's files for `award` grouped into `pos`; `settings`: the ERP_* values the profile names. */
export async function renderProfile(
  profile: ErpProfile,
  award: ErpAward,
  pos: readonly ErpPo[],
  settings: Readonly<Record<string, string | undefined>>,
): Promise<Rendered> {
  const warnings: string[] = [];
  const base = { award, settings, warnings };
  const files: RenderedFile[] = [];
  for (const spec of profile.files) {
    const rows = rowsOf(spec, profile, base, pos);
    const data = profile.format.type === 'xlsx' ? await xlsxBytes(spec, profile, rows) : csvBytes(spec, profile, rows);
    files.push({ name: fileName(spec.name, profile, award, pos), data });
  }
  if (profile.format.type !== 'zip') return { files, warnings };
  const zip = zipFiles(
    files.map((f) => ({ name: f.name, data: f.data })),
    award.awardedAt,
  );
  return { files: [{ name: fileName(profile.format.zipName!, profile, award, pos), data: zip }], warnings };
}
