/**
 * The same bytes dropped twice while the first drop is still being read: the second is left alone until the first
 * is finished. Before, it was archived at once as a "duplicate" of a file that was then refused (empty.csv +
 * empty.xlsx): a file never read sat in archive/ with a report saying it had been.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Job } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { processIngest } from '../../jobs/ingest.ts';
import { ingestOneFile, recoverProcessing, type AdmitResult } from '../../src/intake/inbox-intake.ts';
import { FileLedger } from '../../src/intake/file-ledger.ts';
import { useRedis } from '../helpers/redis.ts';
import { ledgerClaims } from '../helpers/monitor.ts';
import { genericCsv } from '../helpers/fixtures.ts';
import { ls, reportNotes } from '../helpers/files.ts';
import { type TestIntake, useIntakes } from '../helpers/intake.ts';
import { waitFor } from '../helpers/wait.ts';

const r = useRedis();

const intakes = useIntakes(() => r.url);

function setup(): TestIntake {
  const ctx = intakes.open();
  mkdirSync(join(ctx.dir, 'drop'), { recursive: true });
  return ctx;
}

function drop(ctx: TestIntake, name: string, content: string, waitForFirstMs?: number): Promise<AdmitResult> {
  const path = join(ctx.dir, 'drop', name);
  writeFileSync(path, content);
  return ingestOneFile(ctx, path, waitForFirstMs === undefined ? {} : { waitForFirstMs });
}

async function runJob(ctx: TestIntake, a: AdmitResult) {
  if (a.status !== 'enqueued') throw new Error(`not enqueued: ${a.status}`);
  return processIngest(ctx, (await Job.fromId(ctx.queues.ingest, a.jobId))!);
}

describe('a copy of a file still being read', () => {
  it(
    'empty.csv and empty.xlsx together: the second waits, then is read on its own and refused for its own reason',
    { timeout: 30_000 },
    async () => {
      const ctx = setup();
      const { processing, archive, failed } = ctx.config.folders;
      const first = await drop(ctx, 'empty.csv', '');
      const asks = await ledgerClaims(r.url, 'empty.xlsx');
      const second = drop(ctx, 'empty.xlsx', '');
      await waitFor('the copy found the first still being read, twice', () => asks.count() >= 2);
      asks.stop();
      // Still untouched in processing/ while the first is not finished: not archived, no job.
      expect(ls(archive)).toEqual([]);
      expect(ls(processing)).toHaveLength(2);
      expect(await ctx.queues.ingest.count()).toBe(1);

      expect(await runJob(ctx, first)).toMatchObject({ status: 'refused', file: 'empty.csv' });
      const again = await second;
      expect(again.status).toBe('enqueued');
      expect(await runJob(ctx, again)).toMatchObject({ status: 'refused', file: 'empty.xlsx' });
      expect(ls(archive)).toEqual([]);
      expect(ls(failed)).toHaveLength(2);
      expect(ls(processing)).toEqual([]);
    },
  );

  it(
    'a copy of a file that is then archived is a duplicate naming it (nothing created twice)',
    { timeout: 30_000 },
    async () => {
      const ctx = setup();
      const { processing, archive, reports } = ctx.config.folders;
      const csv = genericCsv(['PR-TWIN', 2]);
      const first = await drop(ctx, 'twin-a.csv', csv);
      const asks = await ledgerClaims(r.url, 'twin-b.csv');
      const second = drop(ctx, 'twin-b.csv', csv);
      await waitFor('the copy found the first still being read, twice', () => asks.count() >= 2);
      asks.stop();
      expect(ls(archive)).toEqual([]);
      expect(await runJob(ctx, first)).toMatchObject({ status: 'done', file: 'twin-a.csv', requisitions: 1 });
      const dup = await second;
      expect(dup.status).toBe('duplicate');
      if (dup.status !== 'duplicate') return;
      expect(ls(archive)).toHaveLength(2);
      expect(ls(processing)).toEqual([]);
      expect((await reportNotes(join(reports, dup.report))).join(' ')).toMatch(
        /same bytes .* "twin-a\.csv" .* and was processed/,
      );
      expect(await ctx.queues.createRfq.count()).toBe(1);
    },
  );

  it(
    'a copy whose first is not finished in time stays in processing/; the sweep reads it once the first was refused',
    { timeout: 30_000 },
    async () => {
      const ctx = setup();
      const { processing, archive, failed } = ctx.config.folders;
      const first = await drop(ctx, 'broken.csv', 'garbage\u0000\u0001');
      const second = await drop(ctx, 'broken-copy.csv', 'garbage\u0000\u0001', 300);
      expect(second.status).toBe('waiting');
      expect(ls(processing)).toHaveLength(2);
      // A sweep meanwhile changes nothing.
      expect((await recoverProcessing(ctx)).map((x) => x.status).sort()).toEqual(['enqueued', 'waiting']);
      expect(ls(archive)).toEqual([]);

      expect(await runJob(ctx, first)).toMatchObject({ status: 'refused' });
      expect(
        await new FileLedger(ctx.redis, ctx.keys.fileLedger).get(second.status === 'waiting' ? second.sha256 : ''),
      ).toBeUndefined();
      const swept = await recoverProcessing(ctx);
      expect(swept.map((x) => x.status)).toEqual(['enqueued']);
      expect(await runJob(ctx, swept[0]!)).toMatchObject({ status: 'refused', file: 'broken-copy.csv' });
      expect(ls(failed)).toHaveLength(2);
      expect(ls(archive)).toEqual([]);
    },
  );
});
