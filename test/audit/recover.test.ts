/**
 * `rfq-sync recover` re-seeds from the audit log before any walk of the service. One run of the three sample exports
 * (11 requisitions, on an account holding 200 other RFQs) by the shipped worker, one RFQ taken to its award; then
 * Redis is flushed twice and recovered twice from the same data folder and the same sandbox: once without the audit
 * log (today's recover: every requisition is queued to reconcile, the worker walks the account for them, and the
 * tracking starts over: the next poll sees the awarded RFQ as just completed and asks for its award again) and once
 * with it (each requisition recorded again with the RFQ the log knows, each tracking record as the log saw it: the
 * next poll finds nothing changed). Requests to the sandbox are counted from the flush until every requisition is
 * back, the same way in both: the log's recover asks the service less; neither posts anything again.
 */
import { copyFileSync, readFileSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { createIdempotencyStore } from '../../src/creation/idempotency-store.ts';
import { redisKeys } from '../../src/redis/redis-keys.ts';
import { SAMPLES, SAMPLES_DIR } from '../helpers/samples.ts';
import { usePipeline } from '../helpers/pipeline.ts';
import { waitFor } from '../helpers/wait.ts';
import { spawnCli } from '../helpers/cli.ts';
import { trackingStore } from '../../src/rfqs/store.ts';
import { auditLogFiles } from '../helpers/audit-files.ts';

// an account with history: 200 RFQs made by hand before rfq-sync (the walk reads them all)
const pipeline = usePipeline({ tag: 'recover-audit', sandbox: { seed: 42, existing: 200 } });

/** Every create-sent line of the log: requisition -> RFQ. */
function createdInLog(dir: string): Map<string, number> {
  const m = new Map<string, number>();
  for (const f of auditLogFiles(dir))
    for (const line of readFileSync(join(dir, f), 'utf8').split('\n').filter(Boolean)) {
      const l = JSON.parse(line) as { event: string; profile: string; key: string; rfq_id?: number };
      if (l.event === 'create-sent' && l.rfq_id !== undefined) m.set(`${l.profile}/${l.key}`, l.rfq_id);
    }
  return m;
}

/** The (one) file of the log: one host, one day. */
const auditFile = (dir: string) =>
  join(
    dir,
    readdirSync(dir).find((f) => f.endsWith('.jsonl'))!,
  );

const calls = (stats: { calls: Record<string, Record<string, number>> }) =>
  Object.values(stats.calls).reduce((n, byStatus) => n + Object.values(byStatus).reduce((a, b) => a + b, 0), 0);

describe('recover after a flushed Redis', () => {
  it('re-seeds from the audit log and asks the service less than without it', { timeout: 240_000 }, async () => {
    // the run polls (every 2 s): one RFQ goes to its award, the others are seen open
    const since = new Date(Date.now() - 60_000).toISOString();
    const audit = join(pipeline.data.root, 'audit');
    let worker = await pipeline.spawnWorker(pipeline.workerEnv({ LOG_LEVEL: 'info' }));
    for (const f of SAMPLES) {
      copyFileSync(join(SAMPLES_DIR, f), join(pipeline.staging, f));
      renameSync(join(pipeline.staging, f), join(pipeline.data.inbox, f));
    }
    await waitFor('11 RFQs created and logged', () => createdInLog(audit).size === 11, 90_000);
    const original = createdInLog(audit);
    const awarded = original.get('generic/GEN-2027-0001')!;
    const ctl = pipeline.sandbox.control;
    const lines = ctl.getRfq(awarded)!.lines.map((l) => l.line_id);
    const acme = ctl.submitQuotation(awarded, {
      sup_name: 'Acme',
      prices: Object.fromEntries(lines.map((l) => [l, '10'])),
    });
    const seen = (what: string) => () => readFileSync(auditFile(audit), 'utf8').includes(what);
    await waitFor(
      '11 RFQs seen open',
      () => (readFileSync(auditFile(audit), 'utf8').match(/created -> open/g) ?? []).length === 11,
      60_000,
    );
    ctl.advance(awarded, 'closed');
    await waitFor('workbook v1', seen('"event":"comparison-written"'), 60_000);
    ctl.pickWinner(awarded, String(acme.quotation_key));
    ctl.advance(awarded, 'completed');
    await waitFor('the award', seen('"event":"award-final"'), 60_000);
    await worker.kill('SIGTERM');
    // no scheduled poll from here: what the service is asked is the recovery's (and the worker's start, alike in both)
    const env = pipeline.workerEnv({ LOG_LEVEL: 'info', POLL_CRON: '0 0 1 1 *' });
    /** One poll by hand after a recovery: what it finds changed, and what it queues. */
    const pollOnce = async () => {
      const poll = spawnCli(['poll'], env);
      expect((await poll.exited).code, poll.output()).toBe(0);
      return poll.output();
    };
    const rfqs = pipeline.sandbox.control.listAll().length;

    const admin = new Redis(pipeline.redisUrl);
    const store = createIdempotencyStore(admin, redisKeys(pipeline.prefix, 'hardening'));
    const allBack = async () => {
      for (const [id, rfqId] of original) {
        const rec = await store.get(id);
        if (rec?.state !== 'created' || rec.rfqId !== rfqId) return false;
      }
      return true;
    };
    /** Flush, recover, run the worker until every requisition is back on its RFQ; the requests it took. */
    const recoverRun = async (): Promise<{ requests: number; output: string }> => {
      await admin.flushall();
      pipeline.sandbox.control.resetStats();
      const recover = spawnCli(['recover', '--since', since], env);
      const { code } = await recover.exited;
      expect(code, recover.output()).toBe(0);
      worker = await pipeline.spawnWorker(env);
      await waitFor('every requisition back on its RFQ', allBack, 90_000, 100);
      await worker.kill('SIGTERM');
      const requests = calls(pipeline.sandbox.control.stats());
      expect(pipeline.sandbox.control.stats().rfqsCreated).toBe(0); // nothing posted again
      expect(ctl.listAll()).toHaveLength(rfqs);
      return { requests, output: recover.output() };
    };

    // today's recover: the same data folder without its audit log
    renameSync(audit, `${audit}.kept`);
    const without = await recoverRun();
    expect(without.output).toMatch(/recover: 0 requisition\(s\) re-seeded from the audit log, 11 queued to reconcile/);
    // and its tracking starts over: the awarded RFQ looks just completed, its award is asked for (a second file)
    const after = await pollOnce();
    expect(after).toContain(`RFQ ${awarded}: created -> completed`);
    expect(after).toMatch(/queued: \d+ quotation pull\(s\), 1 award pull\(s\)/);
    // with the log (the one of the original run)
    rmSync(audit, { recursive: true, force: true });
    renameSync(`${audit}.kept`, audit);
    const withLog = await recoverRun();
    expect(withLog.output).toMatch(/recover: 11 requisition\(s\) re-seeded from the audit log, 0 queued to reconcile/);
    // the tracking records came back as the log saw them: the next poll finds nothing changed, asks for nothing
    const rec = await trackingStore({ redis: admin, keys: redisKeys(pipeline.prefix, 'hardening') }).get(awarded);
    expect(rec).toMatchObject({ state: 'completed', comparison: { version: 2, award: true } });
    expect(rec!.transitions.map((t) => t.to)).toEqual(['open', 'closed', 'completed']);
    const quiet = await pollOnce();
    expect(quiet).toMatch(/tracked 11, found 10, missing 0/); // the completed one is final: not looked for
    expect(quiet).not.toContain('->');
    expect(quiet).not.toContain('queued:');

    console.log(
      `recover after FLUSHALL, 11 requisitions of the 3 samples, 200 other RFQs in the account: ${without.requests} requests to the service without the audit log, ${withLog.requests} with it`,
    );
    expect(withLog.requests).toBeLessThan(without.requests);
    await admin.quit();
  });
});
