/**
 * What the lookup page (trace-page.ts) answers from, on a running worker: the log's answer from a lookup thread
 * (trace-threads.ts: off the event loop, a few at once, each with a deadline), then Redis's state of what it found
 * (bounded in time: a Redis that does not answer makes the answer "from the audit log alone", said in plain words),
 * or, when the log names nothing, what Redis knows of the query.
 */
import type { Redis } from 'ioredis';
import { auditDir, toTimeline, type Timeline } from '../../src/audit/index.ts';
import type { Logger } from '../../src/core/index.ts';
import type { RedisKeys } from '../../src/redis/index.ts';
import { type Config, settingOrigin } from '../../src/settings/index.ts';
import { traceInRedis, traceState } from '../../src/tracking/index.ts';
import type { PageQuery, TraceLookup } from './trace-page.ts';
import { traceThreads } from './trace-threads.ts';

/** How long the page waits for Redis's state before it answers from the log alone. */
const STATE_WAIT_MS = 3_000;
/** Lookups at once (each its own thread), lookups waiting beyond them, and each one's deadline. */
export const LOOKUP_CONCURRENCY = 2;
export const LOOKUP_QUEUE = 8;
export const LOOKUP_DEADLINE_MS = 10_000;

/** Redis did not answer in time, or at all: said without ioredis's words. */
const REDIS_SILENT = 'Redis does not answer now';

function within<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer in ${ms} ms`)), ms);
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

export function traceLookupFor(
  config: Pick<Config, 'folders' | 'NOTIFY_OUTBOX_SHOWN_AS' | 'account' | 'RFQ_SYNC_DIR' | 'given'>,
  ctx: { redis: Redis; keys: RedisKeys; logger: Logger },
  o: { concurrency?: number; queue?: number; deadlineMs?: number } = {},
): TraceLookup & { close(): Promise<void> } {
  const threads = traceThreads({
    root: config.folders.root,
    concurrency: o.concurrency ?? LOOKUP_CONCURRENCY,
    queue: o.queue ?? LOOKUP_QUEUE,
    deadlineMs: o.deadlineMs ?? LOOKUP_DEADLINE_MS,
  });
  const where = { folder: auditDir(config.folders.root), setting: settingOrigin(config, 'RFQ_SYNC_DIR') };
  const silent = (err: unknown): Timeline['source'] => {
    ctx.logger.warn(
      { err, event: 'trace.redis-silent' },
      `lookup page: Redis's state not read: ${(err as Error).message}`,
    );
    return { redis: 'down', reason: REDIS_SILENT };
  };
  return {
    outbox: config.folders.outbox,
    shownAs: config.NOTIFY_OUTBOX_SHOWN_AS,
    async timeline(pq: PageQuery) {
      const a = await threads.ask({
        what: pq.what,
        preferAccount: config.account,
        ...(pq.account !== undefined ? { account: pq.account } : {}),
        ...(pq.from ? { from: pq.from } : {}),
      });
      let source: Timeline['source'] = { redis: 'up' };
      let t: Timeline;
      try {
        const current = a.answer === 'timeline' ? await within(traceState(ctx, a), STATE_WAIT_MS) : undefined;
        if (!current) await within(ctx.redis.ping(), STATE_WAIT_MS);
        t = toTimeline(a, { source, ...where, ...(current ? { current } : {}) });
      } catch (err) {
        source = silent(err);
        t = toTimeline(a, { source, ...where });
      }
      if (t.answer === 'nothing' && source.redis === 'up') {
        const known = await within(traceInRedis(ctx, pq.what), STATE_WAIT_MS).catch((err: unknown) => {
          t.source = silent(err);
          return [];
        });
        if (known.length) t.redis = known;
      }
      return t;
    },
    close: () => threads.close(),
  };
}
