/**
 * A file refused part-way creates nothing: its requisitions read before the break wait in a spool and are dropped
 * with the file. Real Redis, a full worker (ingest and create-rfq queues), the sandbox over HTTP.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Job } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { startWorker } from '../../jobs/worker.ts';
import { silentLogger } from '../../src/core/logger.ts';
import { closeWorkerContext, createWorkerContext } from '../../app/runtime/worker-context.ts';
import { ingestOneFile } from '../../src/intake/inbox-intake.ts';
import { genericCsv } from '../helpers/fixtures.ts';
import { jobCounts, settled } from '../helpers/job-counts.ts';
import { ls, reportNotes } from '../helpers/files.ts';
import { testConfig } from '../helpers/intake.ts';
import { usePipeline } from '../helpers/pipeline.ts';
import { waitFor } from '../helpers/wait.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const pipeline = usePipeline();
const dir = tempDir('rfq-inbox-');

describe('a file refused part-way', () => {
  it(
    'a CSV whose first requisitions are fine and whose end breaks the parser: failed/, zero RFQs, the cause reported',
    { timeout: 60_000 },
    async () => {
      const config = testConfig(dir, {
        SOURCING_BASE_URL: pipeline.sandboxUrl,
        SOURCING_TOKEN: pipeline.token,
        RATE_LIMIT_PER_SECOND: '1000',
        JOB_BACKOFF_MS: '100',
      });
      const { processing, archive, failed, reports } = config.folders;
      const ctx = await createWorkerContext(config, silentLogger, {
        redisUrl: pipeline.redisUrl,
        baseUrl: pipeline.sandboxUrl,
        token: () => pipeline.token,
      });
      const worker = await startWorker(ctx);
      try {
        // Enough whole requisitions that many are complete (and were once enqueued) long before the parser reaches
        // the quote that is never closed on the last line.
        const good = Array.from({ length: 400 }, (_, i): [string, number] => [`PR-${5000 + i}`, 2]);
        const csv =
          genericCsv(...good) +
          'PR-9999,1,"Unclosed item,Spec,pc,1,10,T,Test,2031-01-15,2031-02-15,Public,Tests,Plant 1\n';
        mkdirSync(join(dir, 'drop'), { recursive: true });
        const path = join(dir, 'drop', 'export-broken-end.csv');
        writeFileSync(path, csv);
        const admitted = await ingestOneFile(ctx, path);
        if (admitted.status !== 'enqueued') throw new Error(`not enqueued: ${admitted.status}`);

        // State first, then the job: a job read before it completed has no return value (CI once saw null).
        const job = await waitFor(
          'the ingest job to finish',
          async () =>
            (await ctx.queues.ingest.getJobState(admitted.jobId)) === 'completed' &&
            Job.fromId(ctx.queues.ingest, admitted.jobId),
        );
        expect(job.returnvalue).toMatchObject({ status: 'refused', file: 'export-broken-end.csv' });
        expect(job.returnvalue.discardedRequisitions).toBeGreaterThan(0);
        expect(job.returnvalue.reason).toContain('Quote Not Closed');

        expect(ls(failed)).toEqual([admitted.file.name]);
        expect(ls(archive)).toEqual([]);
        expect(ls(processing)).toEqual([]); // no spool left behind
        expect(await jobCounts(ctx.queues.createRfq)).toEqual(settled(0));
        expect(pipeline.sandbox.control.listAll()).toEqual([]);

        const [report] = ls(reports);
        const notes = await reportNotes(join(reports, report!));
        expect(notes[0]).toContain('export-broken-end.csv');
        expect(notes[0]).toContain('Quote Not Closed');
        expect(notes[1]).toContain('nothing was created from it');
        expect(notes[1]).toContain(
          `${job.returnvalue.discardedRequisitions} requisition(s) complete before the point of failure were discarded`,
        );
      } finally {
        await worker.close();
        await closeWorkerContext(ctx);
      }
    },
  );
});
