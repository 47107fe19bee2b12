/**
 * The formats rfq-sync reads: one module per format (its kind and name, recognition by content, its encoding rules,
 * its sheet limits, how it is opened), listed in all-formats.ts; the sniffer that recognises a file by them; the
 * readers behind them.
 */
export { FORMATS, formatOf } from './all-formats.ts';
export { DateTime } from './cell-time.ts';
export type {
  CellValue,
  Evidence,
  FileFormat,
  FormatKind,
  HeadRow,
  RowSource,
  SheetLimit,
  SniffedFile,
} from './format.ts';
export { DEFAULT_MAX_IN_MEMORY_BYTES, sniffFile, type IngestLimits } from './sniffer.ts';
export {
  DELIMITERS,
  detectDelimiter,
  fileDelimiter,
  MAX_CSV_RECORD_CHARS,
  readCsvRows,
  type Delimiter,
} from './csv-reader.ts';
export type { TextDecision, TextEncoding } from './text-encoding.ts';
