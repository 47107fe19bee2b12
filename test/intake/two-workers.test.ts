/**
 * Proof 4 (docs/architecture.md#proofs-the-tests-run): two workers on the same queues and the same inbox, the same file
 * dropped twice (two names at once, then the same name again later) and the same requisition in two files; real Redis,
 * the sandbox over HTTP. Result: exactly one RFQ per requisition, every external_id once, every dropped file archived
 * with a report, nothing left in processing/. In both dialects of the service.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startWorker } from '../../jobs/worker.ts';
import { silentLogger } from '../../src/core/logger.ts';
import { closeWorkerContext, createWorkerContext, type AppContext } from '../../app/runtime/worker-context.ts';
import { FileLedger } from '../../src/intake/file-ledger.ts';
import { startInboxWatcher } from '../../src/intake/inbox-watcher.ts';
import { useRedis } from '../helpers/redis.ts';
import { useSandbox } from '../helpers/sandbox.ts';
import { genericCsv, genericRows } from '../helpers/fixtures.ts';
import { ls, reportNotes } from '../helpers/files.ts';
import { testConfig } from '../helpers/intake.ts';
import { waitFor } from '../helpers/wait.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const r = useRedis();
const sandboxes = { friendly: useSandbox(), docs: useSandbox({ dialect: 'docs' }) };
const dir = tempDir('rfq-inbox-');

async function idle(ctx: AppContext): Promise<boolean> {
  for (const q of [ctx.queues.ingest, ctx.queues.createRfq]) {
    const c = await q.getJobCounts('waiting', 'active', 'delayed', 'prioritized', 'waiting-children');
    if (Object.values(c).some((n) => n > 0)) return false;
  }
  return true;
}

describe('proof 4: two workers, one inbox', () => {
  it.each(['friendly', 'docs'] as const)(
    '%s dialect: the same file twice and the same requisition in two files make exactly one RFQ per requisition',
    { timeout: 120_000 },
    async (dialect) => {
      const s = sandboxes[dialect];
      const config = testConfig(join(dir, dialect), {
        SOURCING_BASE_URL: s.url,
        SOURCING_TOKEN: s.token,
        FILE_STABLE_MS: '300',
        SWEEP_CRON: '* * * * * *',
        CONCURRENCY_INGEST: '2',
        CONCURRENCY_CREATE: '4',
        RATE_LIMIT_PER_SECOND: '1000',
        JOB_BACKOFF_MS: '100',
      });
      const { inbox, processing, archive, failed, reports } = config.folders;
      mkdirSync(inbox, { recursive: true });
      const rfqsBefore = s.sandbox.control.listAll().length;

      const contexts: AppContext[] = [];
      const admitted: Array<Array<{ worker: number; status: string; file: string }>> = [[], []];
      const stops: Array<() => Promise<void>> = [];
      try {
        for (let i = 0; i < 2; i++) {
          const ctx = await createWorkerContext(config, silentLogger, {
            redisUrl: r.url,
            baseUrl: s.url,
            token: () => s.token,
          });
          contexts.push(ctx);
          const worker = await startWorker(ctx);
          const watcher = await startInboxWatcher(ctx, {
            onAdmitted: (a) => admitted[i]!.push({ worker: i, status: a.status, file: a.file.original }),
          });
          stops.push(async () => {
            await watcher.close();
            await worker.close();
          });
        }
        const [ctx] = contexts as [AppContext];

        // PR-SHARED is in both files, the same: one requisition, so one RFQ (and one create-rfq job id).
        // PR-TWICE is in both files with another title (a later re-export): two create-rfq jobs, which may run at
        // once on the two workers; the idempotency records still allow one RFQ.
        const fileA =
          genericCsv(['PR-4001', 2], ['PR-4002', 3], ['PR-SHARED', 2]) +
          genericRows('PR-TWICE', 2, 'Requisition PR-TWICE');
        const fileB =
          genericCsv(['PR-4003', 1], ['PR-SHARED', 2]) +
          genericRows('PR-TWICE', 2, 'Requisition PR-TWICE, exported again');
        writeFileSync(join(inbox, 'export-a.csv'), fileA);
        writeFileSync(join(inbox, 'export-a (copy).csv'), fileA);
        writeFileSync(join(inbox, 'export-b.csv'), fileB);

        await waitFor(
          'the first three files to be processed',
          async () => ls(archive).length === 3 && ls(processing).length === 0 && (await idle(ctx)),
          60_000,
          100,
        );
        // Later, the same name with the same bytes again.
        writeFileSync(join(inbox, 'export-a.csv'), fileA);
        await waitFor(
          'the fourth file',
          async () => ls(archive).length === 4 && ls(processing).length === 0 && (await idle(ctx)),
          60_000,
          100,
        );

        const rfqs = s.sandbox.control.listAll().slice(rfqsBefore);
        const externalIds = rfqs.flatMap((x) => x.lines.map((l) => l.external_id)).sort();
        const expected = [
          'PR-4001-1',
          'PR-4001-2',
          'PR-4002-1',
          'PR-4002-2',
          'PR-4002-3',
          'PR-4003-1',
          'PR-SHARED-1',
          'PR-SHARED-2',
          'PR-TWICE-1',
          'PR-TWICE-2',
        ];
        expect(rfqs).toHaveLength(5);
        expect(externalIds).toEqual(expected);
        expect(rfqs.map((x) => x.title.replace(/, exported again$/, '')).sort()).toEqual([
          'Requisition PR-4001',
          'Requisition PR-4002',
          'Requisition PR-4003',
          'Requisition PR-SHARED',
          'Requisition PR-TWICE',
        ]);

        expect(ls(inbox)).toEqual([]);
        expect(ls(processing)).toEqual([]);
        expect(ls(failed)).toEqual([]);
        const archived = ls(archive)
          .map((n) => n.replace(/^.*?_/, ''))
          .sort();
        expect(archived).toEqual(['export-a (copy).csv', 'export-a.csv', 'export-a.csv', 'export-b.csv']);
        const reportFiles = ls(reports);
        expect(reportFiles).toHaveLength(4);
        const notes = await Promise.all(reportFiles.map((f) => reportNotes(join(reports, f))));
        const duplicates = notes.filter((n) => n.some((x) => x.startsWith('Duplicate file')));
        expect(duplicates).toHaveLength(2); // one of the two names dropped at once, and the later drop
        for (const d of duplicates) expect(d.join(' ')).toMatch(/dropped as "export-a( \(copy\))?\.csv" at \d{4}-/);

        // Every drop was taken by exactly one of the two watchers (the rename decides): 2 ingested, 2 duplicates.
        const all = admitted.flat();
        expect(all.map((a) => a.status).sort()).toEqual(['duplicate', 'duplicate', 'enqueued', 'enqueued']);
        console.info(
          `proof 4 (${dialect}): files taken per worker: ${admitted.map((a, i) => `worker ${i + 1}: ${a.map((x) => `${x.file} (${x.status})`).join(', ') || 'none'}`).join('; ')}`,
        );

        for (const q of [ctx.queues.ingest, ctx.queues.createRfq])
          expect(await q.getJobCounts('failed')).toEqual({ failed: 0 });
        const ledger = new FileLedger(ctx.redis, ctx.keys.fileLedger);
        const entries = await ctx.redis.hgetall(ctx.keys.fileLedger);
        expect(Object.keys(entries)).toHaveLength(2);
        for (const sha of Object.keys(entries)) expect(await ledger.get(sha)).toMatchObject({ state: 'done' });
      } finally {
        for (const stop of stops) await stop();
        for (const ctx of contexts) await closeWorkerContext(ctx);
      }
    },
  );
});
