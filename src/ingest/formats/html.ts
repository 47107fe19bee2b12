/**
 * An HTML page's tables (html-reader.ts): what Oracle EBS, many web reports, SAP's "Excel" download and
 * LibreOffice's HTML export write, often named `.xls`. Its encoding: the byte order mark, else the page's
 * `<meta charset>` (or `<meta http-equiv="Content-Type" content="...; charset=...">`), else detected as for CSV.
 */
import type { FileFormat } from './format.ts';
import { listHtmlTables, readHtmlRows } from './html-reader.ts';
import { isHtml } from './recognition.ts';
import { BOM_OR_DETECTED, byteOrderMark, declaredEncoding, detectedEncoding } from './text-encoding.ts';

/** The charset a `<meta>` tag of the page declares (both forms), read in the first 64 KiB. */
export function metaCharset(head: string): string | undefined {
  for (const m of head.matchAll(/<meta\b[^>]*>/gi)) {
    const charset = /\bcharset\s*=\s*["']?\s*([^\s"'/>;]+)/i.exec(m[0]);
    if (charset) return charset[1];
  }
  return undefined;
}

export const htmlFormat: FileFormat = {
  kind: 'html',
  name: 'HTML page',
  container: 'text',
  recognize: (e) => e.container === 'text' && isHtml(e.text),
  async encoding(head, probe) {
    const bom = byteOrderMark(head);
    if (bom) return bom;
    const declared = metaCharset(head.toString('latin1'));
    return declared === undefined
      ? detectedEncoding(await probe())
      : declaredEncoding(declared, 'its <meta charset>', probe);
  },
  limits: [],
  doc: {
    title: "HTML table (Oracle EBS and web reports named `.xls`; LibreOffice's HTML export)",
    recognisedBy:
      'text whose first element is `html`, `body`, `table` (or another HTML element) or that starts with `<!DOCTYPE html`',
    read: 'streamed (htmlparser2)',
    encodings: `its byte order mark; else its \`<meta charset>\` (either form); else as CSV: ${BOM_OR_DETECTED.replace(/^its byte order mark \([^)]*\); else /, '')}`,
  },
  open: (f) => ({
    multiSheet: true,
    open: (sheet) => readHtmlRows(f.path, f.text!, f.file, sheet),
    sheets: async () => (await listHtmlTables(f.path, f.text!, f.file)).map((t) => t.name),
    limit: () => undefined,
  }),
};
