/**
 * One reader interface over every format the sniffer recognises: `open(sheet, delimiter)` yields batches of rows of
 * typed cells from the first row on, `sheets()` names the sheets (workbooks) or tables (HTML) in the order they are
 * tried. CSV and tab-separated text (csv-reader), xlsx (xlsx-reader), .xls / XML Spreadsheet 2003 / .ods
 * (sheetjs-reader, the workbook parsed once and kept while the file is read), HTML tables (html-reader) and SAP
 * lists (sap-list-reader). Formats without sheets ignore `sheet`; only CSV text takes a delimiter.
 */
import { type Delimiter, readCsvRows } from './csv-reader.ts';
import type { SniffResult } from './file-sniffer.ts';
import { listHtmlTables, readHtmlRows } from './html-reader.ts';
import type { HeadRow } from './profile-selection.ts';
import { readSapListRows } from './sap-list-reader.ts';
import { loadWorkbook, readWorkbookRows, type LoadedWorkbook } from './sheetjs-reader.ts';
import { listXlsxSheets, readXlsxRows } from './xlsx-reader.ts';

export interface RowSource {
  /** True when the format has several sheets or tables to choose from. */
  readonly multiSheet: boolean;
  open(sheet: string | undefined, delimiter: Delimiter | 'auto'): AsyncGenerator<HeadRow[]>;
  /** Sheet or table names in the order they are tried (visible sheets first); [] for single-table formats. */
  sheets(): Promise<string[]>;
}

/** What each kind is called in a refusal of a read that broke part-way. */
export const KIND_NAME: Record<SniffResult['kind'], string> = {
  csv: 'CSV text',
  xlsx: 'xlsx workbook',
  xls: 'binary Excel workbook (.xls)',
  xml2003: 'XML spreadsheet (XML Spreadsheet 2003)',
  ods: 'OpenDocument spreadsheet (.ods)',
  html: 'HTML page',
  'sap-list': 'SAP list',
};

export function rowSource(path: string, sniff: SniffResult, file: string): RowSource {
  switch (sniff.kind) {
    case 'csv':
      return {
        multiSheet: false,
        open: (_sheet, delimiter) => readCsvRows(path, sniff.encoding, sniff.bomBytes, delimiter),
        sheets: async () => [],
      };
    case 'sap-list':
      return {
        multiSheet: false,
        open: () => readSapListRows(path, sniff.encoding, sniff.bomBytes, file),
        sheets: async () => [],
      };
    case 'html':
      return {
        multiSheet: true,
        open: (sheet) => readHtmlRows(path, sniff.encoding, sniff.bomBytes, file, sheet),
        sheets: async () => (await listHtmlTables(path, sniff.encoding, sniff.bomBytes, file)).map((t) => t.name),
      };
    case 'xlsx':
      return {
        multiSheet: true,
        open: (sheet) => readXlsxRows(path, sheet),
        async sheets() {
          const all = await listXlsxSheets(path);
          return [...all.filter((s) => s.state === 'visible'), ...all.filter((s) => s.state !== 'visible')].map(
            (s) => s.name,
          );
        },
      };
    case 'xls':
    case 'ods':
    case 'xml2003': {
      const kind = sniff.kind;
      let loaded: Promise<LoadedWorkbook> | undefined;
      const book = (): Promise<LoadedWorkbook> => (loaded ??= loadWorkbook(path, kind, file));
      return {
        multiSheet: true,
        async *open(sheet) {
          yield* readWorkbookRows(await book(), sheet);
        },
        async sheets() {
          const all = (await book()).sheets;
          return [...all.filter((s) => s.state === 'visible'), ...all.filter((s) => s.state !== 'visible')].map(
            (s) => s.name,
          );
        },
      };
    }
  }
}
