/**
 * What an OLE2 compound document (`D0 CF 11 E0 A1 B1 1A E1`) holds, from its directory (SheetJS' CFB reader): its
 * streams, for the formats to recognise (xls.ts: a `Workbook` or `Book` stream); an Office file encrypted with a
 * password (`EncryptionInfo` + `EncryptedPackage`) refused; another Office document (Word, PowerPoint, an Outlook
 * message) named. The caller has checked the file's size against the in-memory limit: the container is read whole.
 */
import { readFile } from 'node:fs/promises';

/** The names of the container's streams, or why the container itself is refused. */
export type Ole2Content = { streams: string[] } | { refuse: string };

const OTHER_DOCUMENTS: Array<[RegExp, string]> = [
  [/^WordDocument$/i, 'a Word document (.doc)'],
  [/^PowerPoint Document$/i, 'a PowerPoint presentation (.ppt)'],
  [/^__substg1\.0_/i, 'an Outlook message (.msg)'],
  [/^VisioDocument$/i, 'a Visio drawing (.vsd)'],
];

export async function ole2Content(path: string): Promise<Ole2Content> {
  const { CFB } = await import('@e965/xlsx');
  const buf = await readFile(path);
  let names: string[];
  try {
    const cfb = CFB.read(buf, { type: 'buffer' });
    names = cfb.FileIndex.filter((e: { type: number }) => e.type === 2).map((e: { name: string }) => e.name);
  } catch {
    // SheetJS' own words here are misleading ("Unsupported ZIP encryption": it tried the bytes as a zip last)
    return {
      refuse:
        'is an old binary Excel file (.xls) or a password-protected workbook, but its OLE2 container is corrupt (its sector tables cannot be read)',
    };
  }
  if (names.some((x) => x.toLowerCase() === 'encryptedpackage'))
    return { refuse: 'is a password-protected (encrypted) workbook; save it without a password as .xlsx' };
  return { streams: names };
}

/** An OLE2 document no format took: what it is, said in one sentence. */
export function ole2Refusal(streams: readonly string[]): string {
  for (const [re, what] of OTHER_DOCUMENTS)
    if (streams.some((n) => re.test(n))) return `is ${what}, not a spreadsheet export`;
  return `is an OLE2 compound document holding no workbook (its streams: ${streams.slice(0, 5).join(', ') || 'none'}), not a spreadsheet export`;
}
