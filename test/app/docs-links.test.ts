/**
 * The project carries its own design and its own documentation. The README and every page of docs/ link only to
 * files that exist and to headings that exist there; the README stays a front page that leads to every page. Every
 * `docs/<page>.md#<anchor>` or `README.md#<anchor>` the code, the tests, the benchmarks or the deployment files name
 * (in a comment or in a message the CLI prints) is a heading there; no comment in src/, jobs/ or bin/ sends the reader
 * to design notes, the interface document or an issue number; and every "proof N" a comment or test name uses is one
 * docs/architecture.md defines. Pure: reads files only.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
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
    if (/^\s*```/.test(line)) fenced = !fenced;
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
const ALL = [...CODE, ...['test', 'bench', 'docs'].flatMap(tsFiles)];
/** Files outside TypeScript that point readers into the docs. */
const DEPLOY = [
  'Dockerfile',
  'docker-compose.yml',
  '.env.example',
  '.ci/run',
  'deploy/rfq-sync.service',
  'deploy/rfq-sync@.service',
];
/** The README and every page of docs/, as paths from the root. */
const PAGES = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((n) => n.endsWith('.md'))
    .sort()
    .map((n) => `docs/${n}`),
];

const anchorCache = new Map<string, Set<string>>();
function anchorsOfPage(page: string): Set<string> {
  let a = anchorCache.get(page);
  if (!a) anchorCache.set(page, (a = anchorsOf(readFileSync(join(ROOT, page), 'utf8'))));
  return a;
}

/** What is wrong with `page#anchor` (page from the root), or null when both exist. */
function brokenTarget(page: string, anchor: string | undefined): string | null {
  if (!existsSync(join(ROOT, page))) return `no file ${page}`;
  if (anchor === undefined) return null;
  if (!page.endsWith('.md')) return `#${anchor} on a file that is not a page`;
  return anchorsOfPage(page).has(anchor) ? null : `no heading #${anchor} in ${page}`;
}

/** Every link and image of a markdown page outside code blocks: [text](target) with its line. */
function linksOf(markdown: string): Array<{ line: number; target: string }> {
  const out: Array<{ line: number; target: string }> = [];
  let fenced = false;
  markdown.split('\n').forEach((text, i) => {
    if (/^\s*```/.test(text)) fenced = !fenced;
    if (fenced) return;
    for (const m of text.replace(/`[^`]*`/g, '').matchAll(/\]\(([^)\s]+)\)/g)) out.push({ line: i + 1, target: m[1]! });
  });
  return out;
}

describe('the documentation links into itself', () => {
  it('every relative link and anchor of README.md and docs/*.md resolves (files, images, headings)', () => {
    const broken: string[] = [];
    let checked = 0;
    for (const page of PAGES) {
      for (const { line, target } of linksOf(readFileSync(join(ROOT, page), 'utf8'))) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto: ...
        checked++;
        const [path, anchor] = target.split('#') as [string, string | undefined];
        const to = path === '' ? page : normalize(join(dirname(page), decodeURI(path))).replace(/\\/g, '/');
        const why = to.startsWith('..') ? `leaves the repository` : brokenTarget(to, anchor);
        if (why) broken.push(`${page}:${line}: (${target}): ${why}`);
      }
    }
    expect(broken).toEqual([]);
    expect(checked).toBeGreaterThan(50);
  });

  it('the README is a front page: at most 300 lines, the two set-up commands, a link to every page of docs/', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    expect(readme.split('\n').length).toBeLessThanOrEqual(300 + 1);
    expect(readme).toContain('npm run demo');
    expect(readme).toContain('npm test');
    const linked = new Set(linksOf(readme).map((l) => l.target.split('#')[0]));
    expect(PAGES.filter((p) => p !== 'README.md' && !linked.has(p))).toEqual([]);
  });
});

describe('code and deployment files point into the repository', () => {
  it('every docs/<page>.md and README.md#<anchor> named in code, tests, benchmarks or deployment files exists', () => {
    const broken: string[] = [];
    let links = 0;
    for (const file of [...ALL, ...DEPLOY]) {
      readFileSync(join(ROOT, file), 'utf8')
        .split('\n')
        .forEach((text, i) => {
          for (const m of text.matchAll(/\b(docs\/[\w-]+\.md|README\.md)(?:#([\w-]+))?/g)) {
            links++;
            const why = brokenTarget(m[1]!, m[2]);
            if (why) broken.push(`${file}:${i + 1}: ${m[0]}: ${why}`);
          }
        });
    }
    expect(broken).toEqual([]);
    expect(links).toBeGreaterThan(10);
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
