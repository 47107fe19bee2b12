/**
 * The audit log across crashes (src/audit/writer.ts; each job's auditLines, written by jobs/audit-lines.ts): no step
 * reported done is missing from the log, and no line is torn.
 *   1. Killed between a step and its line, deterministically: the day's log file is replaced by a FIFO, so the
 *      shipped worker's next line blocks in open() after its step. The service answered its creates (the RFQs
 *      exist), but the answer's line comes first: nothing is recorded, no create job is done; the worker is SIGKILLed
 *      there. After a restart each job reconciles, adopts the RFQ posted (nothing posted twice), writes its line,
 *      and only then is done.
 *   2. Killed at random moments (the crash harness of the creation proofs: SIGKILL, restart, again) while 40
 *      requisitions go through: every line of the log is whole JSON, and every job BullMQ recorded done has its line.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { safeHost } from '../../src/audit/log-names.ts';
import { createIdempotencyStore } from '../../src/creation/idempotency-store.ts';
import { bullPrefix, type RedisConnectionOptions } from '../../src/redis/queues.ts';
import { redisKeys } from '../../src/redis/redis-keys.ts';
import { csvOf, GENERIC_TEMPLATE, linesOf } from '../hardening/hostile-files.ts';
import { SAMPLES_DIR } from '../helpers/samples.ts';
import { sleep, waitFor } from '../helpers/wait.ts';
import { usePipeline } from '../helpers/pipeline.ts';
import type { WorkerChild } from '../helpers/worker-child.ts';
import { auditLogFiles } from '../helpers/audit-files.ts';

const pipeline = usePipeline({ tag: 'audit-crash', sandbox: { seed: 7, faults: { latencyMs: 40 } } });

const TUNING = { LOG_LEVEL: 'info', POLL_CRON: '0 0 1 1 *', JOB_LOCK_MS: '2000', STALLED_CHECK_MS: '1000' };

/** Every line of every log file, parsed; a line that is not whole JSON fails the test, naming it. */
function logLines(dir: string): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = [];
  for (const f of auditLogFiles(dir)) {
    const text = readFileSync(join(dir, f), 'utf8');
    expect(text.endsWith('\n'), `${f} ends mid-line`).toBe(true);
    for (const [i, line] of text.slice(0, -1).split('\n').entries()) {
      let parsed: Record<string, unknown> | undefined;
      try {
        parsed = JSON.parse(line) as Record<string, unknown>;
      } catch {
        parsed = undefined;
      }
      expect(parsed, `${f}:${i + 1} is torn: ${line.slice(0, 200)}`).toBeDefined();
      out.push(parsed!);
    }
  }
  return out;
}

/** The log's text as it is now, every file (for waiting on a step; logLines checks the lines once it is still). */
function logText(dir: string): string {
  return auditLogFiles(dir)
    .map((f) => readFileSync(join(dir, f), 'utf8'))
    .join('');
}

function queues() {
  const connection = { host: '127.0.0.1', port: pipeline.redis.port } as RedisConnectionOptions;
  const prefix = bullPrefix(pipeline.prefix, 'hardening');
  return {
    create: new Queue('create-rfq', { connection, prefix }),
    ingest: new Queue('ingest', { connection, prefix }),
  };
}

/** Each create job BullMQ recorded done names a requisition with its create-sent line (and that RFQ). */
async function expectEveryDoneCreateLogged(q: Queue, lines: Array<Record<string, unknown>>): Promise<number> {
  const done = await q.getCompleted(0, -1);
  const logged = new Set(
    lines
      .filter((l) => l.event === 'create-sent')
      .map((l) => `${String(l.profile)}/${String(l.key)}~${String(l.rfq_id)}`),
  );
  const missing = done
    .map((j) => j.returnvalue as { requisitionId: string; rfqId?: number })
    .filter((o) => !logged.has(`${o.requisitionId}~${o.rfqId}`));
  expect(missing).toEqual([]);
  return done.length;
}

describe('the audit log across crashes', () => {
  it(
    'a worker killed between its step and its line: the line is written before the job is done, after a restart',
    { timeout: 120_000 },
    async () => {
      const env = pipeline.workerEnv(TUNING);
      const audit = join(pipeline.data.root, 'audit');
      const q = queues();
      try {
        // the file is read by an ingest-only worker: its requisitions wait in create-rfq
        let worker: WorkerChild = await pipeline.spawnWorker({ ...env, WORKER_QUEUES: 'ingest' });
        copyFileSync(join(SAMPLES_DIR, 'generic-template.csv'), join(pipeline.staging, 'g.csv'));
        renameSync(join(pipeline.staging, 'g.csv'), join(pipeline.data.inbox, 'g.csv'));
        // waiting reads the log as the worker writes it: a line may be half read then (the wholeness is checked
        // once the worker has stopped); seen in CI: "ends mid-line" inside this wait
        await waitFor('the file read', () => logText(audit).includes('"event":"file-read"'), 30_000);
        await worker.kill('SIGTERM');

        // the next line blocks: the day's file becomes a FIFO nobody reads
        const day = join(audit, `${new Date().toISOString().slice(0, 10)}.${safeHost(hostname())}.jsonl`);
        renameSync(day, `${day}.kept`);
        execFileSync('mkfifo', [day]);
        worker = await pipeline.spawnWorker({ ...env, WORKER_QUEUES: 'create-rfq' });
        const admin = new Redis(pipeline.redisUrl);
        const store = createIdempotencyStore(admin, redisKeys(pipeline.prefix, 'hardening'));
        const ids = ['generic/GEN-2027-0001', 'generic/GEN-2027-0002', 'generic/GEN-2027-0003'];
        // the service answered every create (the RFQs exist); the answer's line comes before its record, so none is
        // recorded, and no job is done: each waits for its line
        await waitFor('every create answered', () => pipeline.sandbox.control.listAll().length === 3, 30_000);
        const recs = await Promise.all(ids.map((id) => store.get(id)));
        expect(recs.map((r) => r?.state)).toEqual(['creating', 'creating', 'creating']);
        expect((await q.create.getJobCounts('completed')).completed).toBe(0);
        await worker.kill('SIGKILL');
        rmSync(day);
        renameSync(`${day}.kept`, day);
        expect(logLines(audit).filter((l) => l.event === 'create-sent')).toEqual([]);

        worker = await pipeline.spawnWorker({ ...env, WORKER_QUEUES: 'create-rfq' });
        await waitFor(
          'the three create jobs done',
          async () => (await q.create.getJobCounts('completed')).completed === 3,
          60_000,
        );
        await worker.kill('SIGTERM');
        const lines = logLines(audit);
        expect(await expectEveryDoneCreateLogged(q.create, lines)).toBe(3);
        const creates = lines.filter((l) => l.event === 'create-sent');
        expect(creates.map((l) => `${String(l.profile)}/${String(l.key)}`).sort()).toEqual(ids);
        // the re-run found the RFQ the first run posted (its answer was never recorded): adopted, not posted again
        const posted = pipeline.sandbox.control.listAll().map((r) => r._id);
        for (const l of creates) expect(l).toMatchObject({ outcome: 'adopted', how: 'adopted' });
        expect(creates.map((l) => l.rfq_id).sort()).toEqual(posted.sort());
        expect(pipeline.sandbox.stats().rfqsCreated).toBe(3);
        await admin.quit();
      } finally {
        await q.create.close();
        await q.ingest.close();
      }
    },
  );

  it(
    'a worker killed at random moments: every line whole, every job done has its line',
    { timeout: 240_000 },
    async () => {
      const env = pipeline.workerEnv({ ...TUNING, CONCURRENCY_CREATE: '4' });
      const audit = join(pipeline.data.root, 'audit');
      const q = queues();
      try {
        writeFileSync(join(pipeline.staging, 'many.csv'), csvOf(GENERIC_TEMPLATE, linesOf('AUD', 40, 2)));
        renameSync(join(pipeline.staging, 'many.csv'), join(pipeline.data.inbox, 'many.csv'));
        let kills = 0;
        for (; kills < 6; kills++) {
          const worker = await pipeline.spawnWorker(env);
          await sleep(700 + Math.floor(Math.random() * 900)); // sleep: a random moment for the kill, not a wait before an assertion
          await worker.kill('SIGKILL');
        }
        const worker = await pipeline.spawnWorker(env);
        // the ingest job too: an attempt killed after its requisitions were queued is taken again only once the
        // stalled check sees it, which may come after the 40 creates (seen in CI: 40 done, the ingest job not yet)
        await waitFor(
          '40 create jobs and the ingest job done',
          async () =>
            (await q.create.getJobCounts('completed')).completed === 40 &&
            (await q.ingest.getJobCounts('completed')).completed === 1,
          150_000,
          200,
        );
        await worker.kill('SIGTERM');
        const lines = logLines(audit);
        expect(await expectEveryDoneCreateLogged(q.create, lines)).toBe(40);
        expect((await q.ingest.getJobCounts('completed')).completed).toBe(1);
        // the ingest job done has its line too (read now, or finished by an attempt killed after the move)
        expect(
          lines.filter((l) => l.event === 'file-read' && l.file === 'many.csv').map((l) => l.outcome),
        ).toContainEqual(expect.stringMatching(/^(done|already-finished)$/));
        expect(new Set(lines.filter((l) => l.event === 'requisition-accepted').map((l) => l.key)).size).toBe(40);
        // exactly once (the first test's 3 RFQs share this sandbox)
        expect(
          pipeline.sandbox.control.listAll().filter((r) => r.lines[0]?.external_id?.startsWith('AUD')),
        ).toHaveLength(40);
        console.log(`audit crash: ${kills} kills, ${lines.length} lines, all whole; 40 create jobs done, each logged`);
      } finally {
        await q.create.close();
        await q.ingest.close();
      }
    },
  );
});
