/**
 * The inbox as an attacker or a careless writer fills it: a symbolic link to a file outside
 * the data folders, a file nobody may read, files dropped while Redis is down, a file still being written when taken
 * (empty, or appended after), a stranger's file in processing/. Each is refused with a report, waits, or is taken
 * again; nothing outside the folders is read, nothing is lost, start-up never stops on one file.
 */
import { spawn } from 'node:child_process';
import {
  appendFileSync,
  chmodSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { Job } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { processIngest } from '../../jobs/ingest.ts';
import { createLogger } from '../../src/core/logger.ts';
import { newProcessingName } from '../../src/intake/file-mover.ts';
import { FileLedger } from '../../src/intake/file-ledger.ts';
import { ingestOneFile, recoverProcessing } from '../../src/intake/inbox-intake.ts';

import { startEmbeddedRedis, type EmbeddedRedis } from '../../src/redis/embedded-redis.ts';
import { freshPrefix } from '../helpers/redis.ts';
import { BIN } from '../helpers/cli.ts';
import { genericCsv, genericRows } from '../helpers/fixtures.ts';
import { ls, reportNotes } from '../helpers/files.ts';
import { sleep, waitFor } from '../helpers/wait.ts';
import { useIntakes } from '../helpers/intake.ts';
import { usePipeline } from '../helpers/pipeline.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const pipeline = usePipeline();

const intakes = useIntakes(() => pipeline.redisUrl);
const { cleanups } = intakes;

const { open: setup, watch } = intakes;

describe('a hostile inbox', () => {
  it('a symbolic link to a file outside the data folders is never followed: the link goes to failed/ with a report', async () => {
    const ctx = setup();
    const outside = join(ctx.dir, '..', `outside-${freshPrefix()}.csv`);
    writeFileSync(outside, genericCsv(['PR-SECRET', 2]));
    cleanups.push(() => rmSync(outside, { force: true }));
    const { inbox, failed, reports } = ctx.config.folders;
    mkdirSync(inbox, { recursive: true });
    symlinkSync(outside, join(inbox, 'payroll.csv'));
    const w = await watch(ctx, { schedule: false });
    await w.sweep();

    await waitFor('the link in failed/', () => ls(failed).length === 1);
    const [moved] = ls(failed);
    expect(moved).toMatch(/_payroll\.csv$/);
    expect(readdirSync(failed, { withFileTypes: true })[0]!.isSymbolicLink()).toBe(true); // the link itself moved
    expect(readFileSync(outside, 'utf8')).toContain('PR-SECRET'); // the target untouched
    expect(await ctx.queues.ingest.count()).toBe(0); // nothing read, nothing queued
    const notes = await reportNotes(join(reports, ls(reports)[0]!));
    expect(notes.join(' ')).toMatch(/not read: it is a symbolic link: links in the inbox are never followed/);

    // a link already in processing/ (a crash, or put there by hand) is refused at start as well
    const planted = newProcessingName('planted.csv', Date.now());
    symlinkSync(outside, join(ctx.config.folders.processing, planted.name));
    const res = await recoverProcessing(ctx, { minAgeMs: 0 });
    expect(res).toMatchObject([{ status: 'refused', reason: expect.stringMatching(/symbolic link/) }]);
    expect(ls(failed)).toHaveLength(2);
    expect(await ctx.queues.ingest.count()).toBe(0);
  });

  it('a file changed after it was taken (appended) is not used: back to the inbox, its bytes released, nothing queued', async () => {
    const ctx = setup();
    const drop = join(ctx.dir, 'export.csv');
    writeFileSync(drop, genericCsv(['PR-7001', 2]));
    const a = await ingestOneFile(ctx, drop, { move: true });
    if (a.status !== 'enqueued') throw new Error(a.status);
    // the ERP writes on after the take
    appendFileSync(join(ctx.config.folders.processing, a.file.name), genericRows('PR-7002', 3));
    const out = await processIngest(ctx, (await Job.fromId(ctx.queues.ingest, a.jobId))!);
    expect(out).toMatchObject({ status: 'changed', file: 'export.csv', inboxName: 'export.csv' });
    expect(ls(ctx.config.folders.inbox)).toEqual(['export.csv']);
    expect(ls(ctx.config.folders.processing).filter((n) => !n.startsWith('.'))).toEqual([]);
    expect(await ctx.queues.createRfq.count()).toBe(0);
    expect(await new FileLedger(ctx.redis, ctx.keys.fileLedger).get(a.sha256)).toBeUndefined();
    // taken again, whole: every line of both requisitions is read
    const again = await ingestOneFile(ctx, join(ctx.config.folders.inbox, 'export.csv'), { move: true });
    if (again.status !== 'enqueued') throw new Error(again.status);
    const done = await processIngest(ctx, (await Job.fromId(ctx.queues.ingest, again.jobId))!);
    expect(done).toMatchObject({ status: 'done', requisitions: 2 });
  });

  it(
    'an empty file still being written is not taken at 0 bytes; once written it is read whole',
    { timeout: 30_000 },
    async () => {
      const ctx = setup({ FILE_STABLE_MS: '200' });
      const { inbox, processing } = ctx.config.folders;
      mkdirSync(inbox, { recursive: true });
      const admitted: string[] = [];
      const w = await watch(ctx, { schedule: false, onAdmitted: (a) => admitted.push(a.status) });
      writeFileSync(join(inbox, 'slow-export.csv'), '');
      void w.sweep();
      await sleep(1_000); // sleep: 5x FILE_STABLE_MS: a non-empty file would have been taken by now (time is tested)
      expect(ls(inbox)).toEqual(['slow-export.csv']);
      expect(ls(processing)).toEqual([]);
      writeFileSync(join(inbox, 'slow-export.csv'), genericCsv(['PR-7101', 1]));
      await waitFor('taken and queued', () => admitted.includes('enqueued'), 10_000);
      const [job] = await ctx.queues.ingest.getJobs(['waiting']);
      expect(job!.data.size).toBeGreaterThan(0);
    },
  );

  it(
    'files dropped while Redis is down are queued within one sweep once it answers (not after 10 minutes)',
    { timeout: 40_000 },
    async () => {
      const own: EmbeddedRedis = await startEmbeddedRedis({ appendonly: true });
      cleanups.push(() => own.stop());
      const ctx = setup({ SWEEP_CRON: '* * * * * *' }, own.url);
      const { inbox, processing } = ctx.config.folders;
      mkdirSync(inbox, { recursive: true });
      const lines: string[] = [];
      ctx.logger = createLogger({
        level: 'info',
        pretty: false,
        destination: new Writable({ write: (c, _e, cb) => (lines.push(String(c)), cb()) }),
      });
      await watch(ctx);
      await own.stop();
      writeFileSync(join(inbox, 'during-outage.csv'), genericCsv(['PR-7201', 1]));
      await waitFor(
        'taken into processing/',
        () => ls(processing).some((n) => n.endsWith('_during-outage.csv')),
        10_000,
      );
      await waitFor('its admission failed: Redis is down', () =>
        lines.some((l) => l.includes('during-outage.csv was taken but could not be queued')),
      );
      await own.restart();
      const back = Date.now();
      await waitFor(
        'queued after Redis is back',
        async () => (await ctx.queues.ingest.count().catch(() => 0)) === 1,
        15_000,
        100,
      );
      expect(Date.now() - back).toBeLessThan(10_000);
    },
  );

  it('a stranger in processing/ is warned about once, not at every sweep', async () => {
    const ctx = setup();
    mkdirSync(ctx.config.folders.processing, { recursive: true });
    writeFileSync(join(ctx.config.folders.processing, 'notes-from-it.txt'), 'hello');
    const lines: string[] = [];
    ctx.logger = createLogger({
      level: 'info',
      pretty: false,
      destination: new Writable({ write: (c, _e, cb) => (lines.push(String(c)), cb()) }),
    });
    const warned = new Set<string>();
    for (let i = 0; i < 3; i++) await recoverProcessing(ctx, { minAgeMs: 0, warned });
    expect(lines.filter((l) => l.includes('was not put there by rfq-sync'))).toHaveLength(1);
  });
});

describe('a file nobody may read, left in processing/', () => {
  it(
    'is refused to failed/ with a report; the worker starts and takes the other files',
    { timeout: 60_000 },
    async () => {
      const dir = tempDir('rfq-inbox-');
      const processing = join(dir, 'processing');
      mkdirSync(processing, { recursive: true });
      const locked = newProcessingName('locked.csv', Date.now() - 60_000);
      writeFileSync(join(processing, locked.name), genericCsv(['PR-7301', 1]));
      chmodSync(join(processing, locked.name), 0o000);
      const good = newProcessingName('good.csv', Date.now() - 60_000);
      writeFileSync(join(processing, good.name), genericCsv(['PR-7302', 2]));
      // root reads anything: the worker runs without the capabilities that bypass file permissions
      const asRoot = process.getuid?.() === 0;
      const cmd = asRoot ? 'setpriv' : process.execPath;
      const args = [
        ...(asRoot ? ['--bounding-set=-dac_override,-dac_read_search', process.execPath] : []),
        BIN,
        'worker',
      ];
      const env = {
        PATH: process.env.PATH ?? '',
        REDIS_URL: pipeline.redisUrl,
        REDIS_PREFIX: freshPrefix(),
        SOURCING_BASE_URL: pipeline.sandboxUrl,
        SOURCING_TOKEN: pipeline.token,
        RFQ_SYNC_DIR: dir,
        HTTP_PORT: '0',
        FILE_STABLE_MS: '200',
        LOG_LEVEL: 'info',
      };
      const child = spawn(cmd, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr.on('data', (d: Buffer) => (out += d.toString()));
      cleanups.push(() => void child.kill('SIGKILL'));
      await waitFor(
        'locked refused, good archived',
        () => ls(join(dir, 'failed')).includes(locked.name) && ls(join(dir, 'archive')).includes(good.name),
        40_000,
        100,
      ).catch((err: Error) => {
        throw new Error(`${err.message}; worker said:\n${out.slice(-3000)}`);
      });
      expect(child.exitCode, out.slice(-2000)).toBeNull(); // still running
      const reports = ls(join(dir, 'outbox', 'reports'));
      const notes = await Promise.all(reports.map((f) => reportNotes(join(dir, 'outbox', 'reports', f))));
      expect(notes.flat().join(' ')).toMatch(/locked\.csv|cannot be read \(EACCES: permission denied\)/);
      expect(notes.flat().join(' ')).toMatch(/cannot be read \(EACCES: permission denied\)/);
      await waitFor(
        'the good file created',
        () => pipeline.sandbox.control.listAll().some((x) => x.lines.some((l) => l.external_id === 'PR-7302-1')),
        20_000,
        100,
      );
    },
  );
});
