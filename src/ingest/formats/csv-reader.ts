/**
 * Streamed CSV rows with csv-parse. The encoding comes from the sniffer (csv.ts: the byte order mark, else detected:
 * UTF-8, or Windows-1252 said to be a guess); the delimiter is the profile's or is detected among `, ; \t |` on the
 * first lines. Quoted fields may hold newlines and stray quotes (`19" monitor`, relax_quotes); rows may be ragged (relax_column_count, a
 * trailing delimiter's phantom column is just an empty cell). Empty lines are skipped by the parser itself (emitting
 * each as a record made 1,000,000 empty lines take 20-90 s); row numbers still count rows as a spreadsheet shows
 * them (an empty line is a row, a quoted multi-line field is one row): records emitted + empty lines skipped, both
 * from the parser's `info` (its line count is no help: it counts a CRLF inside quotes as two lines).
 */
import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { open } from 'node:fs/promises';
import { parse } from 'csv-parse';
import { decodedStream, headText, type TextDecision } from './text-encoding.ts';

/**
 * Longest row read, in characters (32 Mi). Far above any real export row; below it an overlong value is a rejected
 * row with a report (text-length limits), above it the file is refused, naming the line. Without a bound one 50 MB
 * cell, or a quote never closed in a large file, was gathered whole: a worker's peak memory rose by about 400 MB.
 */
export const MAX_CSV_RECORD_CHARS = 32 * 1024 * 1024;

export type Delimiter = ',' | ';' | '\t' | '|';
export const DELIMITERS: readonly Delimiter[] = [',', ';', '\t', '|'];

export interface CsvRow {
  /** 1-based row as a spreadsheet shows it (empty lines count, a quoted field with newlines is one row). */
  row: number;
  cells: string[];
}

/** Pick the delimiter whose per-line count (outside quotes) is most consistent over the first lines. */
export function detectDelimiter(text: string): Delimiter {
  const lines: string[] = [];
  let cur = '';
  let inQuotes = false;
  for (let i = 0; i < text.length && lines.length < 40; i++) {
    const ch = text[i]!;
    if (ch === '"') inQuotes = !inQuotes;
    if ((ch === '\n' || ch === '\r') && !inQuotes) {
      if (cur.trim()) lines.push(cur);
      cur = '';
    } else if (!inQuotes || ch === '"') cur += ch;
  }
  if (cur.trim() && lines.length < 40) lines.push(cur);
  let best: Delimiter = ',';
  let bestScore = 0;
  for (const d of DELIMITERS) {
    const freq = new Map<number, number>();
    for (const l of lines) {
      const n = l.split(d).length - 1;
      if (n > 0) freq.set(n, (freq.get(n) ?? 0) + 1);
    }
    let score = 0;
    for (const [n, times] of freq) score = Math.max(score, times * 1000 + n);
    if (score > bestScore) {
      best = d;
      bestScore = score;
    }
  }
  return best;
}

/** The delimiter `auto` stands for in this file: detectDelimiter on its first 64 KiB. */
export async function fileDelimiter(path: string, text: TextDecision): Promise<Delimiter> {
  const fh = await open(path, 'r');
  const head = Buffer.alloc(64 * 1024);
  try {
    const { bytesRead } = await fh.read(head, 0, head.length, 0);
    return detectDelimiter(headText(head.subarray(0, bytesRead), text));
  } finally {
    await fh.close();
  }
}

export async function* readCsvRows(
  path: string,
  text: TextDecision,
  file: string,
  delimiter: Delimiter | 'auto',
): AsyncGenerator<CsvRow[]> {
  const delim = delimiter === 'auto' ? await fileDelimiter(path, text) : delimiter;
  // UTF-8 as bytes: csv-parse decodes them itself, faster than taking strings
  const source =
    text.encoding === 'utf8'
      ? createReadStream(path, { start: text.bomBytes, highWaterMark: 256 * 1024 })
      : decodedStream(path, text, file);
  const parser = parse({
    max_record_size: MAX_CSV_RECORD_CHARS,
    delimiter: delim,
    bom: true,
    relax_quotes: true,
    relax_column_count: true,
    skip_empty_lines: true,
    info: true,
  });
  // Errors are kept (parser.errored) and thrown by the loop below. Without a listener of their own, one emitted
  // while the caller is busy between batches (the parser meets an unclosed quote at the end of input) would be an
  // uncaught exception and end the worker.
  source.on('error', (err: Error) => void parser.destroy(err));
  parser.on('error', () => undefined);
  source.pipe(parser);
  try {
    // Records are pulled in batches with read(): one promise per batch, not per record (1M-line files).
    for (;;) {
      const batch: CsvRow[] = [];
      let rec: InfoRecord | null;
      while (batch.length < 64 && (rec = parser.read() as InfoRecord | null) !== null) {
        batch.push({ row: rec.info.records + rec.info.empty_lines, cells: rec.record });
      }
      if (batch.length > 0) {
        yield batch;
        continue;
      }
      if (parser.readableEnded || parser.destroyed) {
        if (parser.errored) throw parser.errored;
        return;
      }
      await readableOrEnd(parser);
    }
  } finally {
    source.destroy();
    parser.destroy();
  }
}

interface InfoRecord {
  record: string[];
  /** `records`: emitted so far, this one included; `empty_lines`: skipped so far. */
  info: { records: number; empty_lines: number };
}

function readableOrEnd(s: Readable): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = (): void => {
      s.off('readable', done);
      s.off('end', done);
      s.off('close', done);
      s.off('error', fail);
      resolve();
    };
    const fail = (err: Error): void => {
      s.off('readable', done);
      s.off('end', done);
      s.off('close', done);
      s.off('error', fail);
      reject(err);
    };
    s.on('readable', done);
    s.on('end', done);
    s.on('close', done);
    s.on('error', fail);
  });
}
