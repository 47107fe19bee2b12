/** `rfq-sync status --json` and `failed list|retry` against a real Redis, spawned as the CLI. */
import { UnrecoverableError, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/settings/config.ts';
import { bullPrefix, createQueues, type Queues } from '../../src/redis/queues.ts';
import { redisKeys } from '../../src/redis/redis-keys.ts';
import { useRedis, freshPrefix } from '../helpers/redis.ts';
import { spawnCli } from '../helpers/cli.ts';

async function cli(args: string[], env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  const p = spawnCli(args, env);
  const { code } = await p.exited;
  return { code, out: p.output() };
}

describe('status and failed jobs', () => {
  const redis = useRedis();
  let env: Record<string, string>;
  let queues: Queues;
  let client: Redis;

  beforeAll(async () => {
    env = {
      REDIS_URL: redis.url,
      REDIS_PREFIX: freshPrefix(),
      SOURCING_BASE_URL: 'https://sourcing.example/esourcing',
      SOURCING_TOKEN: 'status-test-token',
    };
    const config = loadConfig(env);
    const connection = { host: '127.0.0.1', port: redis.redis.port };
    queues = createQueues(connection, bullPrefix(config.REDIS_PREFIX, config.account), { attempts: 1, backoffMs: 1 });
    client = new Redis(redis.url);
    // One failed job with a reason, and a waiting one.
    const failing = new Worker(
      'comparison',
      async () => {
        throw new UnrecoverableError('RFQ 77: outbox not writable (EACCES)');
      },
      { connection, prefix: bullPrefix(config.REDIS_PREFIX, config.account) },
    );
    const failed = new Promise((r) => failing.once('failed', r));
    await queues.comparison.add('comparison', { rfqId: 77, version: 1 }, { jobId: 'comparison~77~v1' });
    await failed;
    await failing.close();
    await queues.createRfq.add('create-rfq', { requisition: { key: 'R1' } }, { jobId: 'create~R1' });
    // Two settled files IT must act on (their ingest jobs succeeded) and one clean file, with the results the ingest job returns.
    const results: Record<string, unknown> = {
      'ingest~a': {
        status: 'refused',
        file: 'broken.xlsx',
        reason: 'broken.xlsx: is a corrupt zip/xlsx archive',
        report: 'broken.ef50ed14.r1.xlsx',
        discardedRequisitions: 0,
      },
      'ingest~b': {
        status: 'done',
        file: 'weekly.csv',
        requisitions: 2,
        heldRequisitions: 1,
        rejectedRows: 1,
        report: 'weekly.1234abcd.r2.xlsx',
        firstProblem: 'weekly.csv row 3, column Qty ("2.5"): qty must be a whole number',
      },
      'ingest~c': {
        status: 'done',
        file: 'clean.csv',
        requisitions: 3,
        heldRequisitions: 0,
        rejectedRows: 0,
        report: 'clean.r3.xlsx',
      },
    };
    const ingestWorker = new Worker('ingest', async (job) => results[job.id!], {
      connection,
      prefix: bullPrefix(config.REDIS_PREFIX, config.account),
    });
    const settled = new Promise<void>((res) => {
      let n = 0;
      ingestWorker.on('completed', () => ++n === 3 && res());
    });
    for (const id of Object.keys(results)) await queues.ingest.add('ingest', {}, { jobId: id });
    await settled;
    await ingestWorker.close();
    // Paused for auth, with two checks of the same token made, as a worker records it.
    await client.hset(redisKeys(config.REDIS_PREFIX, config.account).authPause, {
      reason: 'createRfq: HTTP 401',
      since: String(Date.parse('2026-01-02T03:04:05Z')),
      tokenFingerprint: 'abc123',
      checks: '2',
      lastCheckAt: String(Date.parse('2026-01-02T03:04:20Z')),
      lastCheckResult: 'still refused (HTTP 401)',
      nextCheckAt: String(Date.parse('2026-01-02T03:04:40Z')),
    });
  });
  afterAll(async () => {
    await queues?.close();
    client?.disconnect();
  });

  it('status --json has the promised shape', async () => {
    const { code, out } = await cli(['status', '--json'], env);
    expect(code).toBe(0);
    const r = JSON.parse(out) as Record<string, unknown> & {
      queues: Record<string, Record<string, number>>;
      failures: Array<Record<string, unknown>>;
      paused: Record<string, unknown>;
    };
    expect(Object.keys(r).sort()).toEqual([
      'auditFaults',
      'awardsWithheld',
      'brokenProfiles',
      'categoryHeldFiles',
      'changes',
      'dialect',
      'erpFilesHeld',
      'failures',
      'files',
      'flagged',
      'generatedAt',
      'heldFiles',
      'intake',
      'lastPoll',
      'mappingSets',
      'notifyRetrying',
      'paused',
      'queues',
      'reconcile',
      'retention',
      'rfqs',
      'stateLost',
      'tokenProblems',
      'undecided',
      'vendorDirectory',
      'webhook',
    ]);
    expect(r.webhook).toMatchObject({ received: 0, checked: 0, transitions: 0, pollsWoken: 0 });
    expect(r.reconcile).toEqual({ pending: 0, gate: null });
    const files = (r as unknown as { files: Array<Record<string, unknown>> }).files;
    expect(files.map((f) => [f.file, f.outcome]).sort()).toEqual([
      ['broken.xlsx', 'refused'],
      ['weekly.csv', 'rows rejected'],
    ]);
    expect(files.find((f) => f.file === 'weekly.csv')).toMatchObject({
      reason:
        '1 row(s) rejected, 1 requisition(s) held back; first: weekly.csv row 3, column Qty ("2.5"): qty must be a whole number',
      report: 'weekly.1234abcd.r2.xlsx',
    });
    expect(Object.keys(r.queues)).toEqual(['ingest', 'create-rfq', 'poll', 'quotations', 'comparison', 'notify']);
    for (const counts of Object.values(r.queues)) {
      expect(Object.keys(counts).sort()).toEqual([
        'active',
        'completed',
        'delayed',
        'failed',
        'prioritized',
        'waiting',
        'waiting-children',
      ]);
    }
    expect(r.queues['create-rfq']!.waiting).toBe(1);
    expect(r.queues.comparison!.failed).toBe(1);
    expect(r.rfqs).toEqual({});
    expect(r.lastPoll).toBeNull();
    expect(r.failures).toHaveLength(1);
    expect(r.failures[0]).toMatchObject({
      queue: 'comparison',
      jobId: 'comparison~77~v1',
      reason: 'RFQ 77: outbox not writable (EACCES)',
      attempts: 1,
    });
    expect(typeof r.failures[0]!.at).toBe('string');
    expect(r.paused).toEqual({
      paused: true,
      reason: 'createRfq: HTTP 401',
      since: '2026-01-02T03:04:05.000Z',
      lastCheck: { at: '2026-01-02T03:04:20.000Z', result: 'still refused (HTTP 401)' },
      nextCheckAt: '2026-01-02T03:04:40.000Z',
      checks: 2,
    });
    expect(r.tokenProblems).toEqual([]);
    expect(r.intake).toBeNull();
    // Looking does not lift the pause.
    expect(await client.exists(redisKeys(loadConfig(env).REDIS_PREFIX, loadConfig(env).account).authPause)).toBe(1);
  });

  it('status in words says paused, the queues and the failure', async () => {
    const { code, out } = await cli(['status'], env);
    expect(code).toBe(0);
    expect(out).toMatch(
      /^PAUSED: the sourcing service refused the token since 2026-01-02T03:04:05.000Z: createRfq: HTTP 401/,
    );
    // When the same token was last checked, what it got, and when the next check is due.
    expect(out).toContain(
      'last check of the same token 2026-01-02T03:04:20.000Z: still refused (HTTP 401) (2 check(s)); next check 2026-01-02T03:04:40.000Z',
    );
    expect(out).toContain('`rfq-sync resume` to check now');
    expect(out).toMatch(/create-rfq\s+1\s+0/);
    expect(out).toContain('comparison~77~v1: RFQ 77: outbox not writable (EACCES)');
    // Settled files that need a look are listed apart from job failures, with the report to open.
    expect(out).toContain('broken.xlsx: REFUSED, is a corrupt zip/xlsx archive  [report broken.ef50ed14.r1.xlsx]');
    expect(out).toContain('weekly.csv: 1 row(s) rejected, 1 requisition(s) held back; first: weekly.csv row 3');
    expect(out).not.toContain('clean.csv');
  });

  it('failed list shows the job; failed retry runs it again', async () => {
    const list = await cli(['failed', 'list', '--json'], env);
    expect(list.code).toBe(0);
    const jobs = JSON.parse(list.out) as Array<{ ref: string; failedReason: string }>;
    expect(jobs.map((j) => j.ref)).toEqual(['comparison:comparison~77~v1']);
    const retry = await cli(['failed', 'retry', 'comparison:comparison~77~v1'], env);
    expect(retry.code).toBe(0);
    expect(retry.out).toContain('retried comparison:comparison~77~v1');
    expect((await queues.comparison.getJobCounts('failed', 'waiting')).waiting).toBe(1);
    const none = await cli(['failed', 'retry', 'nope'], env);
    expect(none.code).toBe(1);
  });

  it('without REDIS_URL it says what is missing and exits 2', async () => {
    const { code, out } = await cli(['status', '--json'], {});
    expect(code).toBe(2);
    expect(out).toContain('REDIS_URL: required for `status`');
  });
});
