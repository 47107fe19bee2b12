/** The repository's sources as the architecture checks read them: one walker for all of them. */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root folder (with a trailing slash). */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Every `.ts` file under `dir` (absolute paths), depth first, in directory order. */
export function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? sources(p) : p.endsWith('.ts') ? [p] : [];
  });
}
