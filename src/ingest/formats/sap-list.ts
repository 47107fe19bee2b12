/**
 * An SAP list saved "unconverted" (sap-list-reader.ts): text with a rule line of dashes and lines framed by `|`.
 */
import type { FileFormat } from './format.ts';
import { firstLines, isMarkup } from './recognition.ts';
import { readSapListRows } from './sap-list-reader.ts';
import { BOM_OR_DETECTED, bomOrDetected } from './text-encoding.ts';

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

export const sapListFormat: FileFormat = {
  kind: 'sap-list',
  name: 'SAP list',
  container: 'text',
  recognize: (e) => e.container === 'text' && !isMarkup(e.text) && looksLikeSapList(firstLines(e.text, 80)),
  encoding: bomOrDetected,
  limits: [],
  doc: {
    title: 'SAP list, "unconverted"',
    recognisedBy: 'text with a rule line of dashes and at least two lines framed by `|`',
    read: 'streamed',
    encodings: BOM_OR_DETECTED,
  },
  open: (f) => ({
    multiSheet: false,
    open: () => readSapListRows(f.path, f.text!, f.file),
    sheets: async () => [],
    limit: () => undefined,
  }),
};
