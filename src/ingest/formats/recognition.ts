/**
 * What a text file's first 64 KiB look like, for the text formats to recognise themselves (html.ts, xml2003.ts,
 * sap-list.ts, csv.ts) and for the sniffer to refuse what none of them is: markup that is neither an HTML page nor
 * Excel's XML Spreadsheet 2003 (other XML), another document format that is no spreadsheet export (PDF, RTF, JSON).
 * The extension is never consulted: an `.xls` from an ERP job is any of these.
 *
 * Refusals are one sentence naming what the content looks like ("is an XML document (root <Invoice>), ..."), so a
 * page of markup is never parsed as CSV and reported as a list of XML fragments posing as column names.
 */

/** A DTD in an XML file: the door to entity expansion ("billion laughs"); no spreadsheet export needs one. */
export const XML_DTD = /<!(DOCTYPE|ENTITY)\b/i;

/** Element names that make markup an HTML page (a bare `<table>` fragment is what some report servers write). */
const HTML_ROOTS = new Set(['html', 'head', 'body', 'table', 'meta', 'title', 'style', 'div', 'p', 'h1', 'h2', 'h3']);

/** The first element's name (skipping the XML declaration, processing instructions, comments and a doctype). */
export function rootElement(text: string): string | undefined {
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

/** The root element's name without its namespace prefix. */
export function localRoot(text: string): string | undefined {
  const root = rootElement(text);
  return root?.includes(':') ? root.slice(root.indexOf(':') + 1) : root;
}

export function isMarkup(text: string): boolean {
  return text.trimStart().startsWith('<');
}

/** An HTML page: a doctype html, or a first element HTML pages start with. */
export function isHtml(text: string): boolean {
  if (!isMarkup(text)) return false;
  const local = localRoot(text);
  return /^\s*<!doctype\s+html/i.test(text) || (local !== undefined && HTML_ROOTS.has(local.toLowerCase()));
}

/** Markup that no text format took: one sentence saying what it is. */
export function markupRefusal(text: string): string {
  const root = rootElement(text);
  if (root === undefined) return 'is markup (it starts with "<") without any element: not a spreadsheet';
  return `is an XML document (root element <${root}>), not a spreadsheet: of XML files only Excel's XML Spreadsheet 2003 is read`;
}

/** Document formats that are no spreadsheet export, known by their first characters. */
export function documentRefusal(text: string): string | undefined {
  const start = text.trimStart();
  if (start.startsWith('%PDF-')) return 'is a PDF document, not a spreadsheet export';
  if (start.startsWith('{\\rtf')) return 'is an RTF (rich text) document, not a spreadsheet export';
  if (/^(\{\s*"|\[\s*[{[])/.test(start)) return 'is a JSON document, not a spreadsheet export';
  return undefined;
}

/** The first lines of the text (at most `n`). */
export function firstLines(text: string, n: number): string[] {
  return text.trimStart().split(/\r\n|\n|\r/, n);
}

/** An OpenDocument zip stores its `mimetype` entry first and uncompressed: its value is readable in the head. */
export function openDocumentType(head: Buffer): string | undefined {
  if (head.length < 38 || head.toString('latin1', 30, 38) !== 'mimetype') return undefined;
  const m = /^application\/vnd\.oasis\.opendocument\.[a-z.-]+/.exec(head.toString('latin1', 38, 38 + 80));
  return m?.[0];
}
