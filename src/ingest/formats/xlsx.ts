/**
 * xlsx workbooks (Office Open XML), streamed (xlsx-reader.ts): never loaded whole, whatever wrote them. Their text
 * is UTF-8 (or UTF-16) as each XML part declares, decoded by the XML parser.
 */
import type { FileFormat, SheetLimit } from './format.ts';
import { triedOrder } from './sheet-choice.ts';
import { listXlsxSheets, readXlsxRows } from './xlsx-reader.ts';

const XLSX_SHEET: SheetLimit = { what: 'an xlsx sheet', rows: 1_048_576, columns: 16_384 };

export const xlsxFormat: FileFormat = {
  kind: 'xlsx',
  name: 'xlsx workbook',
  container: 'zip',
  recognize: (e) => e.container === 'zip' && e.entries.has('xl/workbook.xml'),
  limits: [XLSX_SHEET],
  doc: {
    title: 'xlsx',
    recognisedBy: 'a zip holding `xl/workbook.xml`',
    read: 'streamed (exceljs)',
    encodings: 'UTF-8 or UTF-16, as each XML part declares',
  },
  open: (f) => ({
    multiSheet: true,
    open: (sheet) => readXlsxRows(f.path, sheet),
    sheets: async () => triedOrder(await listXlsxSheets(f.path)).map((s) => s.name),
    limit: () => XLSX_SHEET,
  }),
};
