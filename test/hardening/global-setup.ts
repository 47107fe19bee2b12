/** Fresh figures file per run; at the end, the summary table of the whole suite (also kept as Markdown). */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeTempDir } from '../helpers/temp-dir.ts';
import { readFigures, renderTable } from './figures.ts';

export default function setup(): () => void {
  const dir = makeTempDir('rfq-sync-hardening-'); // kept: the figures table stays there after the run
  const file = join(dir, 'figures.jsonl');
  process.env.HARDENING_FIGURES_FILE = file;
  return () => {
    const figures = readFigures(file);
    if (figures.length === 0) return;
    const table = renderTable(figures);
    writeFileSync(join(dir, 'figures.md'), `${table}\n`);
    const bad = figures.filter((f) => !f.ok).length;
    process.stdout.write(
      `\nHardening figures (${figures.length}, ${bad} off target; also in ${join(dir, 'figures.md')}):\n\n${table}\n\n`,
    );
  };
}
