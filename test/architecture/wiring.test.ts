/**
 * Wiring is built where the worker is assembled (jobs/worker.ts asks each queue's processor factory once), never
 * cached behind the caller's back: a WeakMap keyed by a context or a client in a job file or the tracking hides
 * which instance a job gets, and two contexts on one Redis client would share one by accident. The process-wide
 * parts themselves (Redis client, queues, sourcing clients, limiter, auth gate, dialect source, state epoch,
 * notifier) are made in app/ only: src/ and jobs/ receive them, so what a module depends on is in its signature.
 * Pure: reads the sources.
 */
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { sources } from '../helpers/sources.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

type Source = { path: string; text: string };

/** The files of these folders of the repository (`except`: paths relative to it), with their text. */
function read(folders: string[], except: (rel: string) => boolean = () => false): Source[] {
  return folders
    .flatMap((f) => sources(join(ROOT, f)))
    .filter((p) => !except(relative(ROOT, p)))
    .map((path) => ({ path, text: readFileSync(path, 'utf8') }));
}

/** The code of a file, comments blanked (line numbers kept). */
const code = (t: string) => t.replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, ' ')).replace(/\/\/.*$/gm, '');

/** Files that make a WeakMap (comments aside). */
function weakMapCaches(files: Source[]): string[] {
  return files.filter(({ text }) => /\bnew\s+WeakMap\b/.test(code(text))).map(({ path }) => relative(ROOT, path));
}

/** The constructors of the process-wide parts; a module that calls one builds wiring. */
const PROCESS_PARTS =
  /(?<!\bfunction\s+)\b(new\s+Redis|createSourcingClient|createQueues|createRateLimiter|createAuthGate|createDialectSource|createStateEpoch|createNotifier)\s*\(/g;

/** `file: constructor` for each process-wide part a file builds (comments aside, definitions aside). */
function partsBuilt(files: Source[]): string[] {
  return files.flatMap(({ path, text }) =>
    [...code(text).matchAll(PROCESS_PARTS)].map((m) => `${relative(ROOT, path)}: ${m[1]!.replace(/\s+/, ' ')}`),
  );
}

/**
 * `file: line` where a module takes the whole worker context (a parameter, property or intersection of type
 * WorkerContext or WorkerServices, not a Pick of it): each job and module names the part it reads instead.
 */
function wholeContextTakers(files: Source[]): string[] {
  return files.flatMap(({ path, text }) =>
    code(text)
      .split('\n')
      .flatMap((line, i) =>
        /(?::\s*|&\s*)Worker(?:Context|Services)\b(?!\s*\[)|\bWorker(?:Context|Services)\s*&/.test(line)
          ? [`${relative(ROOT, path)}:${i + 1}`]
          : [],
      ),
  );
}

describe('wiring', () => {
  it('no job file and no tracking module caches its wiring in a WeakMap', () => {
    expect(weakMapCaches(read(['jobs', 'src/tracking']))).toEqual([]);
  });

  it('the check sees a cache and not a comment naming one (it can fail)', () => {
    const at = (name: string) => join(ROOT, name);
    const found = weakMapCaches([
      { path: at('jobs/a.ts'), text: 'const depsByContext = new WeakMap<WorkerContext, CreatorDeps>();' },
      { path: at('src/tracking/b.ts'), text: '/** seen before (new WeakMap) */\n// new WeakMap\nconst x = 1;' },
    ]);
    expect(found).toEqual(['jobs/a.ts']);
  });

  it('the process-wide parts are built in app/ only: no module of src/ or jobs/ makes one', () => {
    // the sandbox is a separate service with its own store
    expect(partsBuilt(read(['src', 'jobs'], (rel) => rel.startsWith('src/sandbox/')))).toEqual([]);
  });

  it('the check sees a part being made and not its definition or a comment (it can fail)', () => {
    const at = (name: string) => join(ROOT, name);
    const found = partsBuilt([
      {
        path: at('src/worker/a.ts'),
        text: 'const redis = new Redis({ ...base });\nconst q = createQueues(c, p, d);',
      },
      {
        path: at('src/redis/b.ts'),
        text: 'export function createQueues(connection: X) {}\n/** new Redis( */\n// createAuthGate(o)\nconst x = 1;',
      },
    ]);
    expect(found).toEqual(['src/worker/a.ts: new Redis', 'src/worker/a.ts: createQueues']);
  });

  it('no job and no module of src/ takes the whole worker context: each names the part it reads', () => {
    // jobs/worker.ts hands the context to each queue's processor factory: the one place it is taken whole
    expect(wholeContextTakers(read(['src', 'jobs'], (rel) => rel === 'jobs/worker.ts'))).toEqual([]);
  });

  it('the check sees the whole context taken, and not a Pick of it nor a comment (it can fail)', () => {
    const at = (name: string) => join(ROOT, name);
    const found = wholeContextTakers([
      {
        path: at('jobs/a.ts'),
        text: [
          'export async function processA(ctx: WorkerContext, job: Job) {}',
          "type B = Pick<WorkerContext, 'redis'> & { config: WorkerContext['config'] };",
          '/** takes a WorkerContext: WorkerContext */',
          'type C = WorkerContext & { extra: 1 };',
          'export function d(ctx: WorkerServices) {}',
        ].join('\n'),
      },
    ]);
    expect(found).toEqual(['jobs/a.ts:1', 'jobs/a.ts:4', 'jobs/a.ts:5']);
  });
});
