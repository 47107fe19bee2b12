/**
 * An inbox file whose name holds backslashes (`x\..\..\..\windows-traversal.csv`: one plain name on Linux and NFS)
 * is taken and read like any other, under processing/archive names without a backslash, never leaves the data
 * folders, and its report names it as it was dropped. Before, the inbox never took it: it sat there forever.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Job } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { processIngest } from '../../jobs/ingest.ts';
import { isInboxCandidate, newProcessingName, reportFileName } from '../../src/intake/file-mover.ts';
import { ingestJobPayloadSchema } from '../../src/queues/ingest.ts';

import { useRedis } from '../helpers/redis.ts';
import { genericCsv } from '../helpers/fixtures.ts';
import { ls } from '../helpers/files.ts';
import { useIntakes } from '../helpers/intake.ts';
import { waitFor } from '../helpers/wait.ts';
import { isPlainName, parseProcessingName } from '../../src/queues/processing-name.ts';

const r = useRedis();
const NAME = 'x\\..\\..\\..\\windows-traversal.csv';

const intakes = useIntakes(() => r.url);

describe('inbox names holding backslashes', () => {
  it('are taken under a processing name without backslash that reads back to the original name', () => {
    expect(isInboxCandidate(NAME)).toBe(true);
    for (const original of [NAME, 'a\\b 100%.csv', '%5C\\%25.xlsx']) {
      const p = newProcessingName(original, Date.UTC(2026, 10, 22, 3, 0, 0));
      expect(isPlainName(p.name)).toBe(true);
      expect(p.name).not.toContain('\\');
      expect(p.original).toBe(original);
      expect(parseProcessingName(p.name)?.original).toBe(original);
      expect(reportFileName(p, 'ab'.repeat(32))).not.toMatch(/[/\\]/);
    }
    // Plain names keep the form they always had (files already in processing/ still parse the same).
    expect(newProcessingName('100%5C.csv').name).toMatch(/^\d{8}T\d{6}Z-[0-9a-f]{6}_100%5C\.csv$/);
    expect(parseProcessingName('20261122T030000Z-abcdef_100%5C.csv')?.original).toBe('100%5C.csv');
    // Very long: shortened, still without backslash, still decoding to a prefix of the name, extension kept.
    const long = newProcessingName(`${'a\\'.repeat(200)}.csv`);
    expect(Buffer.byteLength(long.name)).toBeLessThanOrEqual(255);
    expect(long.name).not.toContain('\\');
    expect(long.original.endsWith('.csv')).toBe(true);
    expect(`${'a\\'.repeat(200)}.csv`.startsWith(long.original.slice(0, -4))).toBe(true);
    for (const bad of ['a/b.csv', '..', '.', '', 'x\u0000.csv']) expect(isInboxCandidate(bad), bad).toBe(false);
  });

  it(
    'a dropped file is taken, read and archived with a report naming it; nothing lands outside the data folders',
    { timeout: 30_000 },
    async () => {
      const ctx = intakes.open();
      const { inbox, processing, archive, failed, reports } = ctx.config.folders;
      mkdirSync(inbox, { recursive: true });
      writeFileSync(join(inbox, NAME), genericCsv(['PR-BS', 2]));
      await intakes.watch(ctx, { schedule: false });

      const job = await waitFor(
        'the ingest job',
        async () => (await ctx.queues.ingest.getJobs(['waiting', 'delayed', 'prioritized']))[0],
      );
      const payload = ingestJobPayloadSchema.parse(job.data);
      expect(ls(inbox)).toEqual([]);
      expect(ls(processing)).toEqual([payload.processingName]);
      expect(payload.processingName).not.toContain('\\');

      const result = await processIngest(ctx, (await Job.fromId(ctx.queues.ingest, job.id!))!);
      expect(result).toMatchObject({ status: 'done', file: NAME, requisitions: 1 });
      expect(ls(archive)).toEqual([payload.processingName]);
      expect(ls(failed)).toEqual([]);
      expect(ls(reports)).toHaveLength(1);
      expect(ls(reports)[0]).not.toMatch(/[/\\]/);
      expect(
        ls(ctx.dir).filter(
          (n) => !['inbox', 'processing', 'archive', 'failed', 'outbox', 'reports', 'state'].includes(n),
        ),
      ).toEqual([]);
    },
  );
});
