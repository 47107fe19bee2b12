/**
 * Files that people or an ERP pick up (workbooks, award CSVs, reports) are written to a temporary name in the same
 * folder and renamed, so a reader never sees half a file. The temporary name starts with `.` and ends in `.tmp`,
 * which the inbox watcher and most ERP pickers ignore.
 */
import { randomBytes } from 'node:crypto';
import { link, lstat, mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { DiskFullError } from './errors.ts';

/** Run `write(tmpPath)` then rename onto `finalPath`; the temp file is removed on failure. */
export async function writeAtomically(finalPath: string, write: (tmpPath: string) => Promise<void>): Promise<void> {
  const dir = dirname(finalPath);
  await mkdir(dir, { recursive: true });
  const tmp = join(dir, `.${basename(finalPath)}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    await write(tmp);
    await rename(tmp, finalPath);
  } catch (err) {
    await rm(tmp, { force: true });
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOSPC' || code === 'EDQUOT') throw new DiskFullError(finalPath, code, { cause: err });
    throw err;
  }
}

/**
 * Remove temporary files (`.<name>.<hex>.tmp`) a crash left in these folders, once older than `olderThanMs` (a
 * worker on another host may be writing one right now). Returns how many went.
 */
export async function removeStaleTemps(dirs: string[], olderThanMs: number, now = Date.now()): Promise<number> {
  let n = 0;
  for (const dir of dirs) {
    for (const name of await readdir(dir).catch(() => [] as string[])) {
      if (!/^\..+\.[0-9a-f]{8}\.tmp$/.test(name)) continue;
      const path = join(dir, name);
      const st = await lstat(path).catch(() => undefined);
      if (!st?.isFile() || now - st.mtimeMs < olderThanMs) continue;
      await rm(path, { force: true });
      n++;
    }
  }
  return n;
}

export async function writeFileAtomically(finalPath: string, data: string | Uint8Array): Promise<void> {
  await writeAtomically(finalPath, (tmp) => writeFile(tmp, data));
}

/** File systems without hard links (some shares) answer a link with one of these. */
const NO_LINKS = new Set(['EPERM', 'ENOTSUP', 'ENOSYS', 'EOPNOTSUPP']);

/**
 * Like writeFileAtomically, but never replaces a file: the complete temporary file is hard-linked to `finalPath`,
 * which fails when anything is there, even a file written meanwhile ('exists', nothing written). Where the file
 * system has no hard links, the check and the rename are two steps.
 */
export async function writeNewFileAtomically(
  finalPath: string,
  data: string | Uint8Array,
): Promise<'written' | 'exists'> {
  const dir = dirname(finalPath);
  await mkdir(dir, { recursive: true });
  const tmp = join(dir, `.${basename(finalPath)}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    await writeFile(tmp, data);
    try {
      await link(tmp, finalPath);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? '';
      if (code === 'EEXIST') return 'exists';
      if (!NO_LINKS.has(code)) throw err;
      if (
        await lstat(finalPath).then(
          () => true,
          () => false,
        )
      )
        return 'exists';
      await rename(tmp, finalPath);
    }
    return 'written';
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOSPC' || code === 'EDQUOT') throw new DiskFullError(finalPath, code, { cause: err });
    throw err;
  } finally {
    await rm(tmp, { force: true });
  }
}

/**
 * A file name safe on Windows and Linux shares whatever the input holds: no path separators, no reserved
 * characters or device names, no leading dots, no trailing dots/spaces, at most `max` characters.
 */
export function safeFileName(name: string, max = 120): string {
  let s = name
    .normalize('NFC')
    .replace(/[\u0000-\u001F\u007F<>:"/\\|?*]+/g, '_')
    .replace(/\s+/g, ' ')
    .replace(/^[.\s]+/, '')
    .replace(/[.\s]+$/, '')
    .trim();
  if (/^(con|prn|aux|nul|com[0-9]|lpt[0-9])(\..*)?$/i.test(s)) s = `_${s}`;
  if (s.length > max) s = s.slice(0, max).replace(/[.\s]+$/, '');
  return s || '_';
}
