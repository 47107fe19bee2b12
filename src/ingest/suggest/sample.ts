/**
 * The bounded sample `check --suggest` reasons on: the encoding, the delimiter, the sheet or table, the header row
 * and the first SAMPLE_ROWS data rows. The file is sniffed by content as ingestion sniffs it (its format, and its
 * encoding by that format's own rules) and its rows come from the same readers (the format's RowSource), stopped
 * early, so a 1M-line export costs a few thousand rows (a format parsed whole in memory is bounded by the sniffer's
 * MAX_IN_MEMORY_READ_BYTES).
 */
import { basename } from 'node:path';
import { FileRefusedError } from '../../core/index.ts';
import {
  fileDelimiter,
  sniffFile,
  type Delimiter,
  type FileFormat,
  type FormatKind,
  type HeadRow,
  type IngestLimits,
  type RowSource,
  type SniffedFile,
  type TextEncoding,
} from '../formats/index.ts';
import { nameScore, type Concept } from './header-vocabulary.ts';
import { cellText, isBlankRow, type Cell } from '../mapping-engine.ts';
import { HEADER_SEARCH_ROWS } from '../profile-selection.ts';
import { sampleHeader, type SampleHeader } from './header.ts';

/** Data rows read after the header ("the first few thousand rows"). */
export const SAMPLE_ROWS = 5000;

export interface FileSample extends SampleHeader {
  file: string;
  kind: FormatKind;
  encoding?: TextEncoding;
  /** How the encoding was decided (the sniffer's words: its byte order mark, its declaration, detected, guessed). */
  encodingHow?: string;
  /** True when nothing in the file says its encoding. */
  encodingGuessed?: boolean;
  bom?: boolean;
  delimiter?: Delimiter;
  /** How many of the sampled lines split into the header's number of cells (CSV). */
  delimiterFit?: { fit: number; of: number };
  sheet?: string;
  sheets?: string[];
  rows: HeadRow[];
  /** True when the sample is the whole file (every data row was read). */
  complete: boolean;
}

export async function readSample(
  path: string,
  limits: IngestLimits,
  displayName = basename(path),
): Promise<FileSample> {
  // By content, as ingestion reads it: the sniffer's refusals (encrypted, zip bombs, an HTML page without a table,
  // over the in-memory budget, an encoding that cannot be decoded) apply unchanged, and its cost is bounded by them.
  const sniff = await sniffFile(path, displayName, limits);
  const source = sniff.format.open(sniff);
  if (sniff.format.kind === 'csv') return sampleCsv(source, sniff);
  if (!source.multiSheet) return sampleList(source, sniff);
  return sampleSheets(source, sniff.format, displayName);
}

async function sampleCsv(source: RowSource, sniff: SniffedFile): Promise<FileSample> {
  const { rows, complete } = await collect(source.open(undefined, 'auto'));
  const found = sampleHeader(rows);
  if (!found)
    throw new FileRefusedError(
      sniff.file,
      `has no header row (a row of column names) in its first ${HEADER_SEARCH_ROWS} rows`,
    );
  const delimiter = await fileDelimiter(sniff.path, sniff.text!);
  const width = found.header.headers.length;
  const { data, whole } = dataRows(rows, found.at, complete);
  const fit = data.filter((r) => trimmedWidth(r.cells) <= width && trimmedWidth(r.cells) >= Math.min(width, 2)).length;
  return {
    file: sniff.file,
    kind: 'csv',
    encoding: sniff.text!.encoding,
    encodingHow: sniff.text!.how,
    encodingGuessed: sniff.text!.guessed,
    bom: sniff.text!.bomBytes > 0,
    delimiter,
    delimiterFit: { fit, of: data.length },
    ...found.header,
    rows: data,
    complete: whole,
  };
}

function trimmedWidth(cells: readonly Cell[]): number {
  let n = cells.length;
  while (n > 0 && cellText(cells[n - 1]) === '') n--;
  return n;
}

/** An SAP list saved "Unconverted": its reader leaves out rule lines, repeated page headers and subtotals. */
async function sampleList(source: RowSource, sniff: SniffedFile): Promise<FileSample> {
  const { rows, complete } = await collect(source.open(undefined, 'auto'));
  const found = sampleHeader(rows);
  if (!found)
    throw new FileRefusedError(
      sniff.file,
      `has no header row (a row of column names) in its first ${HEADER_SEARCH_ROWS} rows`,
    );
  const { data, whole } = dataRows(rows, found.at, complete);
  return {
    file: sniff.file,
    kind: sniff.format.kind,
    encoding: sniff.text!.encoding,
    encodingHow: sniff.text!.how,
    encodingGuessed: sniff.text!.guessed,
    bom: sniff.text!.bomBytes > 0,
    ...found.header,
    rows: data,
    complete: whole,
  };
}

interface SheetChoice {
  sheet: string;
  rows: HeadRow[];
  at: number;
  header: SampleHeader;
  complete: boolean;
  known: number;
  score: number;
}

/**
 * A workbook or an HTML page: the first sheet or table (visible ones first, as rowSource orders them) whose header
 * names at least KNOWN_HEADERS columns the vocabulary knows and has data below it; else the one with the best header
 * and the most data rows (an "Export info" sheet before the data, as D365 writes; a table of report parameters).
 */
async function sampleSheets(source: RowSource, format: FileFormat, file: string): Promise<FileSample> {
  const kind = format.kind;
  let sheets: string[];
  try {
    sheets = await source.sheets();
  } catch (err) {
    if (err instanceof FileRefusedError) throw err;
    throw new FileRefusedError(file, `is a corrupt ${format.name} (${(err as Error).message})`, { cause: err });
  }
  // no sheet or table at all: the reader's own refusal ("an HTML page without a table"), as ingestion gives it
  if (sheets.length === 0) await collect(source.open(undefined, 'auto'));
  let best: SheetChoice | undefined;
  for (const sheet of sheets) {
    const { rows, complete } = await collect(source.open(sheet, 'auto'));
    const found = sampleHeader(rows);
    if (!found) continue;
    const dataRows = rows.length - found.at - 1;
    const headers = found.header.headers;
    const known = headers.filter(knownHeader).length;
    const choice = { sheet, rows, at: found.at, header: found.header, complete, known };
    if (known >= KNOWN_HEADERS && dataRows > 0) {
      best = { ...choice, score: Infinity };
      break;
    }
    const score = Math.min(dataRows, 50) * 100 + headers.filter(Boolean).length;
    if (!best || score > best.score) best = { ...choice, score };
  }
  if (!best)
    throw new FileRefusedError(
      file,
      `has no ${kind === 'html' ? 'table' : 'sheet'} with a header row (a row of column names) in its first ${HEADER_SEARCH_ROWS} rows`,
    );
  const { data, whole } = dataRows(best.rows, best.at, best.complete);
  return {
    file,
    kind,
    sheet: best.sheet,
    sheets,
    ...best.header,
    rows: data,
    complete: whole,
  };
}

/** Headers the vocabulary must know for a sheet to be taken as the data without looking further. */
const KNOWN_HEADERS = 3;

const CONCEPTS: readonly Concept[] = ['requisition', 'product', 'uom', 'qty', 'unitPrice', 'total', 'requiredDate'];

/** The header names a concept of a requisition line exactly (or as a known short header). */
function knownHeader(header: string): boolean {
  return CONCEPTS.some((c) => nameScore(header, c) >= 3);
}

/** The non-blank rows below the header, at most SAMPLE_ROWS; `whole` when they are all the file has. */
function dataRows(rows: readonly HeadRow[], headerAt: number, complete: boolean): { data: HeadRow[]; whole: boolean } {
  const data = rows.slice(headerAt + 1).filter((r) => !isBlankRow(r.cells));
  if (data.length <= SAMPLE_ROWS) return { data, whole: complete };
  return { data: data.slice(0, SAMPLE_ROWS), whole: false };
}

/** Up to HEADER_SEARCH_ROWS + SAMPLE_ROWS rows, then the reader is stopped (its file closed). */
async function collect(src: AsyncGenerator<HeadRow[]>): Promise<{ rows: HeadRow[]; complete: boolean }> {
  const rows: HeadRow[] = [];
  const max = HEADER_SEARCH_ROWS + SAMPLE_ROWS;
  let complete = true;
  try {
    for await (const batch of src) {
      for (const r of batch) {
        if (rows.length >= max) {
          complete = false;
          break;
        }
        rows.push(r);
      }
      if (!complete) break;
    }
  } finally {
    await src.return(undefined);
  }
  return { rows, complete };
}
