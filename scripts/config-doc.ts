/**
 * The configuration table of the docs, generated from src/settings/config.ts: the variable names and defaults from the zod
 * schema, the descriptions from the doc comment above each field in src/settings/. test/app/config-doc.test.ts fails when
 * the table of docs/operations.md ("All settings") is out of date; `node scripts/config-doc.ts --write` regenerates it.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PACKAGE_ROOT, rawConfigSchema } from '../src/settings/config.ts';
import { UnexpectedError } from '../src/core/errors.ts';

export const DOC_PATH = join(PACKAGE_ROOT, 'docs', 'operations.md');
export const BEGIN = '<!-- BEGIN GENERATED: configuration table (node scripts/config-doc.ts --write) -->';
export const END = '<!-- END GENERATED -->';

/** KEY -> the doc comment right above it in its src/settings/ file, as one line. */
function descriptions(): Map<string, string> {
  const dir = join(PACKAGE_ROOT, 'src', 'settings');
  const body = readdirSync(dir)
    .filter((n) => n.endsWith('.ts'))
    .map((n) => readFileSync(join(dir, n), 'utf8'))
    .join('\n');
  const out = new Map<string, string>();
  // The comment body may not contain `*/`: else a file's header comment would run on to its first field.
  const re = /\/\*\*((?:(?!\*\/)[\s\S])*)\*\/\s*\n\s*([A-Z][A-Z0-9_]*):/g;
  for (let m = re.exec(body); m; m = re.exec(body)) {
    const text = m[1]!
      .split('\n')
      .map((l) => l.replace(/^\s*\*\s?/, '').trim())
      .filter(Boolean)
      .join(' ');
    out.set(m[2]!, text);
  }
  return out;
}

function defaultOf(key: string): string {
  const def = (rawConfigSchema.shape as Record<string, { def: { type: string; defaultValue?: unknown } }>)[key]!.def;
  if (def.type !== 'default') return '';
  const v = def.defaultValue;
  return typeof v === 'string' ? `\`${v}\`` : `\`${String(v)}\``;
}

export function configurationTable(): string {
  const desc = descriptions();
  const rows = Object.keys(rawConfigSchema.shape).map((key) => {
    const d = (desc.get(key) ?? '').replace(/\|/g, '\\|');
    return `| \`${key}\` | ${defaultOf(key) || '(unset)'} | ${d} |`;
  });
  return ['| Variable | Default | Meaning |', '|---|---|---|', ...rows].join('\n');
}

/** The doc with its generated block replaced by the current table. */
export function renderDoc(current: string): string {
  const i = current.indexOf(BEGIN);
  const j = current.indexOf(END);
  if (i < 0 || j < i) throw new UnexpectedError(`${DOC_PATH} has no generated block (${BEGIN} ... ${END})`);
  return `${current.slice(0, i + BEGIN.length)}\n${configurationTable()}\n${current.slice(j)}`;
}

if (process.argv[1] && import.meta.filename === process.argv[1] && process.argv.includes('--write')) {
  writeFileSync(DOC_PATH, renderDoc(readFileSync(DOC_PATH, 'utf8')));
  process.stdout.write(`updated ${DOC_PATH}\n`);
}
