/**
 * The test kit is used, not copied: a fixed wait in a test is slow, and before an absence check it can pass under load
 * without testing anything, so a test waits on a progress marker (test/helpers/wait.ts waitFor, test/helpers/
 * monitor.ts) instead. Every fixed wait over 200 ms that remains in test/ says why on its line or the line before
 * (`// sleep: <reason>`), and the list of them is printed. Temporary folders come from test/helpers/temp-dir.ts
 * (removed after the test), never from mkdtemp in a test file; the source folders are walked by test/helpers/sources.ts
 * alone. Pure: reads the sources (and makes two folders).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ROOT, sources } from '../helpers/sources.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const MAX_SLEEP_MS = 200;
/** Lines of one harness in test/helpers: what a newcomer reads in one go. */
const MAX_HELPER_LINES = 300;

export interface FixedWait {
  /** `path:line`. */
  at: string;
  ms: number;
  /** The `// sleep:` comment's reason, when there is one. */
  why?: string;
  code: string;
}

/** The value of a number literal in the expression, the largest when there are several (`x + 300`: 300). */
function largestLiteral(node: ts.Node): number | undefined {
  let best: number | undefined;
  const visit = (n: ts.Node): void => {
    if (ts.isNumericLiteral(n)) best = Math.max(best ?? 0, Number(n.text.replace(/_/g, '')));
    ts.forEachChild(n, visit);
  };
  visit(node);
  return best;
}

/**
 * The fixed waits of one file over `limit` ms: `sleep(ms)`, `delay(ms)` and `setTimeout(resolve, ms)` (a timer whose
 * callback is a bare resolver: a pause, not a time-out or a scheduled action) whose duration holds a number literal.
 */
export function fixedWaits(path: string, text: string, limit = MAX_SLEEP_MS): FixedWait[] {
  const sf = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const lines = text.split('\n');
  const found: FixedWait[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression)) {
      const name = node.expression.text;
      const [first, second] = node.arguments;
      const duration =
        name === 'sleep' || name === 'delay'
          ? first
          : name === 'setTimeout' && first && ts.isIdentifier(first)
            ? second
            : undefined;
      const ms = duration && largestLiteral(duration);
      if (ms !== undefined && ms > limit) {
        const line = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line;
        const comment = [lines[line], lines[line - 1]].map((l) => /\/\/\s*sleep:\s*(\S.*)$/.exec(l ?? '')?.[1]);
        const why = comment.find((c) => c !== undefined);
        found.push({ at: `${path}:${line + 1}`, ms, ...(why ? { why } : {}), code: node.getText(sf) });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

/** `path:line` of each direct mkdtemp call (sync or promise) in a file, comments aside. */
export function mkdtempCalls(path: string, text: string): string[] {
  return text
    .split('\n')
    .flatMap((line, i) =>
      /^\s*(\/\/|\*|\/\*)/.test(line) || !/\bmkdtemp(Sync)?\s*\(/.test(line) ? [] : [`${path}:${i + 1}`],
    );
}

const testFiles = () =>
  sources(join(ROOT, 'test')).map((p) => ({ path: relative(ROOT, p), text: readFileSync(p, 'utf8') }));

describe('fixed waits in tests', () => {
  it(`every fixed wait over ${MAX_SLEEP_MS} ms in test/ says why (listed here)`, () => {
    const waits = testFiles().flatMap(({ path, text }) => fixedWaits(path, text));
    console.log(
      `fixed waits over ${MAX_SLEEP_MS} ms in test/: ${waits.length}\n` +
        waits.map((w) => `  ${w.at} ${w.ms} ms: ${w.why ?? 'NO REASON GIVEN'}`).join('\n'),
    );
    expect(waits.filter((w) => !w.why).map((w) => `${w.at} ${w.code}`)).toEqual([]);
  });

  it('the check sees each form of fixed wait, and the reason given (it can fail)', () => {
    const text = [
      'await sleep(1_500);',
      'await new Promise((r) => setTimeout(r, 2_000));',
      '// sleep: the copy must look unfinished to the watcher',
      'await sleep(deps.leaseMs + 300);',
      'await delay(250); // sleep: the service is down this long',
      'await sleep(150);',
      'await sleep(err.waitMs);',
      "const t = setTimeout(() => reject(new Error('too slow')), 5_000);",
    ].join('\n');
    expect(fixedWaits('test/x.test.ts', text).map((w) => [w.at, w.ms, w.why])).toEqual([
      ['test/x.test.ts:1', 1500, undefined],
      ['test/x.test.ts:2', 2000, undefined],
      ['test/x.test.ts:4', 300, 'the copy must look unfinished to the watcher'],
      ['test/x.test.ts:5', 250, 'the service is down this long'],
    ]);
  });
});

describe('temporary folders in tests', () => {
  it('no test file calls mkdtemp itself: tempDir() (test/helpers/temp-dir.ts) makes the folder and removes it', () => {
    const calls = testFiles()
      .filter(({ path }) => path !== 'test/helpers/temp-dir.ts')
      .flatMap(({ path, text }) => mkdtempCalls(path, text));
    expect(calls).toEqual([]);
  });

  it('the check sees mkdtemp in either form and not in a comment (it can fail)', () => {
    const call = 'mkdtemp'; // spelled apart, so this file has no call itself
    const text = [
      `const dir = ${call}Sync(join(tmpdir(), 'x-'));`,
      `const d = await ${call}(join(tmpdir(), 'y-'));`,
      ` * made with ${call}(...) before`,
      "const t = tempDir('z-');",
    ].join('\n');
    expect(mkdtempCalls('test/a.test.ts', text)).toEqual(['test/a.test.ts:1', 'test/a.test.ts:2']);
  });
});

describe('one tempDir', () => {
  /** `path:line` of each definition of a function or constant named `tempDir`. */
  const definitions = (path: string, text: string) =>
    text
      .split('\n')
      .flatMap((line, i) =>
        /\b(function\s+tempDir|(const|let|var)\s+tempDir)\b/.test(line) ? [`${path}:${i + 1}`] : [],
      );

  it('test/helpers/temp-dir.ts alone defines tempDir: one way to a scratch folder, removed for the test', () => {
    const defs = testFiles().flatMap(({ path, text }) => definitions(path, text));
    expect(defs.map((d) => d.replace(/:\d+$/, ''))).toEqual(['test/helpers/temp-dir.ts']);
  });

  it('the check sees a second definition (it can fail)', () => {
    const name = 'temp' + 'Dir'; // spelled apart, so this file defines none itself
    const text = [`export function ${name}(): string {`, `const dir = ${name}();`, `const ${name} = () => 1;`];
    expect(definitions('test/x.ts', text.join('\n'))).toEqual(['test/x.ts:1', 'test/x.ts:3']);
  });
});

describe('the harnesses a newcomer reads', () => {
  it(`each file of test/helpers is at most ${MAX_HELPER_LINES} lines`, () => {
    const long = testFiles()
      .filter(({ path }) => path.startsWith('test/helpers/'))
      .map(({ path, text }) => [path, text.split('\n').length] as const)
      .filter(([, n]) => n > MAX_HELPER_LINES)
      .map(([path, n]) => `${path} (${n} lines)`);
    expect(long).toEqual([]);
  });
});

describe('tempDir()', () => {
  const forTheFile = tempDir('rfq-kit-file-');
  let forTheTest = '';

  it('makes a folder that is there during the test', () => {
    forTheTest = tempDir('rfq-kit-test-');
    expect([existsSync(forTheTest), existsSync(forTheFile)]).toEqual([true, true]);
  });

  it('removed it after the test that made it; one made outside a test stays until the file ends', () => {
    expect(forTheTest).not.toBe('');
    expect([existsSync(forTheTest), existsSync(forTheFile)]).toEqual([false, true]);
  });
});

describe('one source walker', () => {
  it('no test file walks the source folders itself: test/helpers/sources.ts does', () => {
    const walkers = testFiles()
      .filter(({ path }) => path !== 'test/helpers/sources.ts')
      .filter(({ text }) => /\breaddirSync\(\w+\)\.flatMap\(/.test(text))
      .map(({ path }) => path);
    expect(walkers).toEqual([]);
  });
});
