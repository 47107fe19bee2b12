/**
 * Text that reaches a spreadsheet cell or a CSV field from outside (an ERP export, a supplier's quotation) must
 * never be evaluated as a formula (OWASP "CSV injection"). A value starting with = + - @ tab CR or LF gets a
 * leading single quote (OWASP's advice): it stays text in Excel and LibreOffice, even after a CSV round trip or
 * when someone edits the cell. Numbers we compute are written as numbers, never through this.
 */
const DANGEROUS_FIRST = new Set(['=', '+', '-', '@', '\t', '\r', '\n']);

export function isFormulaLike(text: string): boolean {
  return text.length > 0 && DANGEROUS_FIRST.has(text[0]!);
}

/** The string to put in a cell (exceljs: as a plain string value, never `{ formula }`). */
export function safeCellText(value: string | null | undefined): string {
  if (value === null || value === undefined) return '';
  // Strip characters XML 1.0 cannot carry: a workbook holding them needs "repair" in Excel.
  const clean = value.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '');
  return isFormulaLike(clean) ? `'${clean}` : clean;
}

/** One CSV field, neutralised and quoted when needed (RFC 4180). */
export function safeCsvField(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'number' ? String(value) : safeCellText(value);
  return /[",\r\n;]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
