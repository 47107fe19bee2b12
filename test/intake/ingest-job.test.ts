/**
 * The ingest job (jobs/ingest.ts) on real files, real Redis and the shipped mapping profiles: where each file ends
 * up, what its report says, and that a retry after a crash creates nothing twice.
 */
import { PassThrough } from 'node:stream';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Job } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { processIngest } from '../../jobs/ingest.ts';
import { ingestOneFile } from '../../src/intake/inbox-intake.ts';
import { FileLedger } from '../../src/intake/file-ledger.ts';
import { spoolPathFor } from '../../src/intake/requisition-spool.ts';
import { createLogger } from '../../src/core/logger.ts';
import { useRedis } from '../helpers/redis.ts';
import { genericCsv } from '../helpers/fixtures.ts';
import { ls, reportNotes } from '../helpers/files.ts';
import { type TestIntake, useIntakes } from '../helpers/intake.ts';

const r = useRedis();

const intakes = useIntakes(() => r.url);

function setup(): TestIntake {
  const ctx = intakes.open();
  mkdirSync(join(ctx.dir, 'drop'), { recursive: true });
  return ctx;
}

/** Submit a file as `rfq-sync ingest FILE` does, then run its ingest job here. */
async function submit(ctx: TestIntake, name: string, content: string | Buffer) {
  const path = join(ctx.dir, 'drop', name);
  writeFileSync(path, content);
  const admitted = await ingestOneFile(ctx, path);
  if (admitted.status !== 'enqueued') throw new Error(`not enqueued: ${admitted.status}`);
  const job = await Job.fromId(ctx.queues.ingest, admitted.jobId);
  if (!job) throw new Error('job not found');
  return { admitted, job, run: () => processIngest(ctx, job) };
}

const createJobs = async (ctx: TestIntake) =>
  (await ctx.queues.createRfq.getJobs(['waiting', 'delayed', 'prioritized', 'active', 'completed', 'failed']))
    .map((j) => j.id)
    .sort();

describe('ingest job', () => {
  it('reads a file, queues one create-rfq job per valid requisition, writes the report, archives the file, marks its bytes done', async () => {
    const ctx = setup();
    const badRow = 'PR-BAD,1,Bolt,M8,pc,2.5,10,Bad one,Test,2031-01-15,2031-02-15,Public,Tests,Plant 1\n';
    const { admitted, run } = await submit(ctx, 'weekly export.csv', genericCsv(['PR-A', 2], ['PR-B', 3]) + badRow);
    const result = await run();
    expect(result).toMatchObject({ status: 'done', file: 'weekly export.csv', requisitions: 2, heldRequisitions: 1 });
    expect(await createJobs(ctx)).toHaveLength(2);
    const { archive, processing, failed, reports } = ctx.config.folders;
    expect(ls(processing)).toEqual([]);
    expect(ls(failed)).toEqual([]);
    expect(ls(archive)).toEqual([admitted.file.name]);
    expect(ls(reports)).toEqual([result.status === 'done' ? result.report : '']);
    expect(result.status === 'done' && result.report.startsWith(`weekly export.${admitted.sha256.slice(0, 8)}.`)).toBe(
      true,
    );
    const ledger = await new FileLedger(ctx.redis, ctx.keys.fileLedger).get(admitted.sha256);
    expect(ledger).toMatchObject({ state: 'done', name: 'weekly export.csv', owner: admitted.file.name });
  });

  it('a file read with rejected rows is logged as a warning naming the first problem (file, row, column, value, reason) and the report', async () => {
    const ctx = setup();
    const out = new PassThrough();
    const logged: Array<Record<string, unknown>> = [];
    out.on('data', (b: Buffer) =>
      b
        .toString()
        .split('\n')
        .filter(Boolean)
        .forEach((l) => logged.push(JSON.parse(l))),
    );
    ctx.logger = createLogger({ level: 'info', destination: out, pretty: false });
    const badRow = 'PR-BAD,1,Bolt,M8,pc,2.5,10,Bad one,Test,2031-01-15,2031-02-15,Public,Tests,Plant 1\n';
    const { run } = await submit(ctx, 'weekly export.csv', genericCsv(['PR-A', 1]) + badRow);
    const result = await run();
    await new Promise((r) => setImmediate(r));
    const warn = logged.find((l) => l.level === 40);
    expect(warn?.msg).toBe(
      `ingest: file read with 1 rejected row(s), 1 requisition(s) held back, 1 queued for creation; file archived, every problem in outbox/reports/${result.status === 'done' ? result.report : ''}`,
    );
    expect(warn?.firstProblem).toBe(
      'weekly export.csv row 3, column Qty ("2.5"): qty must be a whole number (the profile names no qty_rounding rule)',
    );
  });

  it('moves an unreadable file to failed/ with a report naming the cause; not retried; the same bytes may be read again later', async () => {
    const ctx = setup();
    const ole2 = Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(2048, 1)]);
    const { admitted, run } = await submit(ctx, 'ME5A old.xls', ole2);
    const result = await run(); // resolves: a refusal is the job's result, not a failure to retry
    expect(result).toMatchObject({ status: 'refused', file: 'ME5A old.xls' });
    const { failed, processing, archive, reports } = ctx.config.folders;
    expect(ls(failed)).toEqual([admitted.file.name]);
    expect(ls(processing)).toEqual([]);
    expect(ls(archive)).toEqual([]);
    const [report] = ls(reports);
    const notes = await reportNotes(join(reports, report!));
    expect(notes[0]).toContain('ME5A old.xls');
    expect(notes[0]).toContain('old binary Excel file (.xls)');
    // Printed one page wide: the reason stands beside its label on page 1.
    const { default: ExcelJS } = await import('exceljs');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(join(reports, report!));
    expect(wb.getWorksheet('Summary')!.pageSetup).toMatchObject({ fitToPage: true, fitToWidth: 1, fitToHeight: 0 });
    expect(await createJobs(ctx)).toEqual([]);
    expect(await new FileLedger(ctx.redis, ctx.keys.fileLedger).get(admitted.sha256)).toBeUndefined();
    // Dropped again (e.g. after IT changed something): admitted again, not called a duplicate.
    const again = await submit(ctx, 'ME5A old.xls', ole2);
    expect(again.admitted.status).toBe('enqueued');
  });

  it('refuses a file no mapping profile fits, naming the closest profile and its missing columns', async () => {
    const ctx = setup();
    const { run } = await submit(ctx, 'mystery.csv', 'Foo,Bar\n1,2\n');
    const result = await run();
    expect(result.status).toBe('refused');
    const [report] = ls(ctx.config.folders.reports);
    const notes = await reportNotes(join(ctx.config.folders.reports, report!));
    expect(notes[0]).toMatch(/mystery\.csv: fits no mapping profile/);
  });

  it('a retry after a crash at any point finishes the file and creates nothing twice', async () => {
    const ctx = setup();
    const { admitted, run } = await submit(ctx, 'crashy.csv', genericCsv(['PR-C1', 1], ['PR-C2', 2]));
    // Crash after the create-rfq jobs were queued, before the report and the move: put things back as they were.
    await run();
    const { archive, processing, reports } = ctx.config.folders;
    renameSync(join(archive, admitted.file.name), join(processing, admitted.file.name));
    await ctx.redis.hset(
      ctx.keys.fileLedger,
      admitted.sha256,
      JSON.stringify({
        state: 'processing',
        owner: admitted.file.name,
        name: 'crashy.csv',
        seenAt: admitted.file.takenAt,
      }),
    );
    const second = await run();
    expect(second).toMatchObject({ status: 'done', requisitions: 2 });
    expect(await createJobs(ctx)).toHaveLength(2);
    expect(ls(archive)).toEqual([admitted.file.name]);
    expect(ls(reports)).toHaveLength(1);
    // Crash after the move, before the ledger was marked done: the retry only brings the ledger up to date.
    await ctx.redis.hset(
      ctx.keys.fileLedger,
      admitted.sha256,
      JSON.stringify({
        state: 'processing',
        owner: admitted.file.name,
        name: 'crashy.csv',
        seenAt: admitted.file.takenAt,
      }),
    );
    expect(await run()).toEqual({ status: 'already-finished', file: 'crashy.csv', where: 'archive' });
    expect(await new FileLedger(ctx.redis, ctx.keys.fileLedger).get(admitted.sha256)).toMatchObject({ state: 'done' });
    expect(await createJobs(ctx)).toHaveLength(2);
  });

  it('a spool left by a crashed attempt is replaced, not appended to: only this reading is enqueued, and the spool is gone after', async () => {
    const ctx = setup();
    const { admitted, run } = await submit(ctx, 'spooled.csv', genericCsv(['PR-S1', 1], ['PR-S2', 2]));
    const { processing } = ctx.config.folders;
    const stale = spoolPathFor(processing, admitted.file.token);
    // A requisition from an earlier reading that no longer is in the file, then a line cut short by the crash.
    const ghost = {
      key: 'PR-GHOST',
      sourceFile: 'spooled.csv',
      profile: 'generic',
      title: 'Ghost',
      due_date: 1925078400000,
      rfq_type: 'Public',
      lines: [{ external_id: 'PR-GHOST-1', product_name: 'x', qty: 1, row: 2 }],
    };
    writeFileSync(stale, `${JSON.stringify(ghost)}\n{"key":"PR-CU`);
    expect(await run()).toMatchObject({ status: 'done', requisitions: 2 });
    const jobs = await ctx.queues.createRfq.getJobs([
      'waiting',
      'delayed',
      'prioritized',
      'active',
      'completed',
      'failed',
    ]);
    expect(jobs.map((j) => (j.data as { requisition: { key: string } }).requisition.key).sort()).toEqual([
      'PR-S1',
      'PR-S2',
    ]);
    expect(ls(processing)).toEqual([]);
  });

  it('rejects a payload whose file name would leave the processing folder, without retrying', async () => {
    const ctx = setup();
    const job = await ctx.queues.ingest.add(
      'ingest',
      { sha256: 'a'.repeat(64), processingName: '../../etc/passwd' },
      { jobId: 'ingest-evil' },
    );
    await expect(processIngest(ctx, job)).rejects.toMatchObject({ name: 'UnrecoverableError' });
  });
});
