/**
 * What a text file is, from its first 64 KiB decoded: markup (an HTML page, Excel's XML Spreadsheet 2003, other
 * XML), an SAP list printed "unconverted" (`|`-separated columns between rule lines of dashes), another document
 * format that is not a spreadsheet export (PDF, RTF, JSON), or delimited text (CSV, or tab-separated under any
 * extension). The extension is never consulted: an `.xls` from an ERP job is any of these.
 *
 * Refusals are one sentence naming what the content looks like ("is an XML document (root <Invoice>), ..."), so a
 * page of markup is never parsed as CSV and reported as a list of XML fragments posing as column names.
 */

export type TextKind = 'csv' | 'html' | 'xml2003' | 'sap-list';

export type TextRecognition = { kind: TextKind } | { refuse: string };

/** The spreadsheet namespace and the processing instruction Excel writes into an XML Spreadsheet 2003. */
const XML2003_MARKS = [/urn:schemas-microsoft-com:office:spreadsheet/i, /progid\s*=\s*["']Excel\.Sheet["']/i];

/** Element names that make markup an HTML page (a bare `<table>` fragment is what some report servers write). */
const HTML_ROOTS = new Set(['html', 'head', 'body', 'table', 'meta', 'title', 'style', 'div', 'p', 'h1', 'h2', 'h3']);

/** A DTD in an XML file: the door to entity expansion ("billion laughs"); no spreadsheet export needs one. */
export const XML_DTD = /<!(DOCTYPE|ENTITY)\b/i;

/** The first element's name (skipping the XML declaration, processing instructions, comments and a doctype). */
function rootElement(text: string): string | undefined {
  let i = 0;
  for (let guard = 0; guard < 1000; guard++) {
    const lt = text.indexOf('<', i);
    if (lt < 0) return undefined;
    if (text.startsWith('<?', lt)) i = text.indexOf('?>', lt) + 2;
    else if (text.startsWith('<!--', lt)) i = text.indexOf('-->', lt) + 3;
    else if (text.startsWith('<!', lt)) i = text.indexOf('>', lt) + 1;
    else {
      const m = /^<([A-Za-z_][\w:.-]*)/.exec(text.slice(lt, lt + 200));
      return m?.[1];
    }
    if (i <= lt) return undefined; // an unclosed declaration: no element follows in the head
  }
  return undefined;
}

function recognizeMarkup(text: string): TextRecognition {
  const root = rootElement(text);
  const local = root?.includes(':') ? root.slice(root.indexOf(':') + 1) : root;
  const isHtml = /^\s*<!doctype\s+html/i.test(text) || (local !== undefined && HTML_ROOTS.has(local.toLowerCase()));
  if (isHtml) return { kind: 'html' };
  if (local === 'Workbook' && XML2003_MARKS.some((re) => re.test(text))) {
    if (XML_DTD.test(text))
      return {
        refuse:
          'is an XML spreadsheet that declares a DTD or entities (<!DOCTYPE>/<!ENTITY>); these are refused, as entity expansion can exhaust memory ("billion laughs")',
      };
    return { kind: 'xml2003' };
  }
  if (root === undefined) return { refuse: 'is markup (it starts with "<") without any element: not a spreadsheet' };
  return {
    refuse: `is an XML document (root element <${root}>), not a spreadsheet: of XML files only Excel's XML Spreadsheet 2003 is read`,
  };
}

/** A rule line of an SAP list (`-----`, or `|-----|`), and a line of `|`-separated columns. */
const SAP_RULE = /^\s*\|?-{10,}\|?\s*$/;
const SAP_BARS = /^\|.*\|\s*$/;

function looksLikeSapList(lines: readonly string[]): boolean {
  let rules = 0;
  let bars = 0;
  for (const l of lines) {
    if (SAP_RULE.test(l)) rules++;
    else if (SAP_BARS.test(l)) bars++;
  }
  return rules >= 1 && bars >= 2;
}

/** `text`: the file's first 64 KiB, decoded, without its byte order mark. */
export function recognizeText(text: string): TextRecognition {
  const start = text.trimStart();
  if (start.startsWith('%PDF-')) return { refuse: 'is a PDF document, not a spreadsheet export' };
  if (start.startsWith('{\\rtf')) return { refuse: 'is an RTF (rich text) document, not a spreadsheet export' };
  if (/^(\{\s*"|\[\s*[{[])/.test(start)) return { refuse: 'is a JSON document, not a spreadsheet export' };
  if (start.startsWith('<')) return recognizeMarkup(start);
  const lines = start.split(/\r\n|\n|\r/, 80);
  if (looksLikeSapList(lines)) return { kind: 'sap-list' };
  return { kind: 'csv' };
}

/** The head bytes as text in the sniffed encoding (a sequence cut at the end of the head is harmless here). */
export function headText(head: Buffer, encoding: 'utf8' | 'utf16le' | 'utf16be' | 'windows1252', bom: number): string {
  const b = head.subarray(bom);
  if (encoding === 'utf8') return b.toString('utf8');
  if (encoding === 'utf16le') return b.subarray(0, b.length & ~1).toString('utf16le');
  if (encoding === 'utf16be')
    return Buffer.from(b.subarray(0, b.length & ~1))
      .swap16()
      .toString('utf16le');
  return b.toString('latin1');
}

/** An OpenDocument zip stores its `mimetype` entry first and uncompressed: its value is readable in the head. */
export function openDocumentType(head: Buffer): string | undefined {
  if (head.length < 38 || head.toString('latin1', 30, 38) !== 'mimetype') return undefined;
  const m = /^application\/vnd\.oasis\.opendocument\.[a-z.-]+/.exec(head.toString('latin1', 38, 38 + 80));
  return m?.[0];
}
