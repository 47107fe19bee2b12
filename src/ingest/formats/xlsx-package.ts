/**
 * An xlsx file as an OPC package, read through its zip's central directory (random access, yauzl): the worksheets
 * with their names, order and visibility from xl/workbook.xml and its relationships, whatever order the writer put
 * the parts in and whether it names them with relative (`worksheets/sheet1.xml`) or absolute
 * (`/xl/worksheets/sheet1.xml`) targets. openpyxl and pandas write the sheets before workbook.xml with absolute
 * targets; LibreOffice writes styles and workbook.xml after the sheets; Google Sheets and Excel the shared strings
 * after them; Excel keeps a sheet's part number when its tab moves. A sequential reader (exceljs' WorkbookReader)
 * gets names, order or date cells wrong on each of these; here every part is opened by name when it is needed.
 *
 * The small parts (workbook, relationships) are read whole, up to MAX_META_BYTES, and scanned for their elements;
 * element names may carry a namespace prefix (`<x:sheet>`, as the OpenXML SDK writes).
 */
import type { Readable } from 'node:stream';
import { posix } from 'node:path';
import yauzl from 'yauzl';
import { WorkbookPartError } from '../../core/index.ts';

export interface SheetRef {
  name: string;
  /** The zip entry holding the sheet's XML. */
  part: string;
  /** `visible`, `hidden` or `veryHidden`. */
  state: string;
}

export interface XlsxPackage {
  /** The worksheets in the workbook's (tab) order; chart and dialog sheets are left out. */
  sheets: SheetRef[];
  sharedStringsPart?: string;
  stylesPart?: string;
  /** Dates count from 1904 (old Mac workbooks). */
  date1904: boolean;
  /** The part's bytes, inflated as they are read. */
  open(part: string): Promise<Readable>;
  close(): void;
}

/** workbook.xml and relationship parts are small; anything bigger is not what it claims to be. */
const MAX_META_BYTES = 8 * 1024 * 1024;

const REL = {
  officeDocument: /\/officeDocument$/,
  worksheet: /\/worksheet$/,
  sharedStrings: /\/sharedStrings$/,
  styles: /\/styles$/,
};

export async function openXlsxPackage(path: string): Promise<XlsxPackage> {
  const zip = await yauzl.openPromise(path, { lazyEntries: true, autoClose: false, validateEntrySizes: true });
  try {
    const entries = await listEntries(zip);
    const entry = (part: string): yauzl.Entry | undefined => entries.get(part.toLowerCase());
    const open = async (part: string): Promise<Readable> => {
      const e = entry(part);
      if (!e) throw new WorkbookPartError(`its part ${part} is missing`);
      return zip.openReadStreamPromise(e);
    };
    const readText = async (part: string): Promise<string | undefined> => {
      const e = entry(part);
      if (!e) return undefined;
      if (e.uncompressedSize > MAX_META_BYTES)
        throw new WorkbookPartError(`its part ${part} is ${e.uncompressedSize} bytes, not a workbook description`);
      const chunks: Buffer[] = [];
      for await (const c of await zip.openReadStreamPromise(e)) chunks.push(c as Buffer);
      return Buffer.concat(chunks).toString('utf8');
    };
    const rootRels = relationships(await readText('_rels/.rels'), '');
    const workbookPart = rootRels.find((r) => REL.officeDocument.test(r.type))?.part ?? 'xl/workbook.xml';
    const workbookXml = await readText(workbookPart);
    if (workbookXml === undefined) throw new WorkbookPartError(`its workbook part ${workbookPart} is missing`);
    if (elements(workbookXml, 'workbook').length === 0)
      throw new WorkbookPartError(`its workbook part ${workbookPart} holds no <workbook> element`);
    const rels = relationships(await readText(relsPartOf(workbookPart)), workbookPart);
    const byId = new Map(rels.map((r) => [r.id, r]));
    const listed = elements(workbookXml, 'sheet');
    const sheets: SheetRef[] = [];
    for (const s of listed) {
      const rel = byId.get(relationshipId(s) ?? '');
      if (!rel || !REL.worksheet.test(rel.type)) continue; // a chart or dialog sheet: no rows to read
      sheets.push({ name: s.name ?? '', part: rel.part, state: s.state ?? 'visible' });
    }
    if (sheets.length === 0) sheets.push(...partsByName(entries, listed));
    const props = elements(workbookXml, 'workbookPr')[0];
    const pkg: XlsxPackage = {
      sheets,
      date1904: props?.date1904 === '1' || props?.date1904 === 'true',
      open,
      close: () => zip.close(),
    };
    const sst = rels.find((r) => REL.sharedStrings.test(r.type))?.part;
    const styles = rels.find((r) => REL.styles.test(r.type))?.part;
    if (sst && entry(sst)) pkg.sharedStringsPart = sst;
    if (styles && entry(styles)) pkg.stylesPart = styles;
    return pkg;
  } catch (err) {
    zip.close();
    throw err;
  }
}

/** Every entry of the central directory, by its name in lower case (OPC part names ignore case). */
function listEntries(zip: yauzl.ZipFile): Promise<Map<string, yauzl.Entry>> {
  return new Promise((resolve, reject) => {
    const out = new Map<string, yauzl.Entry>();
    zip.on('entry', (e: yauzl.Entry) => {
      if (!e.fileName.endsWith('/')) out.set(e.fileName.replace(/^\/+/, '').toLowerCase(), e);
      zip.readEntry();
    });
    zip.once('end', () => resolve(out));
    zip.once('error', reject);
    zip.readEntry();
  });
}

/**
 * A workbook whose relationships name no worksheet (a hand-made or truncated package): its xl/worksheets/sheetN.xml
 * parts by number, named as workbook.xml lists its sheets (in that order) or `SheetN`.
 */
function partsByName(entries: Map<string, yauzl.Entry>, listed: Array<Record<string, string>>): SheetRef[] {
  const parts = [...entries.keys()]
    .map((k) => ({ k, n: /^xl\/worksheets\/sheet(\d+)\.xml$/.exec(k)?.[1] }))
    .filter((p): p is { k: string; n: string } => p.n !== undefined)
    .sort((a, b) => Number(a.n) - Number(b.n));
  return parts.map((p, i) => ({ name: listed[i]?.name ?? `Sheet${p.n}`, part: p.k, state: 'visible' }));
}

interface Relationship {
  id: string;
  type: string;
  /** The target as a zip entry name (resolved against the source part, no leading slash). */
  part: string;
}

/** `xl/workbook.xml` -> `xl/_rels/workbook.xml.rels`. */
function relsPartOf(part: string): string {
  const dir = posix.dirname(part);
  return `${dir === '.' ? '' : `${dir}/`}_rels/${posix.basename(part)}.rels`;
}

function relationships(xml: string | undefined, source: string): Relationship[] {
  if (xml === undefined) return [];
  const out: Relationship[] = [];
  for (const r of elements(xml, 'Relationship')) {
    if (!r.Id || !r.Target || r.TargetMode === 'External') continue;
    out.push({ id: r.Id, type: r.Type ?? '', part: resolveTarget(source, r.Target) });
  }
  return out;
}

/** A relationship's target as a zip entry name: absolute from the package root, else relative to the source's folder. */
export function resolveTarget(source: string, target: string): string {
  let t = target;
  try {
    t = decodeURIComponent(t);
  } catch {
    // not percent-encoded after all: taken as written
  }
  const joined = t.startsWith('/') ? t : posix.join(posix.dirname(source), t);
  return posix.normalize(joined).replace(/^(\.\.\/|\/)+/, '');
}

/** The relationship id attribute of a `<sheet>`: `r:id`, whatever prefix the writer bound to the namespace. */
function relationshipId(attrs: Record<string, string>): string | undefined {
  for (const [k, v] of Object.entries(attrs)) if (/^[\w.-]+:id$/.test(k)) return v;
  return undefined;
}

/** The attributes of every `<name ...>` element (any namespace prefix), in document order. */
function elements(xml: string, name: string): Array<Record<string, string>> {
  const out: Array<Record<string, string>> = [];
  const tag = new RegExp(`<(?:[\\w.-]+:)?${name}(?=[\\s/>])([^>]*)>`, 'g');
  for (const m of xml.matchAll(tag)) {
    const attrs: Record<string, string> = {};
    for (const a of m[1]!.matchAll(/([\w.:-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g))
      attrs[a[1]!] = decodeXml(a[2] ?? a[3] ?? '');
    out.push(attrs);
  }
  return out;
}

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

export function decodeXml(s: string): string {
  return s.replace(/&(#x[0-9a-fA-F]+|#\d+|amp|lt|gt|quot|apos);/g, (_, e: string) =>
    e.startsWith('#x')
      ? String.fromCodePoint(parseInt(e.slice(2), 16))
      : e.startsWith('#')
        ? String.fromCodePoint(parseInt(e.slice(1), 10))
        : NAMED[e]!,
  );
}
