/**
 * Every format rfq-sync reads, one module each. The sniffer recognises a file by trying, in this order, the formats
 * of its container (OLE2, zip or text); the row source, the draft's sampler and docs/mapping.md's reader table
 * (scripts/readers-doc.ts) take them from here. A new format is a module beside these and its line here.
 */
import { csvFormat } from './csv.ts';
import type { FileFormat, FormatKind } from './format.ts';
import { htmlFormat } from './html.ts';
import { odsFormat } from './ods.ts';
import { sapListFormat } from './sap-list.ts';
import { xlsFormat } from './xls.ts';
import { xlsxFormat } from './xlsx.ts';
import { xml2003Format } from './xml2003.ts';

/** Text formats are tried in this order too: CSV, which takes any text, last. */
export const FORMATS: readonly FileFormat[] = [
  xlsxFormat,
  xlsFormat,
  xml2003Format,
  odsFormat,
  htmlFormat,
  sapListFormat,
  csvFormat,
];

export function formatOf(kind: FormatKind): FileFormat {
  return FORMATS.find((f) => f.kind === kind)!;
}
