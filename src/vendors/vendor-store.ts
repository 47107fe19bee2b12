/**
 * The account's vendor directory in Redis (key `vendors`, one JSON VendorDirectory), shared by every worker:
 * read at most hourly by the poll (refreshIfStale), in the background when an ingest finds none stored (forIngest:
 * the ingest itself never waits for the service), first by an ingest with CATEGORY_CHECK=hold that finds none read
 * yet (forHold, a bounded wait), and on demand by `rfq-sync doctor` (refresh). Reading it never
 * blocks anything: a failure keeps the vendors last read
 * (and is tried again after FAILED_RETRY_MS), a service without a directory (404/405 on both documented paths) is
 * said once in the log and by `doctor`, and the checks that use it step aside.
 */
import type { Redis } from 'ioredis';
import type { Logger } from '../core/index.ts';
import type { RedisKeys } from '../redis/index.ts';
import type { SourcingPort } from '../sourcing/index.ts';
import type { VendorDirectory } from './vendor-directory.ts';

/** The poll reads the directory again once the last read is this old. */
export const VENDOR_REFRESH_MS = 3_600_000;
/** After a failed read, the next poll past this tries again (a service that was down need not wait an hour). */
export const FAILED_RETRY_MS = 10 * 60_000;
/** One reader at a time across the workers of an account (the lock expires on its own should a reader die). */
const LOCK_MS = 60_000;
/** How often forHold looks whether another worker's read has landed. */
const LOCK_POLL_MS = 200;

/** A directory an ingest can act on: read (its vendors usable), or the service has none. */
function settled(d: VendorDirectory | undefined): boolean {
  return d !== undefined && (d.outcome === 'absent' || d.readAt !== undefined);
}

export type VendorPort = Pick<SourcingPort, 'listVendors'>;

export interface VendorStore {
  /** What is stored, without reading the service. */
  stored(): Promise<VendorDirectory | undefined>;
  /** Read the service now and store what it said (a failure is stored too, keeping the vendors last read). */
  refresh(port: VendorPort): Promise<VendorDirectory>;
  /** With the poll: read again when the stored one is older than VENDOR_REFRESH_MS (or failed); never throws. */
  refreshIfStale(port: VendorPort, now?: number): Promise<VendorDirectory | undefined>;
  /**
   * For an ingest: what is stored, without waiting for the service. With nothing stored yet, a read starts in the
   * background (for the next file; the poll reads it too); never throws.
   */
  forIngest(port: VendorPort | undefined): Promise<VendorDirectory | undefined>;
  /**
   * For an ingest that must not go unchecked (CATEGORY_CHECK=hold): what is stored when it can be used (read, or the
   * service has none); else the directory is read now, waiting at most `waitMs` (for another worker's read too),
   * unless a read failed less than `waitMs` ago. Returns what is stored then: possibly still unreadable. Never throws.
   */
  forHold(port: VendorPort | undefined, waitMs: number): Promise<VendorDirectory | undefined>;
  /** The background read forIngest started last, if any (tests). */
  reading: Promise<unknown> | undefined;
}

export function vendorStore(o: { redis: Redis; keys: Pick<RedisKeys, 'key'>; logger: Logger }): VendorStore {
  const key = o.keys.key('vendors');
  const lockKey = o.keys.key('vendors', 'lock');
  const stored = async (): Promise<VendorDirectory | undefined> => {
    const raw = await o.redis.get(key);
    return raw ? (JSON.parse(raw) as VendorDirectory) : undefined;
  };
  const refresh = async (port: VendorPort): Promise<VendorDirectory> => {
    const before = await stored();
    const next = await readNow(port, before);
    await o.redis.set(key, JSON.stringify(next));
    say(o.logger, before, next);
    return next;
  };
  /** Refresh unless another worker is reading it right now; never throws. */
  const quietly = async (port: VendorPort): Promise<VendorDirectory | undefined> => {
    try {
      if ((await o.redis.set(lockKey, '1', 'PX', LOCK_MS, 'NX')) !== 'OK') return await stored();
      try {
        return await refresh(port);
      } finally {
        await o.redis.del(lockKey);
      }
    } catch (err) {
      o.logger.warn({ event: 'vendors.failed', err }, `the vendor directory could not be read: ${String(err)}`);
      return undefined;
    }
  };
  const store: VendorStore = {
    reading: undefined,
    stored,
    refresh,
    async refreshIfStale(port, now = Date.now()) {
      const cur = await stored().catch(() => undefined);
      const age = cur ? now - cur.fetchedAt : Infinity;
      if (cur && age < (cur.outcome === 'failed' ? FAILED_RETRY_MS : VENDOR_REFRESH_MS)) return cur;
      return quietly(port);
    },
    async forIngest(port) {
      const cur = await stored().catch(() => undefined);
      if (!cur && port) store.reading = quietly(port);
      return cur;
    },
    async forHold(port, waitMs) {
      const cur = await stored().catch(() => undefined);
      if (settled(cur) || !port) return cur;
      // a read that failed within the wait is not tried again: a burst of files while the service is down waits
      // once, not once per file (the poll tries again FAILED_RETRY_MS after a failure)
      if (cur?.outcome === 'failed' && Date.now() - cur.fetchedAt < waitMs) return cur;
      const deadline = Date.now() + waitMs;
      const signal = AbortSignal.timeout(waitMs);
      for (;;) {
        const got = await o.redis.set(lockKey, '1', 'PX', LOCK_MS, 'NX').catch(() => null);
        if (got === 'OK') {
          try {
            // read by the worker that held the lock just before: nothing to read again
            const landed = await stored();
            if (settled(landed)) return landed;
            return await refresh({ listVendors: (opts) => port.listVendors({ ...opts, signal }) });
          } catch (err) {
            o.logger.warn({ event: 'vendors.failed', err }, `the vendor directory could not be read: ${String(err)}`);
            return stored().catch(() => undefined);
          } finally {
            await o.redis.del(lockKey).catch(() => undefined);
          }
        }
        // another worker is reading it: wait for its outcome (or our deadline)
        await new Promise((r) => setTimeout(r, Math.min(LOCK_POLL_MS, Math.max(0, deadline - Date.now()))));
        const now = await stored().catch(() => undefined);
        if (settled(now) || (now && now.fetchedAt !== cur?.fetchedAt) || Date.now() >= deadline) return now;
      }
    },
  };
  return store;
}

async function readNow(port: VendorPort, before: VendorDirectory | undefined): Promise<VendorDirectory> {
  const now = Date.now();
  try {
    const got = await port.listVendors();
    if (got.outcome === 'absent')
      return {
        fetchedAt: now,
        outcome: 'absent',
        vendors: [],
        invalid: 0,
        detail: got.tried.map((t) => `GET ${t.path}: ${t.status}`).join(', '),
      };
    return {
      fetchedAt: now,
      outcome: 'ok',
      path: got.path,
      vendors: got.vendors,
      readAt: now,
      invalid: got.invalid.length,
    };
  } catch (err) {
    // what was read before stays in use: a directory that cannot be read now is no reason to stop anything
    return {
      fetchedAt: now,
      outcome: 'failed',
      ...(before?.path ? { path: before.path } : {}),
      vendors: before?.vendors ?? [],
      ...(before?.readAt !== undefined ? { readAt: before.readAt } : {}),
      invalid: before?.invalid ?? 0,
      detail: err instanceof Error ? err.message : String(err),
    };
  }
}

/** The log line of a read: absence said once (when first found), failures each time (at most every 10 minutes). */
function say(logger: Logger, before: VendorDirectory | undefined, d: VendorDirectory): void {
  if (d.outcome === 'absent') {
    if (before?.outcome !== 'absent')
      logger.info(
        { event: 'vendors.absent', detail: d.detail },
        `the sourcing service has no vendor directory (${d.detail}): categories are not checked and workbooks show no response rate`,
      );
    return;
  }
  if (d.outcome === 'failed') {
    logger.warn(
      { event: 'vendors.failed', detail: d.detail },
      `the vendor directory could not be read (${d.detail}); ${d.readAt !== undefined ? 'the one read before stays in use' : 'categories are not checked until it can be'}`,
    );
    return;
  }
  logger.info(
    { event: 'vendors.read', path: d.path, vendors: d.vendors.length, invalid: d.invalid },
    `vendor directory read from ${d.path}: ${d.vendors.length} vendors${d.invalid ? `, ${d.invalid} left out (they break the schema)` : ''}`,
  );
}
