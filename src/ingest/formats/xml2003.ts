/**
 * Excel's XML Spreadsheet 2003 (NetSuite's "Export - Microsoft Excel", often named `.xls`), parsed whole in memory
 * by SheetJS (sheetjs-reader.ts). Its encoding: the byte order mark, else its XML declaration's `encoding`, else
 * UTF-8 (XML's default). Text not in UTF-8 is decoded here and handed to SheetJS as UTF-8, which is all SheetJS
 * reads. A DTD or entity declaration anywhere refuses the file before any parser sees it (SheetJS does not expand
 * entities either; the check is ours so that no parser is ever trusted with one).
 */
import { readFile } from 'node:fs/promises';
import { FileRefusedError } from '../../core/index.ts';
import type { FileFormat, SheetLimit } from './format.ts';
import { isMarkup, localRoot, XML_DTD } from './recognition.ts';
import { parseWorkbook, workbookSheets, workbookSource, type LoadedWorkbook } from './sheetjs-reader.ts';
import { byteOrderMark, decodeBytes, declaredEncoding, utf8, type TextDecision } from './text-encoding.ts';

/** The spreadsheet namespace and the processing instruction Excel writes into an XML Spreadsheet 2003. */
const XML2003_MARKS = [/urn:schemas-microsoft-com:office:spreadsheet/i, /progid\s*=\s*["']Excel\.Sheet["']/i];

/** Excel (2007 on) reads and writes sheets of this size in XML Spreadsheet 2003. */
const XML2003_SHEET: SheetLimit = { what: 'an XML Spreadsheet 2003 sheet (Excel)', rows: 1_048_576, columns: 16_384 };

const DTD_REFUSAL =
  'is an XML spreadsheet that declares a DTD or entities (<!DOCTYPE>/<!ENTITY>); these are refused, as entity expansion can exhaust memory ("billion laughs")';

/** The `encoding` of the XML declaration the file starts with, if it names one. */
function declaredXmlEncoding(head: Buffer): string | undefined {
  const decl = /^\s*<\?xml\b[^?]*\?>/.exec(head.toString('latin1', 0, 512));
  return decl ? /\bencoding\s*=\s*["']([^"']*)["']/.exec(decl[0])?.[1] : undefined;
}

export async function loadXml2003(path: string, file: string, text: TextDecision): Promise<LoadedWorkbook> {
  let buf = await readFile(path);
  const xml = text.encoding === 'utf8' ? buf.toString('latin1') : decodeBytes(buf.subarray(text.bomBytes), text, file);
  if (XML_DTD.test(xml)) throw new FileRefusedError(file, DTD_REFUSAL);
  if (text.encoding !== 'utf8') buf = Buffer.from(xml, 'utf8');
  const book = await parseWorkbook(buf, 'a corrupt XML spreadsheet (XML Spreadsheet 2003)', file);
  const sheets = workbookSheets(book, file, 'an XML spreadsheet (XML Spreadsheet 2003)');
  return { sheets, book, limit: XML2003_SHEET };
}

export const xml2003Format: FileFormat = {
  kind: 'xml2003',
  name: 'XML spreadsheet (XML Spreadsheet 2003)',
  container: 'text',
  recognize(e) {
    if (e.container !== 'text' || !isMarkup(e.text) || localRoot(e.text) !== 'Workbook') return false;
    if (!XML2003_MARKS.some((re) => re.test(e.text))) return false;
    return XML_DTD.test(e.text) ? { refuse: DTD_REFUSAL } : true;
  },
  async encoding(head, probe) {
    const bom = byteOrderMark(head);
    if (bom) return bom;
    const declared = declaredXmlEncoding(head);
    if (declared !== undefined) return declaredEncoding(declared, 'its XML declaration', probe);
    if (!(await probe()).utf8)
      return {
        refuse:
          "declares no encoding, so it must be UTF-8 (XML's default), but is not valid UTF-8: refused rather than read as something else",
      };
    return utf8("XML's default: it declares no encoding");
  },
  inMemory: { expansion: 8, of: 'file', called: 'an XML spreadsheet' },
  limits: [XML2003_SHEET],
  doc: {
    title: 'XML Spreadsheet 2003 (NetSuite "Export - Microsoft Excel")',
    recognisedBy:
      'text whose root element is `Workbook` in the namespace `urn:schemas-microsoft-com:office:spreadsheet` (or with `<?mso-application progid="Excel.Sheet"?>`)',
    read: 'whole, in memory (SheetJS), refused if it declares a DTD',
    encodings:
      "its byte order mark; else its XML declaration's `encoding` (`windows-1252`, `ISO-8859-1`, ...); else UTF-8, XML's default",
  },
  open: (f) => workbookSource(() => loadXml2003(f.path, f.file, f.text!)),
};
