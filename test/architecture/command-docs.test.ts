/**
 * The command list of docs/architecture.md ("Outside contract") names every command and every option that app/cli.ts
 * declares, so a new command or option cannot be added without its line there. Pure: reads app/cli.ts and the doc.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/sources.ts';

/** Each command of app/cli.ts (`failed list` for a sub-command) with the long options declared on it. */
function cliCommands(source: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  // `<parent>\n  .command('<name>')`: the parent is `program` for a top-level command, else the group's variable
  const parts = source.split(/(\w+)\s*\.command\('([^']+)'\)/);
  for (let i = 1; i + 2 < parts.length; i += 3) {
    const name = parts[i] === 'program' ? parts[i + 1]! : `${parts[i]} ${parts[i + 1]}`;
    const body = parts[i + 2]!;
    const options = [...body.matchAll(/(?:\.option|\.requiredOption|new Option)\(\s*'([^']+)'/g)].flatMap(
      (m) => /--[\w-]+/.exec(m[1]!) ?? [],
    );
    out.set(name, options);
  }
  // a group (`failed`, `notify`) is listed through its sub-commands
  for (const name of [...out.keys()]) if (name.includes(' ')) out.delete(name.split(' ')[0]!);
  return out;
}

/** The "Command" item of the outside contract: from `- **Command**` to the next item. */
function documentedCommands(doc: string): string {
  const m = /^- \*\*Command\*\*[\s\S]*?(?=^- \*\*)/m.exec(doc);
  if (!m) throw new Error('docs/architecture.md has no "- **Command**" item');
  return m[0].replace(/\s+/g, ' ');
}

describe('command list of docs/architecture.md', () => {
  const commands = cliCommands(readFileSync(join(ROOT, 'app', 'cli.ts'), 'utf8'));
  const listed = documentedCommands(readFileSync(join(ROOT, 'docs', 'architecture.md'), 'utf8'));

  it('reads the commands of app/cli.ts (sub-commands and options too)', () => {
    expect(commands.get('resume')).toEqual([]);
    expect(commands.get('notify test')).toEqual([]);
    expect(commands.get('failed list')).toEqual(['--json', '--limit']);
    expect(commands.has('failed')).toBe(false);
    expect(commands.get('recover')).toEqual(['--since']);
    expect(commands.size).toBeGreaterThanOrEqual(18);
  });

  it('names every command of app/cli.ts, and every option of each', () => {
    const missing: string[] = [];
    for (const [name, options] of commands) {
      if (!listed.includes(`\`${name}`)) missing.push(name);
      for (const o of options) if (!listed.includes(o)) missing.push(`${name} ${o}`);
    }
    expect(missing).toEqual([]);
  });
});
