/**
 * The watched inbox against real Redis and the real file system: what IT relies on when dropping files.
 * (No ingest worker runs here: the tests look at the ingest jobs the watcher enqueues.)
 */
import { createHash } from 'node:crypto';
import { appendFileSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileLedger } from '../../src/intake/file-ledger.ts';
import { newProcessingName } from '../../src/intake/file-mover.ts';
import { ingestJobPayloadSchema } from '../../src/queues/ingest.ts';

import { ledgerClaims } from '../helpers/monitor.ts';
import { useRedis } from '../helpers/redis.ts';
import { ls, reportNotes } from '../helpers/files.ts';
import { sleep, waitFor } from '../helpers/wait.ts';
import { testConfig, type TestIntake, testIntake, useIntakes } from '../helpers/intake.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const r = useRedis();
const sha = (s: string | Buffer) => createHash('sha256').update(s).digest('hex');

const intakes = useIntakes(() => r.url);
const { cleanups } = intakes;

function setup(env: Record<string, string> = {}): TestIntake {
  const ctx = intakes.open(env);
  mkdirSync(ctx.config.folders.inbox, { recursive: true });
  return ctx;
}

const start = intakes.watch;

async function ingestJobs(ctx: TestIntake) {
  const jobs = await ctx.queues.ingest.getJobs(['waiting', 'delayed', 'active', 'completed', 'failed', 'prioritized']);
  return jobs.map((j) => ({ id: j.id, data: ingestJobPayloadSchema.parse(j.data) }));
}

describe('inbox watcher', () => {
  it('does not take a file that is still growing; takes it whole once size and mtime stayed put for FILE_STABLE_MS', async () => {
    const ctx = setup({ FILE_STABLE_MS: '1000' });
    await start(ctx, { schedule: false });
    const path = join(ctx.config.folders.inbox, 'growing.csv');
    let content = 'pr,item,product,qty\n';
    writeFileSync(path, content);
    for (let i = 0; i < 15; i++) {
      await sleep(100);
      const line = `PR-1,${i},Widget ${i},${i + 1}\n`;
      appendFileSync(path, line);
      content += line;
    }
    // The writer stopped just now: the file cannot be taken before FILE_STABLE_MS have passed.
    await sleep(400); // sleep: less than FILE_STABLE_MS (1 s) after the last write: time is what is tested
    expect(ls(ctx.config.folders.inbox)).toEqual(['growing.csv']);
    expect(await ingestJobs(ctx)).toEqual([]);

    const jobs = await waitFor('the ingest job', async () => {
      const j = await ingestJobs(ctx);
      return j.length > 0 && j;
    });
    expect(jobs).toHaveLength(1);
    expect(jobs[0]!.data.sha256).toBe(sha(content)); // taken whole, not a prefix
    expect(ls(ctx.config.folders.inbox)).toEqual([]);
    expect(ls(ctx.config.folders.processing)).toEqual([jobs[0]!.data.processingName]);
    expect(jobs[0]!.data.processingName.endsWith('_growing.csv')).toBe(true);
  });

  it('ignores Office/LibreOffice lock files, partial downloads, dotfiles and subfolders', async () => {
    const ctx = setup({ FILE_STABLE_MS: '100' });
    const inbox = ctx.config.folders.inbox;
    const junk = [
      '~$orders.xlsx',
      'orders.csv.tmp',
      'orders.csv.part',
      'big.xlsx.crdownload',
      '.~lock.orders.xlsx#',
      '.hidden.csv',
    ];
    for (const n of junk) writeFileSync(join(inbox, n), 'x');
    mkdirSync(join(inbox, 'sub'));
    writeFileSync(join(inbox, 'sub', 'nested.csv'), 'a,b\n1,2\n');
    const w = await start(ctx, { schedule: false });
    // Dropped while watching, too (the event path).
    writeFileSync(join(inbox, '~$later.xlsx'), 'x');
    writeFileSync(join(inbox, 'real.csv'), 'a,b\n1,2\n');
    await waitFor('real.csv taken', () => !ls(inbox).includes('real.csv'));
    await w.sweep();
    // sleep: chokidar's event for ~$later.xlsx may come after the sweep, and an ignored file leaves no trace to wait on
    await sleep(300);
    expect(ls(inbox)).toEqual([...junk, '~$later.xlsx', 'sub'].sort());
    expect(ls(join(inbox, 'sub'))).toEqual(['nested.csv']);
    const jobs = await ingestJobs(ctx);
    expect(jobs.map((j) => j.data.processingName.replace(/^.*?_/, ''))).toEqual(['real.csv']);
  });

  it('takes files that were already in the inbox at start (sweep, no file events)', async () => {
    const ctx = setup({ FILE_STABLE_MS: '100' });
    const inbox = ctx.config.folders.inbox;
    writeFileSync(join(inbox, 'a.csv'), 'x,y\n1,2\n');
    writeFileSync(join(inbox, 'b.csv'), 'x,y\n3,4\n');
    const w = await start(ctx, { watch: false, schedule: false });
    await w.sweep();
    expect(ls(inbox)).toEqual([]);
    const jobs = await ingestJobs(ctx);
    expect(jobs.map((j) => j.data.sha256).sort()).toEqual([sha('x,y\n1,2\n'), sha('x,y\n3,4\n')].sort());
    expect(ls(ctx.config.folders.processing)).toHaveLength(2);
  });

  it('archives the same bytes dropped again with a "duplicate file" report naming the first file, and queues nothing', async () => {
    const ctx = setup({ FILE_STABLE_MS: '100' });
    const { inbox, archive, reports } = ctx.config.folders;
    const bytes = 'pr,item\nPR-9,1\n';
    writeFileSync(join(inbox, 'first.csv'), bytes);
    const w = await start(ctx, { watch: false, schedule: false });
    await w.sweep();
    const [first] = await ingestJobs(ctx);
    expect(first).toBeDefined();
    // Before the first was processed: a copy under another name is left alone until the first is finished (it
    // might yet be refused, and the copy read on its own).
    const asks = await ledgerClaims(r.url, 'copy of first.csv');
    writeFileSync(join(inbox, 'copy of first.csv'), bytes);
    const sweeping = w.sweep();
    await waitFor('the copy found the first still being read, twice', () => asks.count() >= 2);
    asks.stop();
    expect(ls(archive)).toEqual([]);
    expect(ls(ctx.config.folders.processing)).toHaveLength(2);
    await new FileLedger(ctx.redis, ctx.keys.fileLedger).markDone(first!.data.sha256, first!.data.processingName, {
      doneAt: Date.now(),
    });
    await sweeping;
    // After it was processed: the same name again.
    writeFileSync(join(inbox, 'first.csv'), bytes);
    await w.sweep();

    expect(await ingestJobs(ctx)).toHaveLength(1);
    expect(ls(inbox)).toEqual([]);
    const archived = ls(archive);
    expect(archived).toHaveLength(2);
    expect(archived.map((n) => n.replace(/^.*?_/, '')).sort()).toEqual(['copy of first.csv', 'first.csv']);
    const reportFiles = ls(reports);
    expect(reportFiles).toHaveLength(2);
    const notes = (await Promise.all(reportFiles.map((f) => reportNotes(join(reports, f))))).flat();
    expect(notes).toHaveLength(2);
    for (const n of notes) {
      expect(n).toContain('Duplicate file');
      expect(n).toContain('"first.csv"');
      expect(n).toMatch(/at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/);
      expect(n).toContain('nothing was created');
    }
    expect(notes.every((n) => n.includes('and was processed'))).toBe(true);
  });

  it('re-admits a file left in processing/ by a crash (before or after its bytes were claimed), once', async () => {
    const ctx = setup({ FILE_STABLE_MS: '100' });
    const { processing } = ctx.config.folders;
    mkdirSync(processing, { recursive: true });
    const unclaimed = newProcessingName('crashed-before-claim.csv', Date.now() - 60_000);
    writeFileSync(join(processing, unclaimed.name), 'a\n1\n');
    const claimed = newProcessingName('crashed-after-claim.csv', Date.now() - 60_000);
    writeFileSync(join(processing, claimed.name), 'a\n2\n');
    await new FileLedger(ctx.redis, ctx.keys.fileLedger).claim(sha('a\n2\n'), {
      owner: claimed.name,
      name: claimed.original,
      seenAt: claimed.takenAt,
    });
    writeFileSync(join(processing, 'not-ours.csv'), 'a\n3\n');

    // Two workers start at once: both recover, still one job per file.
    await Promise.all([start(ctx, { watch: false, schedule: false }), start(ctx, { watch: false, schedule: false })]);
    const jobs = await ingestJobs(ctx);
    expect(jobs.map((j) => j.data.processingName).sort()).toEqual([claimed.name, unclaimed.name].sort());
    expect(ls(processing)).toEqual([claimed.name, unclaimed.name, 'not-ours.csv'].sort());
  });
});

describe('inbox watcher on network shares and missed events', () => {
  it('in polling mode (WATCH_POLLING), a file dropped while watching is taken', async () => {
    const ctx = setup({ FILE_STABLE_MS: '100', WATCH_POLLING: 'true', WATCH_INTERVAL_MS: '100' });
    await start(ctx, { schedule: false });
    writeFileSync(join(ctx.config.folders.inbox, 'share.csv'), 'a\n1\n');
    const jobs = await waitFor('the ingest job', async () => {
      const j = await ingestJobs(ctx);
      return j.length > 0 && j;
    });
    expect(jobs.map((j) => j.data.sha256)).toEqual([sha('a\n1\n')]);
  });

  it('watches an inbox reached through a symbolic link (a mounted share)', async () => {
    const dir = tempDir('rfq-inbox-');
    const real = join(dir, 'real-inbox');
    mkdirSync(real);
    symlinkSync(real, join(dir, 'inbox-link'));
    const ctx = testIntake(
      r.url,
      testConfig(dir, { INBOX_DIR: join(dir, 'inbox-link'), FILE_STABLE_MS: '100', SWEEP_CRON: '0 0 1 1 *' }),
    );
    cleanups.push(() => ctx.close());
    await start(ctx, { schedule: false });
    writeFileSync(join(real, 'linked.csv'), 'a\n3\n');
    const jobs = await waitFor('the ingest job', async () => {
      const j = await ingestJobs(ctx);
      return j.length > 0 && j;
    });
    expect(jobs.map((j) => j.data.sha256)).toEqual([sha('a\n3\n')]);
  });

  it('the SWEEP_CRON sweep takes a file no event announced', async () => {
    const ctx = setup({ FILE_STABLE_MS: '100', SWEEP_CRON: '* * * * * *' });
    await start(ctx, { watch: false });
    writeFileSync(join(ctx.config.folders.inbox, 'missed.csv'), 'a\n2\n');
    const jobs = await waitFor('the ingest job', async () => {
      const j = await ingestJobs(ctx);
      return j.length > 0 && j;
    });
    expect(jobs.map((j) => j.data.sha256)).toEqual([sha('a\n2\n')]);
  });
});

describe('inbox recovery while running', () => {
  it('a sweep re-admits a file stuck in processing/ whose ingest job was lost', async () => {
    const ctx = setup({ FILE_STABLE_MS: '100' });
    writeFileSync(join(ctx.config.folders.inbox, 'lost.csv'), 'a\n9\n');
    const w = await start(ctx, { watch: false, schedule: false, recoverAfterMs: 0 });
    await w.sweep();
    const [job] = await ctx.queues.ingest.getJobs(['waiting']);
    expect(job).toBeDefined();
    await job!.remove(); // e.g. a Redis that lost its data
    expect(await ingestJobs(ctx)).toEqual([]);
    await w.sweep();
    const jobs = await ingestJobs(ctx);
    expect(jobs.map((j) => j.id)).toEqual([job!.id]);
  });
});

describe('inbox ledger edge cases', () => {
  it('reads the bytes again when the earlier file with them vanished from processing/ before it was read', async () => {
    const ctx = setup({ FILE_STABLE_MS: '100' });
    const { inbox, processing } = ctx.config.folders;
    writeFileSync(join(inbox, 'first.csv'), 'a\n5\n');
    const w = await start(ctx, { watch: false, schedule: false, recoverAtStart: false });
    await w.sweep();
    const [first] = await ingestJobs(ctx);
    // Someone removes it by hand, and its job with it.
    rmSync(join(processing, first!.data.processingName));
    await (await ctx.queues.ingest.getJob(first!.id!))!.remove();
    writeFileSync(join(inbox, 'again.csv'), 'a\n5\n');
    await w.sweep();
    const jobs = await ingestJobs(ctx);
    expect(jobs).toHaveLength(1);
    expect(jobs[0]!.data.processingName.endsWith('_again.csv')).toBe(true);
    expect(await new FileLedger(ctx.redis, ctx.keys.fileLedger).get(sha('a\n5\n'))).toMatchObject({
      state: 'processing',
      name: 'again.csv',
    });
  });

  it('a copy that waited for the first file with its bytes is settled by the next sweep once the first is read, not after 10 minutes', async () => {
    const ctx = setup({ FILE_STABLE_MS: '200' });
    const results: string[] = [];
    const w = await start(ctx, {
      schedule: false,
      waitForFirstCopyMs: 300,
      onAdmitted: (res) => void results.push(`${res.file.original}:${res.status}`),
    });
    const bytes = 'pr,item,product,qty\nPR-7,1,Valve,2\n';
    writeFileSync(join(ctx.config.folders.inbox, 'twin-a.csv'), bytes);
    await waitFor('twin-a queued', () => results.includes('twin-a.csv:enqueued'));
    writeFileSync(join(ctx.config.folders.inbox, 'twin-b.csv'), bytes);
    // twin-a is not read yet (no ingest worker here): its copy waits, then stays in processing/
    await waitFor('twin-b waiting', () => results.includes('twin-b.csv:waiting'));
    // twin-a is read (as its ingest job would end: archived, ledger done)
    const first = ls(ctx.config.folders.processing).find((n) => n.endsWith('_twin-a.csv'))!;
    mkdirSync(ctx.config.folders.archive, { recursive: true });
    rmSync(join(ctx.config.folders.processing, first));
    writeFileSync(join(ctx.config.folders.archive, first), bytes);
    expect(
      await new FileLedger(ctx.redis, ctx.keys.fileLedger).markDone(sha(bytes), first, { doneAt: Date.now() }),
    ).toBe(true);
    await w.sweep();
    expect(results).toContain('twin-b.csv:duplicate');
    expect(ls(ctx.config.folders.processing)).toEqual([]);
    expect(ls(ctx.config.folders.archive).filter((n) => n.endsWith('_twin-b.csv'))).toHaveLength(1);
  });
});
