/**
 * The folder map of docs/architecture.md ("The folders") is the one scripts/folder-map.ts generates from each folder's
 * index.ts, and no folder can be added without an entry the map reads: every folder holding .ts files under src/ and
 * jobs/ (and every sub-folder of app/) has an index.ts that opens with a doc comment. Pure: reads the sources.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  BEGIN,
  DOC_FILE,
  END,
  REPO_ROOT,
  folderEntries,
  folderTable,
  foldersWithoutEntry,
  openingSentence,
  renderDoc,
} from '../../scripts/folder-map.ts';
import { tempDir } from '../helpers/temp-dir.ts';

/** Write `files` (path relative to `root` -> content) into `root`. */
function tree(root: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
}

describe('folder map of docs/architecture.md', () => {
  it('is the generated one, up to date (npm run docs:folders -- --write)', () => {
    const doc = readFileSync(join(REPO_ROOT, DOC_FILE), 'utf8');
    expect(doc).toContain(BEGIN);
    expect(renderDoc(doc)).toBe(doc);
    for (const { folder } of folderEntries()) expect(doc).toContain(`| \`${folder}\` | `);
  });

  it('every folder holding .ts files has an index.ts opening with a comment', () => {
    const missing = foldersWithoutEntry();
    expect(missing, 'add an index.ts opening with /** what the folder holds. */, then npm run docs:folders').toEqual(
      [],
    );
  });

  it('takes the first sentence of the opening comment only', () => {
    expect(openingSentence('/** Requisition ingestion: the public API (profiles: docs/mapping.md). More. */')).toBe(
      'Requisition ingestion: the public API (profiles: docs/mapping.md).',
    );
    expect(
      openingSentence('/**\n * The outbox: files for people, e.g. workbooks\n * and award files. Then more.\n */'),
    ).toBe('The outbox: files for people, e.g. workbooks and award files.');
    expect(openingSentence('/** No full stop */\nexport {};')).toBe('No full stop');
    expect(openingSentence('// a line comment\n/** Too late. */')).toBeUndefined();
    expect(openingSentence("export { a } from './a.ts';\n")).toBeUndefined();
  });

  it('on a tree: maps sub-folders sorted by path, sees a stale map, a folder without index.ts or without comment', () => {
    const root = tempDir();
    tree(root, {
      'src/b/index.ts': '/** Folder b. Details. */\n',
      'src/b/x.ts': '',
      'src/a/index.ts': '/** Folder a | piped. */\n',
      'src/a/sub/index.ts': '/**\n * Folder a/sub.\n */\n',
      'src/top.ts': '', // the top of src/ needs no index.ts
      'app/cli.ts': '', // nor the top of app/
      'app/http/server.ts': '',
      'jobs/poll.ts': '',
      'src/c/index.ts': "export * from './y.ts';\n",
      'src/c/y.ts': '',
      'src/data/lua/only.lua': '', // no .ts: no entry needed
    });
    expect(folderEntries(root).map((e) => e.folder)).toEqual(['src/a/', 'src/a/sub/', 'src/b/', 'src/c/']);
    expect(foldersWithoutEntry(root)).toEqual([
      { folder: 'app/http/', problem: 'no index.ts' },
      { folder: 'jobs/', problem: 'no index.ts' },
      { folder: 'src/c/', problem: 'index.ts does not open with a /** ... */ comment' },
    ]);
    expect(() => folderTable(root)).toThrow(/src\/c\/index\.ts/);

    tree(root, { 'src/c/index.ts': "/** Folder c. */\nexport * from './y.ts';\n" });
    const doc = `# Doc\n\n${BEGIN}\n${END}\n\nAfter.\n`;
    const fresh = renderDoc(doc, root);
    expect(fresh).toBe(
      `# Doc\n\n${BEGIN}\n| Folder | What it holds |\n|---|---|\n| \`src/a/\` | Folder a \\| piped. |\n` +
        `| \`src/a/sub/\` | Folder a/sub. |\n| \`src/b/\` | Folder b. |\n| \`src/c/\` | Folder c. |\n${END}\n\nAfter.\n`,
    );
    expect(renderDoc(fresh, root)).toBe(fresh);
    tree(root, { 'src/b/index.ts': '/** Folder b, now other. */\n' });
    expect(renderDoc(fresh, root)).not.toBe(fresh);
    expect(() => renderDoc('# no markers\n', root)).toThrow(/no generated block/);
  });
});
