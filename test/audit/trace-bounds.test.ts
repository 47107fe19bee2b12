/**
 * Bounded answers from the index (no Redis): a file name that recurs answers with its files, newest first, with
 * their counts (paged), never with every step; one file's steps come in pages under a cap of steps and bytes, and
 * `--all` streams every one in order; RFQ numbers are the account's own (two accounts' RFQ 1 never merge); the page
 * shows the same, its links encoded per path segment (a `#` in a workbook's name), the lookups refused when too many
 * run at once or past their deadline, and with HTTP_TOKEN set it needs the token from loopback too.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuditLog } from '../../src/audit/writer.ts';
import { buildTimeline, openTraceIndex } from '../../src/audit/trace-log.ts';
import { queryTrace } from '../../src/audit/trace-query.ts';
import type { AuditEvent } from '../../src/audit/events.ts';
import { silentLogger } from '../../src/core/logger.ts';
import { hrefOf, renderTimeline } from '../../app/http/trace-page.ts';
import { traceThreads } from '../../app/http/trace-threads.ts';
import { traceLookupFor } from '../../app/http/trace-lookup.ts';
import { loadConfig } from '../../src/settings/config.ts';
import { redisKeys } from '../../src/redis/redis-keys.ts';
import { freePort } from '../helpers/wait.ts';
import { Redis } from 'ioredis';
import { startOpsServer, type OpsServer } from '../../app/http/http-server.ts';
import { createMetrics } from '../../app/http/metrics.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const DAY_MS = 86_400_000;
const T0 = Date.UTC(2026, 9, 1, 6, 0, 0);
const sha = (d: number) => d.toString(16).padStart(2, '0').repeat(32);

/** `days` daily drops of `name`, each with `per` requisitions created, the first of each awarded. */
async function recurringLog(root: string, days: number, per: number, account = 'acme', rfqBase = 0) {
  let t = T0;
  const log = createAuditLog({ root, retentionDays: 0, host: 'erp', account, now: () => t, index: false });
  for (let d = 0; d < days; d++) {
    t = T0 + d * DAY_MS;
    const file = { file: 'daily.csv', file_sha256: sha(d + 1) };
    const w = (e: AuditEvent) => ((t += 10), log.write(e));
    await w({ event: 'file-taken', summary: `file daily.csv taken`, ...file });
    for (let r = 0; r < per; r++) {
      const key = `PR-${d}-${r}`;
      const id = { profile: 'generic', key, external_ids: [`${key}-1`], file: 'daily.csv' };
      const rfq = rfqBase + d * per + r + 1;
      await w({ event: 'requisition-accepted', summary: `accepted ${key}`, ...id, file_sha256: file.file_sha256 });
      await w({ event: 'create-sent', summary: `RFQ ${rfq} created`, ...id, rfq_id: rfq, outcome: 'created' });
      if (r === 0) await w({ event: 'award-final', summary: `award final for RFQ ${rfq}`, ...id, rfq_id: rfq });
    }
    await w({ event: 'file-read', summary: 'file daily.csv read', ...file, outcome: 'done' });
  }
  log.close();
}

let root: string;
beforeAll(async () => {
  root = tempDir('rfq-bounds-');
  await recurringLog(root, 4, 20); // 80 requisitions under one name
});

describe('a recurring file name', () => {
  it('answers with its files, newest first, each with its counts, not with every step', async () => {
    const t = await buildTimeline(root, 'daily.csv', { redis: 'down', reason: 'test' });
    expect(t.answer).toBe('summary');
    expect(t.steps).toEqual([]);
    expect(t.summary).toMatchObject({ file: 'daily.csv', requisitions: 80, total: 4 });
    expect(t.summary!.drops.map((d) => d.sha256)).toEqual([sha(4), sha(3), sha(2), sha(1)]);
    expect(t.summary!.drops[0]).toMatchObject({ requisitions: 20, held: 0, rfqs: 20, awards: 1, host: 'erp' });
    // --since: only the files from then on
    const since = await buildTimeline(
      root,
      { what: 'daily.csv', since: new Date(T0 + 2 * DAY_MS).toISOString() },
      { redis: 'up' },
    );
    expect(since.summary!.drops.map((d) => d.sha256)).toEqual([sha(4), sha(3)]);
  });

  it("one file's steps come in pages under the caps; --all gives every step in order", async () => {
    const idx = openTraceIndex(root);
    try {
      const first = queryTrace(idx, { what: sha(2), maxLines: 25 });
      expect(first.answer).toBe('timeline');
      expect(first.requisitions).toHaveLength(20);
      expect(first.steps).toHaveLength(25);
      expect(first.page).toEqual({ from: 0, total: 43, next: 25 });
      const second = queryTrace(idx, { what: sha(2), from: 25, maxLines: 25 });
      expect(second.steps).toHaveLength(18);
      expect(second.page).toEqual({ from: 25, total: 43 });
      const bytes = queryTrace(idx, { what: sha(2), maxBytes: 2_000 });
      expect(bytes.steps.length).toBeGreaterThan(1);
      expect(bytes.steps.length).toBeLessThan(15);
      const streamed: string[] = [];
      const all = queryTrace(
        idx,
        { what: 'daily.csv', all: true },
        { head: () => undefined, step: (s) => streamed.push(s.at) },
      );
      expect(all.answer).toBe('timeline');
      expect(streamed).toHaveLength(4 * (2 + 20 * 2 + 1));
      expect([...streamed].sort()).toEqual(streamed);
      expect([...first.steps, ...second.steps].map((s) => s.summary)).toEqual(
        queryTrace(idx, { what: sha(2) }).steps.map((s) => s.summary),
      );
    } finally {
      idx.close();
    }
  });
});

describe('RFQ numbers', () => {
  it('are the account’s own: two accounts’ RFQ 1 never merge; the worker’s account is chosen, the other named', async () => {
    const two = tempDir('rfq-accounts-');
    await recurringLog(two, 1, 2, 'sandbox-a');
    await recurringLog(two, 1, 2, 'sandbox-b');
    const either = await buildTimeline(two, '1', { redis: 'down', reason: 'test' });
    expect(either.answer).toBe('accounts');
    expect(either.accounts!.map((a) => a.account)).toEqual(['sandbox-a', 'sandbox-b']);
    const a = await buildTimeline(two, { what: '1', preferAccount: 'sandbox-b' }, { redis: 'up' });
    expect(a).toMatchObject({ answer: 'timeline', account: 'sandbox-b', otherAccounts: ['sandbox-a'], rfqIds: [1] });
    expect(a.requisitions).toEqual(['generic/PR-0-0']);
    expect(a.steps.filter((s) => s.event === 'create-sent')).toHaveLength(1);
  });
});

describe('the lookup page', () => {
  it('shows the summary with a link to each file, and encodes each segment of a path it links', async () => {
    const t = await buildTimeline(root, 'daily.csv', { redis: 'up' });
    const html = renderTimeline(t, { outbox: '/srv/outbox', shownAs: '\\\\fs\\rfq sync\\outbox' });
    expect(html).toContain(`<a href="/trace?q=${sha(4)}">${sha(4).slice(0, 16)}</a>`);
    expect(html).toContain('80 requisitions in 4 file(s) of that name');
    expect(hrefOf('\\\\fs\\rfq sync\\outbox\\comparisons\\RFQ #7 v1.xlsx', 'x')).toBe(
      'file://fs/rfq%20sync/outbox/comparisons/RFQ%20%237%20v1.xlsx',
    );
    expect(hrefOf('https://files.example/outbox/awards/A#1?.csv', 'x')).toBe(
      'https://files.example/outbox/awards/A%231%3F.csv',
    );
  });

  it('says in plain words when Redis does not answer, and answers from the log alone', async () => {
    const redis = new Redis({
      port: await freePort(),
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    redis.on('error', () => undefined);
    const config = loadConfig({ RFQ_SYNC_DIR: root, SOURCING_ACCOUNT: 'acme' } as NodeJS.ProcessEnv);
    const lookup = traceLookupFor(config, { redis, keys: redisKeys('rfq-sync', 'acme'), logger: silentLogger });
    try {
      const t = await lookup.timeline({ what: 'PR-1-1-1' });
      expect(t.source).toEqual({ redis: 'down', reason: 'Redis does not answer now' });
      expect(t.requisitions).toEqual(['generic/PR-1-1']);
      const html = renderTimeline(t, lookup);
      expect(html).toContain('Redis does not answer now: this answer is from the audit log alone');
      expect(html).not.toMatch(/max retries|maxRetriesPerRequest|ECONNREFUSED/);
    } finally {
      await lookup.close();
      redis.disconnect();
    }
  });

  it('runs a few lookups at once off the event loop, refuses more, and ends one past its deadline', async () => {
    const threads = traceThreads({ root, concurrency: 1, queue: 0, deadlineMs: 20_000 });
    try {
      const first = threads.ask({ what: 'PR-1-1-1' });
      await expect(threads.ask({ what: 'PR-1-2-1' })).rejects.toMatchObject({ why: 'busy' });
      expect((await first).requisitions).toEqual(['generic/PR-1-1']);
    } finally {
      await threads.close();
    }
    const late = traceThreads({ root, concurrency: 1, queue: 0, deadlineMs: 1 });
    try {
      await expect(late.ask({ what: 'PR-1-1-1' })).rejects.toMatchObject({ why: 'deadline' });
      expect(late.load()).toEqual({ running: 0, waiting: 0 });
    } finally {
      await late.close();
    }
  });
});

describe('the lookup page with HTTP_TOKEN set', () => {
  let ops: OpsServer;
  beforeAll(async () => {
    ops = await startOpsServer({
      host: '127.0.0.1',
      port: 0,
      token: 'tok-1234567890',
      logger: silentLogger,
      metrics: createMetrics(),
    });
  });
  afterAll(async () => ops.close());
  const get = (path: string, auth?: string) =>
    new Promise<number>((done, fail) => {
      const req = request(`${ops.url}${path}`, { headers: auth ? { authorization: auth } : {} }, (res) => {
        res.resume();
        done(res.statusCode ?? 0);
      });
      req.on('error', fail);
      req.end();
    });

  it('needs the token from loopback too (it reads the log on request); /healthz and the dashboard do not', async () => {
    expect(await get('/trace?q=x')).toBe(401);
    expect(await get('/trace?q=x', 'Bearer tok-1234567890')).toBe(503); // no lookup yet: the worker is starting
    expect(await get('/healthz')).toBe(200);
    expect(await get('/readyz')).toBe(200);
  });
});
