/**
 * LibreOffice as another tool that writes (and reads) our files: `soffice --headless --convert-to`, one run per
 * conversion with a user profile of its own made fresh for it, so that a LibreOffice running elsewhere (another test
 * file, a user's) cannot swallow the conversion and no run finds a profile another left half-written. Not spawnSync:
 * a conversion of minutes must not block the test process (vitest's own messages to it would time out).
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { basename, delimiter, extname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect } from 'vitest';
import { makeTempDir } from './temp-dir.ts';

/**
 * Installed: found on PATH. Not `soffice --version`, which starts the whole office: under load it can outlast any
 * time-out and the test would be skipped silently.
 */
export function onPath(cmd: string): boolean {
  return (process.env.PATH ?? '').split(delimiter).some((d) => d !== '' && existsSync(join(d, cmd)));
}

export const hasSoffice = (): boolean => onPath('soffice');

/** One conversion may take this long on a loaded 2-core machine (it takes 3-10 s alone). */
export const CONVERT_TIMEOUT_MS = 240_000;
const LOAD_ERROR = /Error:|could not be loaded|general input\/output error/i;

function soffice(input: string, filter: string, outDir: string): Promise<{ status: number | null; output: string }> {
  const profileDir = makeTempDir('rfq-lo-profile-');
  const profile = `-env:UserInstallation=${pathToFileURL(profileDir).href}`;
  const child = spawn(
    'soffice',
    [profile, '--headless', '--norestore', '--convert-to', filter, '--outdir', outDir, input],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true, // its own process group: a time-out kills soffice.bin too, not only the launcher
    },
  );
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (s: string) => (output += s));
  child.stderr.setEncoding('utf8').on('data', (s: string) => (output += s));
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      output += `\n(no answer in ${CONVERT_TIMEOUT_MS} ms: killed)`;
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    }, CONVERT_TIMEOUT_MS);
    child.once('close', (status) => {
      clearTimeout(timer);
      void rm(profileDir, { recursive: true, force: true });
      resolve({ status, output });
    });
  });
}

/**
 * Converts `input` with LibreOffice's export `filter` (`xls`, `pdf`, `csv:Text - txt - csv (StarCalc):44,34,76`...)
 * into `outDir`; returns the file written (`out`: its name when LibreOffice names it otherwise, as a CSV of one
 * sheet). Tried a second time when soffice ended without writing the file and without a load error (under load a
 * first start can give up or restart itself to finish making its profile, exit 81); a load error fails at once.
 */
export async function convertWithLibreOffice(
  input: string,
  filter: string,
  outDir: string,
  out = `${basename(input, extname(input))}.${filter.split(':')[0]}`,
): Promise<string> {
  const path = join(outDir, out);
  await rm(path, { force: true });
  let run = await soffice(input, filter, outDir);
  if (!existsSync(path) && !LOAD_ERROR.test(run.output)) {
    const first = run;
    run = await soffice(input, filter, outDir);
    run.output = `first try (status ${first.status}): ${first.output}\nsecond try: ${run.output}`;
  }
  expect(run.status, run.output).toBe(0);
  expect(run.output).not.toMatch(LOAD_ERROR);
  expect(existsSync(path), run.output).toBe(true);
  return path;
}
