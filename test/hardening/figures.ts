/**
 * Figures of the hardening suite: each test file records what it measured (one JSON line per figure, appended to
 * the file globalSetup names), and the global teardown prints them as one table (the table of docs/reliability.md#figures).
 */
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface Figure {
  /** Part of the suite: hostile files, faults, security, soak. */
  section: string;
  name: string;
  value: string | number;
  /** What is right ("0", "<= 400 MB"...), when there is a target. */
  target?: string;
  ok: boolean;
}

export function figuresFile(): string {
  return process.env.HARDENING_FIGURES_FILE ?? join(tmpdir(), 'rfq-sync-hardening-figures.jsonl');
}

export function recordFigure(f: Figure): void {
  appendFileSync(figuresFile(), `${JSON.stringify(f)}\n`);
}

export function readFigures(file = figuresFile()): Figure[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Figure);
}

/** A Markdown table (also readable as plain text in a terminal). The last value of a figure wins. */
export function renderTable(figures: Figure[]): string {
  const last = new Map<string, Figure>();
  for (const f of figures) last.set(`${f.section}\u0000${f.name}`, f);
  const rows = [...last.values()];
  const cells = [
    ['Section', 'Figure', 'Value', 'Target', 'OK'],
    ...rows.map((f) => [f.section, f.name, String(f.value), f.target ?? '', f.ok ? 'yes' : 'NO']),
  ];
  const widths = cells[0]!.map((_, i) => Math.max(...cells.map((r) => r[i]!.length)));
  const line = (r: string[]) => `| ${r.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  return [line(cells[0]!), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...cells.slice(1).map(line)].join(
    '\n',
  );
}
