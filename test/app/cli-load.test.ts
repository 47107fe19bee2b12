/**
 * Small commands start fast because they load only what they use (app/commands/index.ts loads each command when it
 * runs). Checked by the packages a real CLI process resolves: `--help` and `check --suggest` on a CSV with no service
 * configured load neither BullMQ nor Redis' client, nor exceljs or SheetJS. Seen failing after the folders got their
 * entries (issue 33): `check --suggest` reached BullMQ through the account's and Redis' entries, 0.07 s more start-up.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { spawnCli } from '../helpers/cli.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const HOOK = resolve(import.meta.dirname, '../helpers/package-load-hook.ts');
const SAMPLE = resolve(import.meta.dirname, '../../samples/ME5A_export_EN.csv');
const HEAVY = ['bullmq', 'ioredis', 'exceljs', 'xlsx', 'undici'];

async function packagesOf(args: string[]): Promise<string[]> {
  const out = join(tempDir(), 'packages.txt');
  const p = spawnCli(args, { NODE_OPTIONS: `--import=${HOOK}`, RFQ_SYNC_TEST_PACKAGES: out });
  const { code } = await p.exited;
  expect(code, p.output()).toBe(0);
  return readFileSync(out, 'utf8').split('\n').filter(Boolean);
}

describe('what a small command loads', () => {
  it.each([[['--help']], [['check', '--suggest', SAMPLE]]])(
    'rfq-sync %j loads no queue, Redis, workbook or HTTP client',
    async (args) => {
      const loaded = await packagesOf(args);
      expect(loaded).toContain('commander');
      expect(loaded.filter((p) => HEAVY.includes(p))).toEqual([]);
    },
  );
});
