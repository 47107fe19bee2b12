/** Every file or folder an npm script names exists (a script pointing at nothing passes silently or fails late). */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');

describe('package.json scripts', () => {
  it('name only paths that exist', () => {
    const { scripts } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    const missing: string[] = [];
    let paths = 0;
    for (const [name, command] of Object.entries(scripts)) {
      // a path: a token with a slash or a .ts file (flags, commands and npm script names have neither); a quoted glob
      // is a pattern, not a path
      for (const token of command
        .split(/\s+/)
        .filter((t) => !t.startsWith('-') && !t.startsWith('"') && (t.includes('/') || t.endsWith('.ts')))) {
        paths++;
        if (!existsSync(join(ROOT, token))) missing.push(`${name}: ${token}`);
      }
    }
    expect(missing).toEqual([]);
    expect(paths).toBeGreaterThan(5);
  });
});
