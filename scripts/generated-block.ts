/**
 * A block of a doc that a script generates, between two marker comments: replaced in the doc text, and the script's
 * command line (`--write` rewrites the doc; without it the block is printed, and the exit code is 1 when the doc's
 * block is stale). scripts/folder-map.ts and scripts/readers-doc.ts are its two.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { UnexpectedError } from '../src/core/index.ts';

export interface GeneratedBlock {
  /** The doc, relative to the repository's root. */
  docFile: string;
  begin: string;
  end: string;
  /** What the block is ("folder map"), and the command that writes it ("npm run docs:folders"), for messages. */
  what: string;
  command: string;
}

/** `current` with its generated block replaced by `content`. */
export function replaceBlock(current: string, block: GeneratedBlock, content: string): string {
  const i = current.indexOf(block.begin);
  const j = current.indexOf(block.end);
  if (i < 0 || j < i)
    throw new UnexpectedError(`${block.docFile} has no generated block (${block.begin} ... ${block.end})`);
  return `${current.slice(0, i + block.begin.length)}\n${content}\n${current.slice(j)}`;
}

/** The script's command line: the doc under `root` rewritten with `--write`, else the block printed and checked. */
export function runGenerator(root: string, block: GeneratedBlock, content: string): void {
  const path = join(root, block.docFile);
  const current = readFileSync(path, 'utf8');
  const next = replaceBlock(current, block, content);
  if (process.argv.includes('--write')) {
    if (next !== current) writeFileSync(path, next);
    process.stdout.write(
      next === current ? `${block.docFile}: ${block.what} already up to date\n` : `updated ${block.docFile}\n`,
    );
  } else {
    process.stdout.write(`${content}\n`);
    if (next !== current) {
      process.stderr.write(`${block.docFile}: the ${block.what} is stale; run ${block.command} -- --write\n`);
      process.exitCode = 1;
    }
  }
}
