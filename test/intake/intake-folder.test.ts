/**
 * One intake per data folder (issue 21): two workers of one account with different data folders lost files (a worker
 * ran the other's ingest jobs, found no file, and called it done). Here: the second folder is refused, an ingest job
 * whose file is not in this worker's processing/ fails for good (failed list, status), and a file re-admitted after
 * its job completed gets a new job. Real Redis, real BullMQ, real files.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Job, Worker } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { processIngest } from '../../jobs/ingest.ts';
import { loadConfig } from '../../src/settings/config.ts';
import { ConfigError } from '../../src/core/errors.ts';
import { FileLedger } from '../../src/intake/file-ledger.ts';
import { fileFolders, ingestOneFile, recoverProcessing } from '../../src/intake/inbox-intake.ts';
import { ensureFolders } from '../../src/intake/file-mover.ts';
import { claimIntake, readIntakeFolder } from '../../src/intake/intake-folder.ts';
import { listFailed } from '../../app/commands/failed-jobs.ts';
import { recentFailures } from '../../app/commands/status.ts';
import { runIntakeCommand } from '../../app/commands/intake.ts';
import { runIngestCommand } from '../../app/commands/ingest.ts';
import { useRedis, freshPrefix } from '../helpers/redis.ts';
import { genericCsv } from '../helpers/fixtures.ts';
import { ls } from '../helpers/files.ts';
import { type TestIntake, useIntakes } from '../helpers/intake.ts';

const r = useRedis();
const intakes = useIntakes(() => r.url);

/** Two workers of one account (one Redis namespace), each with its own data folder. */
function twoFolders(): [TestIntake, TestIntake] {
  const shared = { REDIS_PREFIX: freshPrefix(), SOURCING_ACCOUNT: 'acct' };
  return [intakes.open(shared), intakes.open(shared)];
}

async function submit(ctx: TestIntake, name: string, content: string) {
  const path = join(ctx.dir, name);
  writeFileSync(path, content);
  const admitted = await ingestOneFile(ctx, path);
  if (admitted.status !== 'enqueued') throw new Error(`not enqueued: ${admitted.status}`);
  return admitted;
}

const createJobs = (ctx: TestIntake) =>
  ctx.queues.createRfq.getJobCountByTypes('waiting', 'delayed', 'prioritized', 'active', 'completed');

describe('one intake per data folder', () => {
  it('the first folder does intake; a worker of another folder is refused naming both, one sharing the folder is not', async () => {
    const [a, b] = twoFolders();
    const claimed = await claimIntake(a);
    expect(claimed.path).toBe(a.config.folders.root);
    expect((await readIntakeFolder(a.redis, a.keys))?.id).toBe(claimed.id);
    const refusal = await claimIntake(b).catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(ConfigError);
    const text = (refusal as ConfigError).problems.join('\n');
    expect(text).toContain(a.config.folders.root);
    expect(text).toContain(b.config.folders.root);
    expect(text).toMatch(/INTAKE=off/);
    // A second host mounting the same data folder (same marker) does intake with it.
    const alsoA = intakes.open({ REDIS_PREFIX: a.config.REDIS_PREFIX, SOURCING_ACCOUNT: 'acct' });
    alsoA.config = { ...alsoA.config, folders: a.config.folders };
    expect((await claimIntake(alsoA)).id).toBe(claimed.id);
    expect(loadConfig({ INTAKE: 'off' }).INTAKE).toBe(false);
    expect(loadConfig({}).INTAKE).toBe(true);
  });

  it('`rfq-sync intake` says which folder does intake; `--take-over` moves it here, and the old folder is refused then', async () => {
    const [a, b] = twoFolders();
    await claimIntake(a);
    const run = async (ctx: TestIntake, takeOver = false) => {
      const lines: string[] = [];
      const config = { ...ctx.config, REDIS_URL: r.url, accountGiven: true };
      expect(await runIntakeCommand(config, ctx.logger, { takeOver }, (l) => lines.push(l))).toBe(0);
      return lines.join('\n');
    };
    const seen = await run(b);
    expect(seen).toContain(`intake for account acct: ${a.config.folders.root} on host`);
    expect(seen).toContain(`this host: ${b.config.folders.root} on host`);
    expect(seen).toContain('NOT the intake folder');
    // `rfq-sync ingest FILE` on B would put the file where no intake worker reads: refused, nothing copied.
    writeFileSync(join(b.dir, 'late.csv'), genericCsv(['PR-L1', 1]));
    const ingest = runIngestCommand(
      { ...b.config, REDIS_URL: r.url, accountGiven: true },
      b.logger,
      join(b.dir, 'late.csv'),
      {},
    );
    await expect(ingest).rejects.toThrow(/Run `rfq-sync ingest` on a host of the intake folder/);
    expect(ls(b.config.folders.processing)).toEqual([]);
    const moved = await run(b, true);
    expect(moved).toContain(`intake for account acct: ${b.config.folders.root} on host`);
    expect(moved).toContain(`before: ${a.config.folders.root} on host`);
    await expect(claimIntake(a)).rejects.toBeInstanceOf(ConfigError);
    expect((await claimIntake(b)).path).toBe(b.config.folders.root);
  });

  it("an ingest job whose file is not in this worker's processing/ fails for good, in failed list and status; never done", async () => {
    const [a, b] = twoFolders();
    const admitted = await submit(a, 'weekly.csv', genericCsv(['PR-X1', 2], ['PR-X2', 1]));
    // The worker of folder B (its folders made, as its inbox watcher makes them) takes A's job, as any worker may.
    await ensureFolders(fileFolders(b.config));
    const worker = new Worker('ingest', (job: Job) => processIngest(b, job), {
      connection: { ...b.queues.ingest.opts.connection },
      prefix: b.queues.ingest.opts.prefix,
    });
    worker.on('error', () => undefined);
    const ended = new Promise<string>((res) => {
      worker.on('failed', (_job, err) => res(`failed: ${err.message}`));
      worker.on('completed', (_job, v) => res(`completed: ${JSON.stringify(v)}`));
    });
    const outcome = await ended;
    await worker.close();
    expect(outcome).toMatch(/^failed: /);
    expect(outcome).toContain(`file weekly.csv (${admitted.file.name})`);
    expect(outcome).toContain(`is not in this worker's processing folder ${b.config.folders.processing}`);
    expect(outcome).toContain('its requisitions are not created');
    const job = await Job.fromId(a.queues.ingest, admitted.jobId);
    expect(await job!.getState()).toBe('failed');
    expect(job!.attemptsMade).toBe(1); // not retried: retrying does not bring the file
    const failed = await listFailed({ queues: a.queues });
    expect(failed.map((f) => [f.ref, f.subject])).toEqual([[`ingest:${admitted.jobId}`, admitted.file.name]]);
    expect((await recentFailures(a))[0]?.reason).toContain('weekly.csv');
    // Nothing was taken from A: the file waits in A's processing/, its bytes still A's, no requisition queued.
    expect(ls(a.config.folders.processing)).toEqual([admitted.file.name]);
    expect(await new FileLedger(a.redis, a.keys.fileLedger).get(admitted.sha256)).toMatchObject({
      state: 'processing',
      owner: admitted.file.name,
    });
    expect(await createJobs(a)).toBe(0);
    // Retried where the file is, it is read.
    await job!.retry('failed');
    expect(await processIngest(a, (await Job.fromId(a.queues.ingest, admitted.jobId))!)).toMatchObject({
      status: 'done',
      requisitions: 2,
    });
  });

  it('a file re-admitted from processing/ after its job completed gets a new job, not the completed one', async () => {
    const [a] = twoFolders();
    const admitted = await submit(a, 'again.csv', genericCsv(['PR-R1', 1]));
    // The job completes without reading the file (as a worker with another data folder did).
    const worker = new Worker('ingest', async () => ({ status: 'already-finished', where: 'missing' }), {
      connection: { ...a.queues.ingest.opts.connection },
      prefix: a.queues.ingest.opts.prefix,
    });
    worker.on('error', () => undefined);
    await new Promise((res) => worker.once('completed', res));
    await worker.close();
    expect(ls(a.config.folders.processing)).toEqual([admitted.file.name]);

    const [re] = await recoverProcessing(a);
    expect(re?.status).toBe('enqueued');
    const id = re?.status === 'enqueued' ? re.jobId : '';
    expect(id).not.toBe(admitted.jobId);
    expect(await a.queues.ingest.getJobState(id)).toBe('waiting');
    // Admitted again while that job waits: the same job, not a third.
    const [again] = await recoverProcessing(a);
    expect(again?.status === 'enqueued' && again.jobId).toBe(id);
    expect(await processIngest(a, (await Job.fromId(a.queues.ingest, id))!)).toMatchObject({
      status: 'done',
      requisitions: 1,
    });
    expect(ls(a.config.folders.processing)).toEqual([]);
    expect(ls(a.config.folders.archive)).toEqual([admitted.file.name]);
  });
});
