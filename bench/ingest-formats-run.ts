/**
 * The report of the new formats' cases of `npm run bench:ingest` (bench/ingest-formats.ts): each file written, then
 * measured in child processes (raw parse and ours alternately, `repeat` times each, the fastest of each compared; our
 * reader alone once), one line per case and the targets.
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { DEFAULT_MAX_IN_MEMORY_BYTES, formatOf } from '../src/ingest/formats/index.ts';

interface Measure {
  rows: number;
  ms: number;
  maxRssMB: number;
}
export async function formatCases(
  dir: string,
  sizes: (flag: string, def: number[]) => number[],
  runChild: (kind: string, file: string) => Measure,
  repeat = 3,
  only?: readonly string[],
): Promise<void> {
  const cases = [
    {
      name: '.xls BIFF8',
      flag: '--xls-rows',
      def: 65_535,
      raw: 'raw-sheetjs',
      kind: 'xls',
    },
    {
      name: '.xls XML03',
      flag: '--xml-rows',
      def: 100_000,
      raw: 'raw-sheetjs',
      kind: 'xml2003',
    },
    {
      // SheetJS writes .ods uncompressed: 100,000 rows would inflate past the 1 GiB budget (149 MiB x 8)
      name: '.ods',
      flag: '--ods-rows',
      def: 80_000,
      raw: 'raw-sheetjs',
      kind: 'ods',
    },
    {
      name: 'HTML .xls',
      flag: '--html-rows',
      def: 100_000,
      raw: 'raw-html',
      kind: 'html',
    },
    {
      name: 'SAP list',
      flag: '--sap-rows',
      def: 100_000,
      raw: 'raw-lines',
      kind: 'sap',
    },
  ] as const;
  const budgetMB = DEFAULT_MAX_IN_MEMORY_BYTES / 1024 ** 2;
  const fmt = (m: Measure) =>
    `${Math.round(m.rows / (m.ms / 1000))
      .toLocaleString('en-US')
      .padStart(9)} rows/s ${(m.ms / 1000).toFixed(1).padStart(6)} s ${m.maxRssMB.toFixed(0).padStart(5)} MB`;
  console.log(
    'format      size        raw parse (SheetJS / htmlparser2 / readline) ours (sniff+parse+map+validate+group)      speed  RSS ours/raw',
  );
  const verdicts: string[] = [];
  for (const c of cases.filter((k) => !only || only.includes(k.kind))) {
    const n = sizes(c.flag, [c.def])[0]!;
    const file = join(
      dir,
      `generic-bench-${c.kind}-${n}.${c.kind === 'ods' ? 'ods' : c.kind === 'sap' ? 'txt' : 'xls'}`,
    );
    runChild(`write-${c.kind}:${n}`, file);
    const { size } = await import('node:fs/promises').then((fs) => fs.stat(file));
    // raw and ours alternate `repeat` times and the fastest of each counts: the machine is shared, and a single run
    // of each, seconds apart, compared the load of two moments as much as the two reads (0.37x then 0.80x)
    const raws: Measure[] = [];
    const ourRuns: Measure[] = [];
    for (let i = 0; i < repeat; i++) {
      raws.push(runChild(c.raw, file));
      ourRuns.push(runChild('ours', file));
    }
    const reader = runChild(`reader-${c.kind}`, file);
    const fastest = (ms: Measure[]) => ms.reduce((a, b) => (b.ms < a.ms ? b : a));
    const raw = fastest(raws);
    const ours = fastest(ourRuns);
    const secs = (ms: Measure[]) => ms.map((m) => (m.ms / 1000).toFixed(2)).join(', ');
    await rm(file, { force: true });
    // the same file's rows: the time ratio (the raw read of the SAP list counts every line, titles and subtotals too)
    const speed = raw.ms / ours.ms;
    const readerSpeed = raw.ms / reader.ms;
    console.log(
      `${c.name.padEnd(10)}  ${n.toLocaleString('en-US').padStart(9)}  ${fmt(raw)}  ${fmt(ours)}  ${speed.toFixed(2).padStart(5)}  ${(ours.maxRssMB / raw.maxRssMB).toFixed(2)}`,
    );
    console.log(`  (runs, s: raw ${secs(raws)}; ours ${secs(ourRuns)}; the fastest of each compared)`);
    console.log(
      `  (our reader alone, no mapping: ${fmt(reader)}, ${readerSpeed.toFixed(2)} of the raw parse; file ${(size / 1024 ** 2).toFixed(1)} MB)`,
    );
    const ok = (b: boolean) => (b ? 'OK' : 'MISSED');
    const mb = size / 1024 ** 2;
    if (c.kind === 'sap')
      verdicts.push(
        `${c.name}: ${mb.toFixed(1)} MB streamed; speed ours/readline ${speed.toFixed(2)} (no target: readline only splits lines, no cells, no mapping, so it is no raw parse of the same work; the reader alone ${readerSpeed.toFixed(2)}); peak RSS ${ours.maxRssMB.toFixed(0)} MB (target < 400, the CSV bound) ${ok(ours.maxRssMB < 400)}`,
      );
    else if (c.kind === 'html')
      verdicts.push(
        `${c.name}: ${mb.toFixed(1)} MB streamed; speed ours/raw ${speed.toFixed(2)} (target >= 0.6) ${ok(speed >= 0.6)}; peak RSS ${ours.maxRssMB.toFixed(0)} MB (target < 400, the CSV bound) ${ok(ours.maxRssMB < 400)}`,
      );
    else {
      const expansion = formatOf(c.kind).inMemory!.expansion;
      verdicts.push(
        `${c.name}: ${mb.toFixed(1)} MB x ${expansion} (its expansion) = ${(mb * expansion).toFixed(0)} MB of the ${budgetMB} MB budget; speed ours/raw ${speed.toFixed(2)} (target >= 0.6) ${ok(speed >= 0.6)}; peak RSS ${ours.maxRssMB.toFixed(0)} MB (target < the budget) ${ok(ours.maxRssMB < budgetMB)}`,
      );
    }
  }
  for (const v of verdicts) console.log(v);
}
