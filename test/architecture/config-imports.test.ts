/**
 * Config is read in app/ and passed down: a module under src/ receives the options it uses (typed, narrow), never
 * the configuration. Only the parsers import src/settings/config.ts: src/settings/config.ts itself, its split-out helpers
 * (config-redis.ts, config-secrets.ts) and the schema's fields in src/settings/. The folder's entry, src/settings/index.ts,
 * passes on what config.ts exports: those names count as config.ts's. Pure: reads the sources.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { sources } from '../helpers/sources.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CONFIG = join(ROOT, 'src/settings/config.ts');
const PARSERS = new Set(['src/settings/config.ts', 'src/settings/config-redis.ts', 'src/settings/config-secrets.ts']);
const ENTRY = join(ROOT, 'src/settings/index.ts');
/** The names the entry takes from config.ts. */
const CONFIG_NAMES = new Set(
  [...readFileSync(ENTRY, 'utf8').matchAll(/export\s+(?:type\s+)?\{([^}]*)\}\s*from\s*'\.\/config\.ts'/g)].flatMap(
    (m) =>
      m[1]!.split(',').map(
        (n) =>
          n
            .trim()
            .replace(/^type\s+/, '')
            .split(/\s+as\s+/)[0]!,
      ),
  ),
);
/** Named imports and re-exports: `import { a, type B } from '...'`, `export { c } from '...'`. */
const NAMED = /\b(?:import|export)\s+(?:type\s+)?\{([^}]*)\}\s*from\s*['"](\.{1,2}\/[^'"]+)['"]/g;

/** Static imports, `import type`, re-exports (`export ... from`) and dynamic `import()`. */
const SPEC = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"](\.{1,2}\/[^'"]+)['"]/g;

function configImporters(files: Array<{ path: string; text: string }>): string[] {
  return files
    .filter(({ path }) => !PARSERS.has(relative(ROOT, path)) && !relative(ROOT, path).startsWith('src/settings/'))
    .filter(
      ({ path, text }) =>
        [...text.matchAll(SPEC)].some((m) => resolve(dirname(path), m[1]!) === CONFIG) ||
        [...text.matchAll(NAMED)].some(
          (m) =>
            resolve(dirname(path), m[2]!) === ENTRY &&
            m[1]!.split(',').some((n) =>
              CONFIG_NAMES.has(
                n
                  .trim()
                  .replace(/^type\s+/, '')
                  .split(/\s+as\s+/)[0]!,
              ),
            ),
        ),
    )
    .map(({ path }) => relative(ROOT, path));
}

describe('config imports', () => {
  it('no module under src/ imports src/settings/config.ts except its parsers', () => {
    const files = sources(join(ROOT, 'src')).map((path) => ({ path, text: readFileSync(path, 'utf8') }));
    expect(configImporters(files)).toEqual([]);
  });

  it('the check sees every form of import (it can fail)', () => {
    const at = (name: string) => join(ROOT, 'src', name);
    const found = configImporters([
      { path: at('tracking/a.ts'), text: "import type { Config } from '../settings/config.ts';" },
      { path: at('b.ts'), text: "import { SOURCING_DEFAULTS } from './settings/config.ts';" },
      { path: at('intake/c.ts'), text: "const m = await import('../settings/config.ts');" },
      { path: at('d.ts'), text: "export { readTokenFile } from './settings/config.ts';" },
      { path: at('e.ts'), text: "import { loadConfig } from './settings/config-secrets.ts';" },
      { path: at('settings/f.ts'), text: "import type { Config } from './config.ts';" },
      { path: at('settings/config-redis.ts'), text: "import type { Config } from './config.ts';" },
      { path: at('account/g.ts'), text: "import { readTokenFile, type Config } from '../settings/index.ts';" },
      { path: at('account/h.ts'), text: "import { readTokenFile } from '../settings/index.ts';" },
    ]);
    expect(found).toEqual(['src/tracking/a.ts', 'src/b.ts', 'src/intake/c.ts', 'src/d.ts', 'src/account/g.ts']);
    expect([...CONFIG_NAMES]).toContain('loadConfig');
  });
});
