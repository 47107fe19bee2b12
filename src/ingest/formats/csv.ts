/**
 * CSV and tab-separated text (csv-reader.ts): any text that no other text format takes, under any extension.
 */
import { readCsvRows } from './csv-reader.ts';
import type { FileFormat } from './format.ts';
import { isMarkup } from './recognition.ts';
import { BOM_OR_DETECTED, bomOrDetected } from './text-encoding.ts';

export const csvFormat: FileFormat = {
  kind: 'csv',
  name: 'CSV text',
  container: 'text',
  recognize: (e) => e.container === 'text' && !isMarkup(e.text),
  encoding: bomOrDetected,
  limits: [],
  doc: {
    title: 'CSV, tab-separated text',
    recognisedBy: 'any other text',
    read: 'streamed (csv-parse)',
    encodings: BOM_OR_DETECTED,
  },
  open: (f) => ({
    multiSheet: false,
    open: (_sheet, delimiter) => readCsvRows(f.path, f.text!, f.file, delimiter),
    sheets: async () => [],
    limit: () => undefined,
  }),
};
