/**
 * Decide what a file is by its content (never its extension) before any parser sees it, and refuse what we cannot
 * read with one sentence: too big, empty, encrypted (password-protected) xlsx, an OLE2 document holding no workbook,
 * a zip that would inflate past the limits (checked on the central directory with yauzl, before exceljs opens it),
 * a corrupt workbook, binary garbage, or text that is another kind of document (format-recognition.ts). What is read:
 * xlsx, OpenDocument .ods and old binary .xls (BIFF, in an OLE2 container) as workbooks, and text as CSV or
 * tab-separated text, an HTML table, an XML Spreadsheet 2003 or an SAP list. Formats parsed whole in memory
 * (.xls, XML 2003, .ods) are refused when their parse would take more than `maxInMemoryBytes`. For text, the
 * encoding: UTF-8 (BOM or not),
 * UTF-16 LE/BE (BOM), else Windows-1252.
 */
import { isAscii } from 'node:buffer';
import { open, stat } from 'node:fs/promises';
import { extname } from 'node:path';
import yauzl from 'yauzl';
import { FileRefusedError } from '../core/index.ts';
import { headText, openDocumentType, recognizeText } from './format-recognition.ts';
import { ole2Content } from './ole2-content.ts';

export interface IngestLimits {
  maxFileBytes: number;
  maxXlsxUncompressedBytes: number;
  maxXlsxEntries: number;
  /**
   * Memory budget of a file parsed whole (.xls, XML Spreadsheet 2003, .ods): its size (an .ods': its uncompressed
   * parts) times its format's IN_MEMORY_EXPANSION must stay below it; default 1 GiB (MAX_IN_MEMORY_READ_BYTES).
   */
  maxInMemoryBytes?: number;
}

/** The default of MAX_IN_MEMORY_READ_BYTES (src/settings/folders.ts). */
export const DEFAULT_MAX_IN_MEMORY_BYTES = 1024 ** 3;

/**
 * Peak memory of SheetJS' whole-file parse as a multiple of the bytes it parses, rounded up from what
 * `npm run bench:ingest` measures (peak RSS of the read over the file's size, docs/development.md).
 */
export const IN_MEMORY_EXPANSION: Record<InMemoryKind, number> = { xls: 28, xml2003: 8, ods: 8 };

export type TextEncoding = 'utf8' | 'utf16le' | 'utf16be' | 'windows1252';

/** Formats a reader holds whole in memory (sheetjs-reader.ts). */
export type InMemoryKind = 'xls' | 'ods' | 'xml2003';

export type SniffResult =
  | { kind: 'csv' | 'sap-list' | 'html'; encoding: TextEncoding; bomBytes: number; size: number }
  | { kind: 'xlsx' | 'xls' | 'ods' | 'xml2003'; size: number };

const SNIFF_BYTES = 64 * 1024;

function mib(n: number): string {
  return `${(n / 1024 / 1024).toFixed(1)} MiB`;
}

/** Words for the errno codes a user meets (a missing file, a file the service account may not read). */
const ERRNO_TEXT: Record<string, string> = {
  ENOENT: 'no such file',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EISDIR: 'is a directory',
  EBUSY: 'the file is locked by another program',
  EIO: 'input/output error',
};

function readFailure(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  const text = code !== undefined ? ERRNO_TEXT[code] : undefined;
  if (text !== undefined) return `${text} (${code})`;
  return `cannot be read (${code ?? (err as Error).message})`;
}

export async function sniffFile(path: string, displayName: string, limits: IngestLimits): Promise<SniffResult> {
  const refuse = (reason: string, cause?: unknown): never => {
    throw new FileRefusedError(displayName, reason, cause === undefined ? undefined : { cause });
  };
  let size: number;
  try {
    const st = await stat(path);
    if (!st.isFile()) refuse('is not a regular file');
    size = st.size;
  } catch (err) {
    if (err instanceof FileRefusedError) throw err;
    return refuse(readFailure(err), err);
  }
  if (size === 0) refuse('is empty (0 bytes)');
  if (size > limits.maxFileBytes) refuse(`is ${mib(size)}, over the ${mib(limits.maxFileBytes)} size limit`);

  const head = Buffer.alloc(Math.min(SNIFF_BYTES, size));
  try {
    const fh = await open(path, 'r');
    try {
      await fh.read(head, 0, head.length, 0);
    } finally {
      await fh.close();
    }
  } catch (err) {
    refuse(readFailure(err), err);
  }
  const ext = extname(displayName).toLowerCase();

  const budget = limits.maxInMemoryBytes ?? DEFAULT_MAX_IN_MEMORY_BYTES;
  /** The refusal of a file whose whole-file parse would take more memory than the budget, else undefined. */
  const overBudget = (kind: InMemoryKind, what: string, bytes: number): string | undefined =>
    bytes * IN_MEMORY_EXPANSION[kind] <= budget
      ? undefined
      : `is ${what}: read whole it would take about ${mib(bytes * IN_MEMORY_EXPANSION[kind])} of memory, over the ${mib(budget)} budget for files read into memory (MAX_IN_MEMORY_READ_BYTES)`;

  // OLE2 compound document: old .xls, or an xlsx saved with a password (Office encrypts into an OLE2 container).
  if (head.length >= 8 && head.readUInt32BE(0) === 0xd0cf11e0 && head.readUInt32BE(4) === 0xa1b11ae1) {
    const over = overBudget('xls', `an old binary Excel file (.xls) of ${mib(size)}`, size);
    if (over) refuse(over);
    const content = await ole2Content(path);
    if (content !== 'workbook') refuse(content.refuse);
    return { kind: 'xls', size };
  }
  if (head.length >= 4 && head.readUInt32BE(0) === 0x504b0304) {
    const zip = await checkZip(path, limits, refuse, openDocumentType(head));
    const what = `an OpenDocument spreadsheet (.ods) that inflates to ${mib(zip.uncompressed)}`;
    const over = zip.kind === 'ods' ? overBudget('ods', what, zip.uncompressed) : undefined;
    if (over) refuse(over);
    return { kind: zip.kind, size };
  }
  if (head.length >= 4 && head.readUInt32BE(0) === 0x504b0506) refuse('is an empty zip archive, not a workbook');
  if (head.length >= 5 && head.toString('latin1', 0, 5) === '%PDF-')
    refuse('is a PDF document, not a spreadsheet export');
  // Binary content named .xlsx: a workbook damaged or renamed (text named .xlsx is read as what it is).
  if ((ext === '.xlsx' || ext === '.xlsm') && isBinaryHead(head))
    refuse('is not a valid xlsx workbook (it is not a zip archive: corrupt or renamed)');

  // Text.
  let encoding: TextEncoding;
  let bomBytes = 0;
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) [encoding, bomBytes] = ['utf8', 3];
  else if (head[0] === 0xff && head[1] === 0xfe) [encoding, bomBytes] = ['utf16le', 2];
  else if (head[0] === 0xfe && head[1] === 0xff) [encoding, bomBytes] = ['utf16be', 2];
  else {
    if (head.includes(0)) refuse('holds binary data (NUL bytes), not CSV text');
    encoding = (await isWholeFileUtf8(path)) ? 'utf8' : 'windows1252';
  }
  if (encoding === 'utf8' || encoding === 'windows1252') {
    // Control characters other than tab/CR/LF/FF are rare in text and common in binary.
    let control = 0;
    for (let i = bomBytes; i < head.length; i++) {
      const b = head[i]!;
      if (b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d && b !== 0x0c) control++;
    }
    if (control > (head.length - bomBytes) * 0.01) refuse('holds binary data (control characters), not CSV text');
  }
  if (size === bomBytes || isBlank(head.subarray(bomBytes), encoding)) {
    if (size <= SNIFF_BYTES) refuse('is empty (no rows)');
  }
  const text = recognizeText(headText(head, encoding, bomBytes));
  if ('refuse' in text) return refuse(text.refuse);
  if (text.kind === 'xml2003') {
    const over = overBudget('xml2003', `an XML spreadsheet of ${mib(size)}`, size);
    if (over) refuse(over);
    return { kind: 'xml2003', size };
  }
  return { kind: text.kind, encoding, bomBytes, size };
}

/** Bytes no text file starts with: NUL or other control characters among the first 512. */
function isBinaryHead(head: Buffer): boolean {
  for (const b of head.subarray(0, 512)) if (b < 0x09 || (b > 0x0d && b < 0x20)) return true;
  return false;
}

function isBlank(b: Buffer, enc: TextEncoding): boolean {
  const text =
    enc === 'utf16le'
      ? b.toString('utf16le')
      : enc === 'utf16be'
        ? Buffer.from(b).swap16().toString('utf16le')
        : b.toString('latin1');
  return /^[\s,;|\t"\u0000]*$/.test(text);
}

/** Strict UTF-8 check over the whole file (streamed): a file valid only at its start is not UTF-8. */
async function isWholeFileUtf8(path: string): Promise<boolean> {
  const dec = new TextDecoder('utf-8', { fatal: true });
  const fh = await open(path, 'r');
  const buf = Buffer.alloc(1 << 20);
  try {
    for (;;) {
      const { bytesRead } = await fh.read(buf, 0, buf.length, null);
      if (bytesRead === 0) break;
      const chunk = buf.subarray(0, bytesRead);
      // Pure ASCII chunks (the usual case) need no decoding.
      if (!isAscii(chunk)) dec.decode(chunk, { stream: true });
    }
    dec.decode();
    return true;
  } catch {
    return false;
  } finally {
    await fh.close();
  }
}

/** How both passes open the archive: entry by entry, kept open until closed, declared sizes checked on inflating. */
const ZIP_OPEN = { lazyEntries: true, autoClose: false, validateEntrySizes: true, strictFileNames: false } as const;

/** Read the central directory only: entry count, declared uncompressed sizes, what kind of zip it is. */
async function checkZip(
  path: string,
  limits: IngestLimits,
  refuse: (reason: string, cause?: unknown) => never,
  openDocument: string | undefined,
): Promise<{ kind: 'xlsx' | 'ods'; uncompressed: number }> {
  let zip: yauzl.ZipFile;
  try {
    zip = await yauzl.openPromise(path, ZIP_OPEN);
  } catch (err) {
    return refuse(`is a corrupt zip/xlsx archive (${(err as Error).message})`, err);
  }
  let total = 0;
  try {
    if (zip.entryCount > limits.maxXlsxEntries)
      refuse(`is a zip with ${zip.entryCount} entries, over the limit of ${limits.maxXlsxEntries}`);
    const names = new Set<string>();
    let encrypted = false;
    await new Promise<void>((resolve, reject) => {
      zip.on('entry', (e: yauzl.Entry) => {
        total += e.uncompressedSize;
        names.add(e.fileName);
        if (e.isEncrypted()) encrypted = true;
        if (total > limits.maxXlsxUncompressedBytes) {
          reject(
            new FileRefusedError(
              '',
              `would inflate to more than ${mib(limits.maxXlsxUncompressedBytes)} (zip bomb guard)`,
            ),
          );
          return;
        }
        zip.readEntry();
      });
      zip.on('end', () => resolve());
      zip.on('error', reject);
      zip.readEntry();
    }).catch((err: unknown) => {
      if (err instanceof FileRefusedError) refuse(err.reason);
      refuse(`is a corrupt zip/xlsx archive (${(err as Error).message})`, err);
    });
    if (encrypted) refuse('is an encrypted zip archive; save it without a password');
    const ods = !names.has('xl/workbook.xml') && names.has('mimetype') && names.has('content.xml');
    if (ods && openDocument !== undefined && !openDocument.endsWith('.spreadsheet'))
      refuse(`is an OpenDocument file of type ${openDocument.split('.').pop()}, not a spreadsheet`);
    if (!ods && !names.has('xl/workbook.xml'))
      refuse('is a zip archive but not an xlsx or OpenDocument workbook (no xl/workbook.xml, no content.xml)');
    await inflateAll(path, refuse);
    return { kind: ods ? 'ods' : 'xlsx', uncompressed: total };
  } finally {
    zip.close();
  }
}

/**
 * The central directory's sizes are only claims: inflate every entry once (streamed, nothing kept) with yauzl's
 * size validation, so an archive that lies about its sizes is refused before exceljs inflates it for real.
 */
async function inflateAll(path: string, refuse: (reason: string, cause?: unknown) => never): Promise<void> {
  let zip: yauzl.ZipFile | undefined;
  const truncated: string[] = [];
  try {
    zip = await yauzl.openPromise(path, ZIP_OPEN);
    const z = zip;
    await new Promise<void>((resolve, reject) => {
      z.on('entry', (e: yauzl.Entry) => {
        if (e.fileName.endsWith('/')) return z.readEntry();
        z.openReadStream(e, (err, stream) => {
          if (err) return reject(err);
          // A sheet cut short still parses (the XML parser is lenient): its last tag must close the worksheet.
          const isSheet = /^xl\/worksheets\/[^/]+\.xml$/.test(e.fileName);
          let tail = '';
          stream.on('error', reject);
          if (isSheet) stream.on('data', (b: Buffer) => (tail = (tail + b.toString('latin1')).slice(-64)));
          stream.on('end', () => {
            if (isSheet && !/<\/([\w-]+:)?worksheet>\s*$/.test(tail)) truncated.push(e.fileName);
            z.readEntry();
          });
          if (!isSheet) stream.resume();
        });
      });
      z.on('end', () => resolve());
      z.on('error', reject);
      z.readEntry();
    });
    if (truncated.length > 0) refuse(`is a corrupt xlsx workbook (sheet ${truncated[0]} is cut short)`);
  } catch (err) {
    if (err instanceof FileRefusedError) throw err;
    const msg = (err as Error).message;
    if (/too many bytes/i.test(msg)) refuse('inflates to more than its zip directory declares (zip bomb guard)', err);
    refuse(`is a corrupt zip/xlsx archive (${msg})`, err);
  } finally {
    zip?.close();
  }
}
