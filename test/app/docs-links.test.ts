/**
 * The project carries its own design: comments point into docs/architecture.md (and the README), never to documents
 * outside the repository. Every `docs/architecture.md#<anchor>` or `README.md#<anchor>` a comment names is a heading
 * there; no comment in src/, jobs/ or bin/ sends the reader to design notes, the interface document or an issue number;
 * and every "proof N" a comment or test name uses is one docs/architecture.md defines. Pure: reads files only.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const ARCHITECTURE = join(ROOT, 'docs', 'architecture.md');

function tsFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => relative(ROOT, join(e.parentPath, e.name)))
    .sort();
}

/** Every comment of a TypeScript file, with its line (from the syntax tree, so strings and regexes are not comments). */
function commentsOf(file: string): Array<{ line: number; text: string }> {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const seen = new Map<number, { line: number; text: string }>();
  const add = (ranges: ts.CommentRange[] | undefined) => {
    for (const r of ranges ?? []) {
      if (!seen.has(r.pos))
        seen.set(r.pos, { line: sf.getLineAndCharacterOfPosition(r.pos).line + 1, text: text.slice(r.pos, r.end) });
    }
  };
  const visit = (node: ts.Node) => {
    add(ts.getLeadingCommentRanges(text, node.pos));
    add(ts.getTrailingCommentRanges(text, node.end));
    for (const child of node.getChildren(sf)) visit(child);
  };
  visit(sf);
  return [...seen.values()];
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens; repeats get -1, -2... */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const counts = new Map<string, number>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const m = !fenced && /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!m) continue;
    const base = m[1]!
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = counts.get(base) ?? 0;
    counts.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

const CODE = ['src', 'jobs', 'app', 'bin'].flatMap(tsFiles);
const ALL = [...CODE, ...['test', 'bench'].flatMap(tsFiles)];

describe('comments point into the repository', () => {
  it('every docs/architecture.md#anchor and README.md#anchor named in a comment is a heading there', () => {
    const docs = {
      'docs/architecture.md': anchorsOf(readFileSync(ARCHITECTURE, 'utf8')),
      'README.md': anchorsOf(readFileSync(join(ROOT, 'README.md'), 'utf8')),
    };
    const broken: string[] = [];
    let links = 0;
    for (const file of ALL) {
      for (const c of commentsOf(file)) {
        for (const m of c.text.matchAll(/(docs\/architecture\.md|README\.md)#([\w-]+)/g)) {
          links++;
          if (!docs[m[1] as keyof typeof docs].has(m[2]!)) broken.push(`${file}:${c.line}: ${m[0]}`);
        }
      }
    }
    expect(broken).toEqual([]);
    expect(links).toBeGreaterThan(10);
  });

  it("docs/architecture.md's own links to its sections resolve", () => {
    const text = readFileSync(ARCHITECTURE, 'utf8');
    const anchors = anchorsOf(text);
    const links = [...text.matchAll(/\]\(#([\w-]+)\)/g)].map((m) => m[1]!);
    expect(links.length).toBeGreaterThan(5);
    expect(links.filter((a) => !anchors.has(a))).toEqual([]);
  });

  it('no comment in src/, jobs/ or bin/ refers to design notes, the interface document or an issue number', () => {
    const outside =
      /design\.md|design notes|interface document|sourcing-service-interface|\bissues?\s*#?\d|\(issue\b|\bissue:/i;
    const found: string[] = [];
    for (const file of CODE) {
      for (const c of commentsOf(file)) {
        c.text.split('\n').forEach((l, i) => {
          if (outside.test(l)) found.push(`${file}:${c.line + i}: ${l.trim()}`);
        });
      }
    }
    expect(found).toEqual([]);
  });

  it('every "proof N" used in a comment or a test name is defined in docs/architecture.md', () => {
    const architecture = readFileSync(ARCHITECTURE, 'utf8');
    const defined = new Set([...architecture.matchAll(/^\|\s*\*\*[Pp]roof (\d+)\*\*/gm)].map((m) => m[1]));
    const used = new Map<string, string>();
    for (const file of ALL) {
      for (const m of readFileSync(join(ROOT, file), 'utf8').matchAll(/\b[Pp]roof (\d+)\b/g)) used.set(m[1]!, file);
    }
    expect(used.size).toBeGreaterThan(0);
    expect([...used].filter(([n]) => !defined.has(n)).map(([n, file]) => `proof ${n} (${file})`)).toEqual([]);
  });
});
