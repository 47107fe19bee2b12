/**
 * An SAP list saved "unconverted" (System -> List -> Save -> Local File -> Unconverted; ALV lists such as ME5A):
 * the printed page as text. Columns are fixed-width and framed by `|`; rule lines of dashes (`-----`, `|----|`)
 * separate the header from the data; each page repeats its title lines and the column header; subtotal and total
 * lines carry `*` in their first filled cell. Read streamed, line by line:
 *
 * - the first `|`-framed line is the header; its `|` positions cut every later line into cells (a value holding a
 *   `|` stays whole), cells are trimmed text as written (numbers and dates are read by the profile, as in CSV);
 * - a line equal to the header (a page header repeated) is left out, and so are rule lines, lines outside the frame
 *   (page titles, dates, page numbers, blank lines), subtotal/total lines, and group lines (one cell spanning the
 *   whole width);
 * - row numbers are line numbers in the file, as an editor shows them.
 *
 * The encoding is the sniffer's (sap-list.ts), as for CSV.
 */
import { createInterface } from 'node:readline';
import { FileRefusedError } from '../../core/index.ts';
import type { HeadRow } from './format.ts';
import { MAX_CSV_RECORD_CHARS } from './csv-reader.ts';
import { decodedStream, type TextDecision } from './text-encoding.ts';

const RULE = /^\s*\|?[-=]{3,}[-=|+\s]*$/;
const BATCH = 500;

/** Where each cell starts and ends: between consecutive `|` of the header line. */
function columnsOf(header: string): Array<[number, number]> {
  const bars: number[] = [];
  for (let i = 0; i < header.length; i++) if (header[i] === '|') bars.push(i);
  const cols: Array<[number, number]> = [];
  for (let i = 0; i + 1 < bars.length; i++) cols.push([bars[i]! + 1, bars[i + 1]!]);
  return cols;
}

function cut(line: string, cols: ReadonlyArray<[number, number]>): string[] {
  return cols.map(([a, b], i) =>
    (i === cols.length - 1 ? line.slice(a).replace(/\|\s*$/, '') : line.slice(a, b)).trim(),
  );
}

/** A line cut at its own bars (a group line, or a line of another width). */
function ownCells(line: string): string[] {
  const t = line.trim();
  return t
    .slice(1, t.endsWith('|') ? -1 : undefined)
    .split('|')
    .map((c) => c.trim());
}

function isSubtotal(cells: readonly string[]): boolean {
  const first = cells.find((c) => c !== '');
  return first !== undefined && first.startsWith('*');
}

export async function* readSapListRows(path: string, text: TextDecision, file: string): AsyncGenerator<HeadRow[]> {
  const input = decodedStream(path, text, file);
  const lines = createInterface({ input, crlfDelay: Infinity });
  let header: string | undefined;
  let cols: Array<[number, number]> = [];
  let lineNo = 0;
  let batch: HeadRow[] = [];
  try {
    for await (const line of lines) {
      lineNo++;
      if (line.length > MAX_CSV_RECORD_CHARS)
        throw new FileRefusedError(
          file,
          `has a line longer than ${MAX_CSV_RECORD_CHARS.toLocaleString('en')} characters (line ${lineNo})`,
        );
      const end = line.trimEnd();
      const framed = end.endsWith('|') && line.trimStart().startsWith('|');
      if (!framed || RULE.test(line)) continue;
      if (header === undefined) {
        header = end;
        cols = columnsOf(line);
        batch.push({ row: lineNo, cells: cut(line, cols) });
        continue;
      }
      if (end === header) continue;
      const aligned = cols.every(([a, b]) => line[a - 1] === '|' && (b >= end.length || line[b] === '|'));
      const cells = aligned ? cut(line, cols) : ownCells(line);
      if (isSubtotal(cells)) continue;
      // a group line: one cell across the frame
      if (!aligned && cells.length < cols.length && cells.filter((c) => c !== '').length <= 1) continue;
      batch.push({ row: lineNo, cells });
      if (batch.length >= BATCH) {
        yield batch;
        batch = [];
      }
    }
  } finally {
    lines.close();
    input.destroy();
  }
  if (batch.length > 0) yield batch;
}
