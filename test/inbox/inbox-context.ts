/** A minimal intake context for the inbox tests: real Redis, a temp data dir, the real BullMQ queues. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { loadConfig, type Config } from '../../src/config.ts';
import { silentLogger } from '../../src/logger.ts';
import { redisOptionsFromUrl } from '../../src/pipeline/context.ts';
import type { IntakeContext } from '../../src/intake/inbox-intake.ts';
import { bullPrefix, createQueues, type Queues } from '../../src/redis/queues.ts';
import { redisKeys, type RedisKeys } from '../../src/redis/redis-keys.ts';
import { freshPrefix } from '../helpers/redis.ts';

export interface TestIntake extends IntakeContext {
  keys: RedisKeys;
  queues: Queues;
  dir: string;
  close(): Promise<void>;
}

export function testConfig(dir: string, env: Record<string, string> = {}): Config {
  return loadConfig({ RFQ_SYNC_DIR: dir, REDIS_PREFIX: freshPrefix(), FILE_STABLE_MS: '300', HTTP_PORT: '0', ...env });
}

export function tempDir(): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'rfq-inbox-'));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export function testIntake(redisUrl: string, config: Config): TestIntake {
  const redis = new Redis(redisOptionsFromUrl(redisUrl));
  redis.on('error', () => undefined); // a test may stop Redis: commands report it, the connection retries
  const keys = redisKeys(config.REDIS_PREFIX, config.account);
  const queues = createQueues(
    { ...redisOptionsFromUrl(redisUrl), maxRetriesPerRequest: null } as never,
    bullPrefix(config.REDIS_PREFIX, config.account),
    { attempts: 3, backoffMs: 50 },
  );
  return {
    config,
    logger: silentLogger,
    redis,
    keys,
    queues,
    dir: config.folders.root,
    async close() {
      await queues.close();
      await redis.quit();
    },
  };
}

export async function waitFor<T>(
  what: string,
  fn: () => Promise<T | undefined | false> | T | undefined | false,
  timeoutMs = 15_000,
  everyMs = 50,
): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** The Note lines of a report's Summary sheet (ingest report and duplicate/refusal report alike). */
export async function reportNotes(path: string): Promise<string[]> {
  const { default: ExcelJS } = await import('exceljs');
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(path);
  const notes: string[] = [];
  wb.getWorksheet('Summary')?.eachRow((row) => {
    if (row.getCell(1).text === 'Note') notes.push(row.getCell(2).text);
  });
  return notes;
}

export const GENERIC_HEADER =
  'Requisition,Line,Item,Specification,UoM,Qty,Estimated Total,Title,Description,Due Date,Required Date,RFQ Type,Category,Location';

/** One requisition in the generic template: `lines` lines, external_ids `${pr}-1`..`${pr}-n`. */
export function genericRows(pr: string, lines: number, title = `Requisition ${pr}`): string {
  let out = '';
  for (let i = 1; i <= lines; i++)
    out += `${pr},${i},Item ${pr}/${i},Spec ${i},pc,${i * 2},${i * 100},${title},Test,2031-01-15,2031-02-15,Public,Tests,Plant 1\n`;
  return out;
}

export function genericCsv(...requisitions: Array<[pr: string, lines: number]>): string {
  return `${GENERIC_HEADER}\n${requisitions.map(([pr, n]) => genericRows(pr, n)).join('')}`;
}
