/**
 * Size limits a newcomer can read in one sitting: no file in src/, jobs/ or app/ over 500 lines, no function over
 * 100 (a factory closure counts whole: its methods are its body). Pure: parses the sources with TypeScript's parser.
 */
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { sources } from '../helpers/sources.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const MAX_FILE_LINES = 500;
const MAX_FUNCTION_LINES = 100;

function functionName(node: ts.SignatureDeclaration): string {
  if (node.name) return node.name.getText();
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) return parent.name.getText();
  return '(anonymous)';
}

/** Every function longer than the limit in one file, as "path:line name (n lines)". */
function longFunctions(file: string, text: string, limit: number): string[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const start = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line;
      const end = sf.getLineAndCharacterOfPosition(node.end).line;
      const lines = end - start + 1;
      if (lines > limit) found.push(`${relative(ROOT, file)}:${start + 1} ${functionName(node)} (${lines} lines)`);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

describe('size limits', () => {
  const files = ['src', 'jobs', 'app'].flatMap((d) => sources(join(ROOT, d)));

  it(`no file over ${MAX_FILE_LINES} lines`, () => {
    const long = files
      .map((f) => [relative(ROOT, f), readFileSync(f, 'utf8').split('\n').length] as const)
      .filter(([, n]) => n > MAX_FILE_LINES)
      .map(([f, n]) => `${f} (${n} lines)`);
    expect(long).toEqual([]);
  });

  it(`no function over ${MAX_FUNCTION_LINES} lines`, () => {
    const long = files.flatMap((f) => longFunctions(f, readFileSync(f, 'utf8'), MAX_FUNCTION_LINES));
    expect(long).toEqual([]);
  });

  it('the measure sees a long function (so the limit can fail)', () => {
    const body = Array.from({ length: 101 }, (_, i) => `  const v${i} = ${i};`).join('\n');
    expect(longFunctions(join(ROOT, 'x.ts'), `function big() {\n${body}\n}\n`, MAX_FUNCTION_LINES)).toEqual([
      'x.ts:1 big (103 lines)',
    ]);
  });
});
