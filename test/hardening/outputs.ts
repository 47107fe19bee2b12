/**
 * Reading what the service wrote, the way an attacker's payload would meet it: the raw XML of a workbook (every
 * shared string, inline string and formula), CSV fields, and a recursive scan of folders for a secret.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { strFromU8, unzipSync } from 'fflate';
import { listTree } from '../helpers/files.ts';

/** First characters that make a spreadsheet evaluate a cell typed in or imported from CSV (OWASP). */
export function isFormulaLike(s: string): boolean {
  return s.length > 0 && '=+-@\t\r\n'.includes(s[0]!);
}

function unescapeXml(s: string): string {
  return s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&#x([0-9a-f]+);/gi, (_, h: string) => String.fromCodePoint(parseInt(h, 16)))
    .replace(/&#(\d+);/g, (_, d: string) => String.fromCodePoint(Number(d)))
    .replace(/&amp;/g, '&');
}

export interface WorkbookText {
  /** Text of every string cell (shared strings joined from their runs, and inline strings). */
  strings: string[];
  /** Every formula (`<f>` element). */
  formulas: string[];
  /** Hyperlink targets (relationships of type hyperlink). */
  hyperlinks: string[];
  /** All XML of the package, for a plain search. */
  raw: string;
}

export async function workbookText(path: string): Promise<WorkbookText> {
  const files = unzipSync(new Uint8Array(await readFile(path)));
  const strings: string[] = [];
  const formulas: string[] = [];
  const hyperlinks: string[] = [];
  let raw = '';
  for (const [name, bytes] of Object.entries(files)) {
    if (!/\.(xml|rels)$/.test(name)) continue;
    const xml = strFromU8(bytes);
    raw += xml;
    if (name === 'xl/sharedStrings.xml') {
      for (const si of xml.match(/<si>[\s\S]*?<\/si>/g) ?? [])
        strings.push(unescapeXml([...si.matchAll(/<t(?:\s[^>]*)?>([\s\S]*?)<\/t>/g)].map((m) => m[1]).join('')));
    }
    if (name.startsWith('xl/worksheets/') && name.endsWith('.xml')) {
      // `t="str"`: a string held in the cell itself (exceljs' streaming writer without shared strings).
      for (const m of xml.matchAll(
        /<c\b[^>]*\bt="str"[^>]*>(?:<f\b[^>]*>[\s\S]*?<\/f>|<f\b[^>]*\/>)?<v>([\s\S]*?)<\/v>/g,
      ))
        strings.push(unescapeXml(m[1]!));
      for (const m of xml.matchAll(/<is>([\s\S]*?)<\/is>/g))
        strings.push(unescapeXml([...m[1]!.matchAll(/<t(?:\s[^>]*)?>([\s\S]*?)<\/t>/g)].map((x) => x[1]).join('')));
      for (const m of xml.matchAll(/<f(?:\s[^>]*)?>([\s\S]*?)<\/f>/g)) formulas.push(unescapeXml(m[1]!));
    }
    if (name.endsWith('.rels'))
      for (const m of xml.matchAll(/Type="[^"]*hyperlink"[^>]*Target="([^"]*)"/g)) hyperlinks.push(unescapeXml(m[1]!));
  }
  return { strings, formulas, hyperlinks, raw };
}

/** Fields of a CSV (RFC 4180 quoting; the delimiter guessed among , and ;). */
export function csvFields(text: string): string[] {
  const delim = (text.split('\n')[0] ?? '').includes(';') && !(text.split('\n')[0] ?? '').includes(',') ? ';' : ',';
  const out: string[] = [];
  let cur = '';
  let q = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (q) {
      if (ch === '"' && text[i + 1] === '"') {
        cur += '"';
        i++;
      } else if (ch === '"') q = false;
      else cur += ch;
    } else if (ch === '"' && cur === '') q = true;
    else if (ch === delim || ch === '\n') {
      out.push(cur.replace(/\r$/, ''));
      cur = '';
    } else cur += ch;
  }
  if (cur) out.push(cur.replace(/\r$/, ''));
  return out;
}

/** Files under `dir` whose bytes (also unzipped, for zips up to 20 MB) contain `needle`. Use on outputs, not on hostile inputs. */
export async function filesContaining(dir: string, needle: string): Promise<string[]> {
  const hits: string[] = [];
  for (const rel of await listTree(dir)) {
    const p = join(dir, rel);
    const buf = await readFile(p);
    if (buf.includes(needle)) hits.push(rel);
    else if (buf.length > 4 && buf.length < 20 * 1024 * 1024 && buf.readUInt32BE(0) === 0x504b0304) {
      try {
        const files = unzipSync(new Uint8Array(buf));
        if (Object.values(files).some((b) => Buffer.from(b).includes(needle))) hits.push(`${rel} (inside the zip)`);
      } catch {
        // not a readable zip: the plain search above is all we can do
      }
    }
  }
  return hits;
}
