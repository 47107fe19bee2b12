/**
 * The bounded sample `check --suggest` reasons on: the encoding (from the first MiB, not the whole file), the
 * delimiter, the sheet or table, the header row and the first SAMPLE_ROWS data rows. The file is sniffed by content
 * as ingestion sniffs it (file-sniffer.ts) and its rows come from the same readers (csv-reader for CSV text, else
 * row-source.ts: xlsx, .xls, XML Spreadsheet 2003, .ods, HTML tables, SAP lists), stopped early, so a 1M-line export
 * costs a few thousand rows (a format parsed whole in memory is bounded by the sniffer's MAX_IN_MEMORY_READ_BYTES).
 */
import { open } from 'node:fs/promises';
import { basename } from 'node:path';
import { FileRefusedError } from '../../core/index.ts';
import { detectDelimiter, readCsvRows, type Delimiter } from '../csv-reader.ts';
import { sniffFile, type IngestLimits, type TextEncoding } from '../file-sniffer.ts';
import { nameScore, type Concept } from './header-vocabulary.ts';
import { cellText, isBlankRow, type Cell } from '../mapping-engine.ts';
import { HEADER_SEARCH_ROWS, type HeadRow } from '../profile-selection.ts';
import { KIND_NAME, rowSource, type RowSource } from '../row-source.ts';
import { sampleHeader, type SampleHeader } from './header.ts';

/** Data rows read after the header ("the first few thousand rows"). */
export const SAMPLE_ROWS = 5000;
/** Bytes looked at for the encoding of a text file. */
const ENCODING_BYTES = 1 << 20;

/** Formats with sheets (workbooks) or tables (HTML pages) to choose from. */
export type SheetKind = 'xlsx' | 'xls' | 'xml2003' | 'ods' | 'html';

export interface FileSample extends SampleHeader {
  file: string;
  kind: 'csv' | SheetKind | 'sap-list';
  encoding?: TextEncoding;
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
  const head = await readHead(path, displayName);
  // By content, as ingestion reads it: the sniffer's refusals (encrypted, zip bombs, an HTML page without a table,
  // over the in-memory budget) apply unchanged, and its cost is bounded by them.
  const sniff = await sniffFile(path, displayName, limits);
  if (sniff.kind === 'csv') return sampleCsv(path, displayName, head);
  const source = rowSource(path, sniff, displayName);
  if (sniff.kind === 'sap-list') return sampleList(source, displayName, sniff.encoding, sniff.bomBytes > 0);
  return sampleSheets(source, sniff.kind, displayName);
}

async function readHead(path: string, displayName: string): Promise<Buffer> {
  let fh;
  try {
    fh = await open(path, 'r');
  } catch (err) {
    throw new FileRefusedError(
      displayName,
      `cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`,
      { cause: err },
    );
  }
  try {
    const buf = Buffer.alloc(ENCODING_BYTES);
    const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
    if (bytesRead === 0) throw new FileRefusedError(displayName, 'is empty (0 bytes)');
    return buf.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
}

/** Encoding from the first MiB: a BOM, else strict UTF-8 (a sequence cut at the end of the sample is fine). */
export function detectEncoding(head: Buffer): { encoding: TextEncoding; bomBytes: number } {
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return { encoding: 'utf8', bomBytes: 3 };
  if (head[0] === 0xff && head[1] === 0xfe) return { encoding: 'utf16le', bomBytes: 2 };
  if (head[0] === 0xfe && head[1] === 0xff) return { encoding: 'utf16be', bomBytes: 2 };
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(head, { stream: true });
    return { encoding: 'utf8', bomBytes: 0 };
  } catch {
    return { encoding: 'windows1252', bomBytes: 0 };
  }
}

async function sampleCsv(path: string, file: string, head: Buffer): Promise<FileSample> {
  const { encoding, bomBytes } = detectEncoding(head);
  if (encoding !== 'utf16le' && encoding !== 'utf16be' && head.includes(0))
    throw new FileRefusedError(file, 'holds binary data (NUL bytes), not CSV text');
  const { rows, complete } = await collect(readCsvRows(path, encoding, bomBytes, 'auto'));
  const found = sampleHeader(rows);
  if (!found)
    throw new FileRefusedError(
      file,
      `has no header row (a row of column names) in its first ${HEADER_SEARCH_ROWS} rows`,
    );
  const delimiter = await detectedDelimiter(path, encoding, bomBytes);
  const width = found.header.headers.length;
  const { data, whole } = dataRows(rows, found.at, complete);
  const fit = data.filter((r) => trimmedWidth(r.cells) <= width && trimmedWidth(r.cells) >= Math.min(width, 2)).length;
  return {
    file,
    kind: 'csv',
    encoding,
    bom: bomBytes > 0,
    delimiter,
    delimiterFit: { fit, of: data.length },
    ...found.header,
    rows: data,
    complete: whole,
  };
}

/** The delimiter csv-reader chose (it does not say which): the same detection on the same 64 KiB. */
async function detectedDelimiter(path: string, encoding: TextEncoding, bomBytes: number): Promise<Delimiter> {
  const fh = await open(path, 'r');
  try {
    const buf = Buffer.alloc(64 * 1024);
    const { bytesRead } = await fh.read(buf, 0, buf.length, bomBytes);
    const b = buf.subarray(0, bytesRead);
    const text =
      encoding === 'utf8'
        ? b.toString('utf8')
        : encoding === 'utf16le'
          ? b.toString('utf16le')
          : encoding === 'utf16be'
            ? Buffer.from(b).swap16().toString('utf16le')
            : b.toString('latin1');
    return detectDelimiter(text);
  } finally {
    await fh.close();
  }
}

function trimmedWidth(cells: readonly Cell[]): number {
  let n = cells.length;
  while (n > 0 && cellText(cells[n - 1]) === '') n--;
  return n;
}

/** An SAP list saved "Unconverted": its reader leaves out rule lines, repeated page headers and subtotals. */
async function sampleList(source: RowSource, file: string, encoding: TextEncoding, bom: boolean): Promise<FileSample> {
  const { rows, complete } = await collect(source.open(undefined, 'auto'));
  const found = sampleHeader(rows);
  if (!found)
    throw new FileRefusedError(
      file,
      `has no header row (a row of column names) in its first ${HEADER_SEARCH_ROWS} rows`,
    );
  const { data, whole } = dataRows(rows, found.at, complete);
  return {
    file,
    kind: 'sap-list',
    encoding,
    bom,
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
async function sampleSheets(source: RowSource, kind: SheetKind, file: string): Promise<FileSample> {
  let sheets: string[];
  try {
    sheets = await source.sheets();
  } catch (err) {
    if (err instanceof FileRefusedError) throw err;
    throw new FileRefusedError(file, `is a corrupt ${KIND_NAME[kind]} (${(err as Error).message})`, { cause: err });
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
