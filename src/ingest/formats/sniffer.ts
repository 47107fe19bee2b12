/**
 * Decide what a file is by its content (never its extension) before any parser sees it, and refuse what we cannot
 * read with one sentence: too big, empty, encrypted (password-protected) xlsx, an OLE2 document holding no workbook,
 * a zip that would inflate past the limits (checked on the central directory with yauzl, before exceljs opens it),
 * a corrupt workbook, binary garbage, or text that is another kind of document (recognition.ts). Which format it is,
 * and how its text is decoded, the formats themselves say (all-formats.ts): each tried in turn on what the file's
 * container (OLE2, zip or text) shows. Formats parsed whole in memory are refused when their parse would take more
 * than `maxInMemoryBytes`.
 */
import { open, stat } from 'node:fs/promises';
import { extname } from 'node:path';
import yauzl from 'yauzl';
import { FileRefusedError } from '../../core/index.ts';
import { FORMATS } from './all-formats.ts';
import type { Evidence, FileFormat, SniffedFile } from './format.ts';
import { ole2Content, ole2Refusal } from './ole2-content.ts';
import { documentRefusal, markupRefusal, openDocumentType } from './recognition.ts';
import { byteOrderMark, probeText, type TextProbe } from './text-encoding.ts';

export interface IngestLimits {
  maxFileBytes: number;
  maxXlsxUncompressedBytes: number;
  maxXlsxEntries: number;
  /**
   * Memory budget of a file parsed whole (.xls, XML Spreadsheet 2003, .ods): its size (an .ods': its uncompressed
   * parts) times its format's in-memory expansion must stay below it; default 1 GiB (MAX_IN_MEMORY_READ_BYTES).
   */
  maxInMemoryBytes?: number;
}

/** The default of MAX_IN_MEMORY_READ_BYTES (src/settings/folders.ts). */
export const DEFAULT_MAX_IN_MEMORY_BYTES = 1024 ** 3;

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

/** The first format of the container that recognises the evidence; a format's own refusal refuses the file. */
function recognized(e: Evidence, refuse: (reason: string) => never): FileFormat | undefined {
  for (const f of FORMATS) {
    if (f.container !== e.container) continue;
    const r = f.recognize(e);
    if (r === true) return f;
    if (r !== false) refuse(r.refuse);
  }
  return undefined;
}

export async function sniffFile(path: string, displayName: string, limits: IngestLimits): Promise<SniffedFile> {
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
  const sniffed = (format: FileFormat, parsed = size): SniffedFile => {
    const over = format.inMemory && overBudget(format.inMemory, parsed, limits);
    if (over) refuse(over);
    return { path, file: displayName, size, format };
  };

  // OLE2 compound document: old .xls, or an xlsx saved with a password (Office encrypts into an OLE2 container).
  if (head.length >= 8 && head.readUInt32BE(0) === 0xd0cf11e0 && head.readUInt32BE(4) === 0xa1b11ae1) {
    // the container is read whole to list its streams: held to the budget of the formats it may hold first
    for (const f of FORMATS) {
      const over = f.container === 'ole2' && f.inMemory && overBudget(f.inMemory, size, limits);
      if (over) refuse(over);
    }
    const content = await ole2Content(path);
    if ('refuse' in content) return refuse(content.refuse);
    const format = recognized({ container: 'ole2', streams: content.streams }, refuse);
    return sniffed(format ?? refuse(ole2Refusal(content.streams)));
  }
  if (head.length >= 4 && head.readUInt32BE(0) === 0x504b0304) {
    const zip = await checkZip(path, limits, refuse, openDocumentType(head));
    return sniffed(zip.format, zip.uncompressed);
  }
  if (head.length >= 4 && head.readUInt32BE(0) === 0x504b0506) refuse('is an empty zip archive, not a workbook');
  if (head.length >= 5 && head.toString('latin1', 0, 5) === '%PDF-')
    refuse('is a PDF document, not a spreadsheet export');
  // Binary content named .xlsx: a workbook damaged or renamed (text named .xlsx is read as what it is).
  if ((ext === '.xlsx' || ext === '.xlsm') && isBinaryHead(head))
    refuse('is not a valid xlsx workbook (it is not a zip archive: corrupt or renamed)');

  // Text.
  const bom = byteOrderMark(head);
  const bomBytes = bom?.bomBytes ?? 0;
  if (!bom && head.includes(0)) refuse('holds binary data (NUL bytes), not CSV text');
  if (!bom?.encoding.startsWith('utf16')) {
    // Control characters other than tab/CR/LF/FF are rare in text and common in binary.
    let control = 0;
    for (let i = bomBytes; i < head.length; i++) {
      const b = head[i]!;
      if (b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d && b !== 0x0c) control++;
    }
    if (control > (head.length - bomBytes) * 0.01) refuse('holds binary data (control characters), not CSV text');
  }
  // Recognition looks at markup and punctuation only: the head as its mark says, else byte for byte.
  const text = headText(head, bom?.encoding, bomBytes);
  if (size === bomBytes || /^[\s,;|\t"\u0000]*$/.test(text)) {
    if (size <= SNIFF_BYTES) refuse('is empty (no rows)');
  }
  const notSpreadsheet = documentRefusal(text);
  if (notSpreadsheet) refuse(notSpreadsheet);
  const format = recognized({ container: 'text', text }, refuse) ?? refuse(markupRefusal(text));
  let probed: Promise<TextProbe> | undefined;
  const decision = await format.encoding!(head, () => (probed ??= probeText(path)));
  if ('refuse' in decision) return refuse(decision.refuse);
  return { ...sniffed(format), text: decision };
}

/** The refusal of a whole-file parse that would take more memory than the budget, else undefined. */
function overBudget(m: NonNullable<FileFormat['inMemory']>, bytes: number, limits: IngestLimits): string | undefined {
  const budget = limits.maxInMemoryBytes ?? DEFAULT_MAX_IN_MEMORY_BYTES;
  const need = bytes * m.expansion;
  if (need <= budget) return undefined;
  const what = m.of === 'file' ? `${m.called} of ${mib(bytes)}` : `${m.called} that inflates to ${mib(bytes)}`;
  return `is ${what}: read whole it would take about ${mib(need)} of memory, over the ${mib(budget)} budget for files read into memory (MAX_IN_MEMORY_READ_BYTES)`;
}

/** Bytes no text file starts with: NUL or other control characters among the first 512. */
function isBinaryHead(head: Buffer): boolean {
  for (const b of head.subarray(0, 512)) if (b < 0x09 || (b > 0x0d && b < 0x20)) return true;
  return false;
}

/** The head as text by its byte order mark (a sequence cut at its end is harmless here), else byte for byte. */
function headText(head: Buffer, encoding: string | undefined, bomBytes: number): string {
  const b = head.subarray(bomBytes);
  if (encoding === 'utf8') return b.toString('utf8');
  if (encoding === 'utf16le') return b.subarray(0, b.length & ~1).toString('utf16le');
  if (encoding === 'utf16be')
    return Buffer.from(b.subarray(0, b.length & ~1))
      .swap16()
      .toString('utf16le');
  return b.toString('latin1');
}

/** How both passes open the archive: entry by entry, kept open until closed, declared sizes checked on inflating. */
const ZIP_OPEN = { lazyEntries: true, autoClose: false, validateEntrySizes: true, strictFileNames: false } as const;

/** Read the central directory only: entry count, declared uncompressed sizes, what kind of zip it is. */
async function checkZip(
  path: string,
  limits: IngestLimits,
  refuse: (reason: string, cause?: unknown) => never,
  mimetype: string | undefined,
): Promise<{ format: FileFormat; uncompressed: number }> {
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
    const format =
      recognized({ container: 'zip', entries: names, mimetype }, refuse) ??
      refuse('is a zip archive but not an xlsx or OpenDocument workbook (no xl/workbook.xml, no content.xml)');
    await inflateAll(path, refuse);
    return { format, uncompressed: total };
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
          if (isSheet)
            stream.on(
              'data',
              (b: Buffer) => (tail = (tail + b.toString('latin1', Math.max(0, b.length - 64))).slice(-64)),
            );
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
