/**
 * An audit folder that goes away or cannot be written stops nothing silently (the shipped `rfq-sync worker`, the
 * sandbox, one Redis for the file):
 *   - removed under a running worker: the next file is taken and its lines are written (the folder made again);
 *   - read-only (a tmpfs mounted read-only over it; skipped where that cannot be done: not root): /readyz is not
 *     ready and names the folder and the error, `status` names it, IT is told (the `audit-unwritable` event on a
 *     webhook route), and the ingest job waits without spending an attempt; once the folder can be written, the job
 *     runs and its lines are written.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bullPrefix, type RedisConnectionOptions } from '../../src/redis/queues.ts';
import { spawnCli } from '../helpers/cli.ts';
import { genericCsv } from '../helpers/fixtures.ts';
import { usePipeline } from '../helpers/pipeline.ts';
import type { WorkerChild } from '../helpers/worker-child.ts';
import { auditLogFiles } from '../helpers/audit-files.ts';
import { startHttpReceiver, type HttpReceiver } from '../helpers/notify.ts';
import { SAMPLES_DIR } from '../helpers/samples.ts';
import { freePort, waitFor } from '../helpers/wait.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const pipeline = usePipeline({ tag: 'audit-faults', scope: 'file' });
const probe = tempDir('rfq-mount-probe-');
const canMount =
  process.getuid?.() === 0 &&
  spawnSync('mount', ['-t', 'tmpfs', '-o', 'ro,size=64k', 'tmpfs', probe]).status === 0 &&
  spawnSync('umount', [probe]).status === 0;
let env: Record<string, string>;
let worker: WorkerChild;
let ops: string;
let hook: HttpReceiver;
const audit = () => join(pipeline.data.root, 'audit');

/** Every whole line of the log now, parsed. */
function lines(): Array<Record<string, unknown>> {
  return auditLogFiles(audit()).flatMap((f) =>
    readFileSync(join(audit(), f), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>),
  );
}
const read = (file: string) => lines().some((l) => l.event === 'file-read' && l.file === file);

/** An export arriving whole in the inbox: the generic sample, or this text. */
function drop(name: string, text?: string): void {
  const staged = join(pipeline.staging, name);
  if (text === undefined) copyFileSync(join(SAMPLES_DIR, 'generic-template.csv'), staged);
  else writeFileSync(staged, text);
  renameSync(staged, join(pipeline.data.inbox, name));
}

beforeAll(async () => {
  hook = await startHttpReceiver();
  const port = await freePort();
  env = pipeline.workerEnv({
    HTTP_PORT: String(port),
    POLL_CRON: '0 0 1 1 *',
    NOTIFY_CHANNELS: JSON.stringify({ hook: { type: 'webhook', url: `${hook.url}/it` } }),
    NOTIFY_ROUTES: JSON.stringify({ it: { channel: 'hook', events: ['audit-unwritable'], digest: 'immediate' } }),
  });
  ops = `http://127.0.0.1:${port}`;
  worker = await pipeline.spawnWorker(env);
  drop('first.csv');
  await waitFor('the first file read and logged', () => read('first.csv'), 30_000);
}, 60_000);
afterAll(async () => {
  await worker?.kill('SIGTERM');
  await hook?.close();
});

describe('a log that names nothing', () => {
  it('says which folder and days it read, and answers from Redis when Redis knows the key', async () => {
    const rfq = pipeline.sandbox.control
      .listAll()
      .find((r) => r.lines.some((l) => l.external_id === 'GEN-2027-0001-1'))!;
    const moved = join(pipeline.staging, 'moved-away');
    mkdirSync(moved, { recursive: true });
    for (const f of auditLogFiles(audit())) renameSync(join(audit(), f), join(moved, f));
    try {
      const run = spawnCli(['trace', String(rfq._id)], env);
      expect((await run.exited).code).toBe(0);
      const out = run.output();
      expect(out).toContain(`audit log ${audit()} (RFQ_SYNC_DIR=${pipeline.data.root} from the environment): no file`);
      expect(out).toContain(`nothing in the audit log names "${rfq._id}"`);
      expect(out).toMatch(new RegExp(`Redis: RFQ ${rfq._id} is tracked: \\w+; requisition generic/GEN-2027-0001 from`));
    } finally {
      for (const f of auditLogFiles(moved)) renameSync(join(moved, f), join(audit(), f));
    }
  });
});

describe('the audit folder', () => {
  it('removed under a running worker: the next file is taken and its lines are written', async () => {
    rmSync(audit(), { recursive: true, force: true });
    drop('after-removal.csv', genericCsv(['RM-1', 2]));
    await waitFor('the next file read and logged', () => read('after-removal.csv'), 30_000);
    const mine = lines().filter((l) => l.file === 'after-removal.csv');
    expect(mine.map((l) => l.event)).toEqual(
      expect.arrayContaining(['file-taken', 'requisition-accepted', 'file-read']),
    );
    expect(auditLogFiles(audit())).toHaveLength(1);
  });

  it.skipIf(!canMount)(
    'read-only: /readyz names it, status names it, IT is told, the job waits without spending an attempt',
    { timeout: 90_000 },
    async () => {
      mkdirSync(audit(), { recursive: true });
      expect(spawnSync('mount', ['-t', 'tmpfs', '-o', 'ro,size=64k', 'tmpfs', audit()]).status).toBe(0);
      const connection = { host: '127.0.0.1', port: pipeline.redis.port } as RedisConnectionOptions;
      const ingest = new Queue('ingest', { connection, prefix: bullPrefix(pipeline.prefix, 'hardening') });
      try {
        const ready = await fetch(`${ops}/readyz`);
        expect(ready.status).toBe(503);
        const report = (await ready.json()) as { checks: Record<string, { ok: boolean; detail: string }> };
        expect(report.checks.audit).toMatchObject({ ok: false });
        expect(report.checks.audit!.detail).toContain(audit());
        expect(report.checks.audit!.detail).toMatch(/EROFS|read-only/);

        drop('read-only.csv', genericCsv(['RO-1', 2]));
        const job = await waitFor(
          'the ingest job waiting for the folder',
          async () => (await ingest.getJobs(['delayed'])).find((j) => j.data.processingName?.includes('read-only')),
          30_000,
        );
        expect(job.attemptsMade).toBe(0);
        await waitFor('IT told', () => hook.requests.some((r) => JSON.stringify(r.json).includes('audit-unwritable')));
        const told = hook.requests.find((r) => JSON.stringify(r.json).includes('audit-unwritable'))!;
        expect(JSON.stringify(told.json)).toContain(audit());

        const status = spawnCli(['status'], env);
        await status.exited;
        expect(status.output()).toMatch(new RegExp(`AUDIT LOG CANNOT BE WRITTEN on \\S+ since \\S+: ${audit()}`));
        expect(await ingest.getFailedCount()).toBe(0);
      } finally {
        spawnSync('umount', ['-l', audit()]);
      }
      await waitFor('the file read once the folder can be written', () => read('read-only.csv'), 30_000);
      // its line is written before BullMQ records it done: wait for that
      const done = await waitFor('the ingest job done', async () =>
        (await ingest.getJobs(['completed'])).find((j) => j.data.processingName?.includes('read-only')),
      );
      expect(done.attemptsMade).toBe(1);
      const after = (await (await fetch(`${ops}/readyz`)).json()) as { checks: Record<string, { ok: boolean }> };
      expect(after.checks.audit).toMatchObject({ ok: true });
      await ingest.close();
    },
  );
});
