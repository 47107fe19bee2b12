/**
 * Lost Redis state, detected. Every exactly-once record lives in Redis; a FLUSHALL, or a restart of a Redis without
 * persistence, empties it silently, and the next claim of a requisition whose RFQ exists would post it again.
 *
 * An epoch marker is kept in two places: in Redis (keys.key('epoch')) and in the data folder
 * (`<RFQ_SYNC_DIR>/.rfq-sync/epoch-<account>.json`). Both are written together the first time a worker of the account
 * starts. From then on:
 *   - both present and equal: the state is the one the data folder knows;
 *   - the file present, the Redis key missing or different: Redis lost (or was swapped for) its state. Creation is
 *     paused (the create-rfq queue, and every create job checks before it claims), `state-lost` is written in Redis
 *     so `status` and every worker see it, /readyz says it, and the log says how to recover (`rfq-sync recover`);
 *   - the Redis key present and no file: a new data folder for this Redis: the file is written.
 * A worker checks at start and every STATE_CHECK_MS (default 15 s), so a loss is seen within that time. Redis
 * unreachable is not a loss (nothing can be claimed then anyway).
 * `renew()` (after `rfq-sync recover`) writes a new epoch to both places and lifts the pause.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { writeFileAtomically, type Logger } from '../core/index.ts';
import type { RedisKeys } from './redis-keys.ts';

export interface LostState {
  /** Unix ms when a worker first saw it. */
  detectedAt: number;
  reason: string;
}

export interface StateEpoch {
  /** Compare the two markers (writing them on first use); on a loss, pause creation and say so. */
  check(): Promise<'ok' | 'lost' | 'unknown'>;
  /** The loss this process knows of (from its own check or another worker's `state-lost`). */
  lost(): LostState | undefined;
  /** Check every `intervalMs` until stop(). */
  start(intervalMs: number): void;
  stop(): void;
  /** A new epoch in Redis and in the data folder; the loss is cleared and creation resumed. */
  renew(): Promise<void>;
}

export interface StateEpochOptions {
  redis: Redis;
  keys: RedisKeys;
  /** RFQ_SYNC_DIR: the data folder the Redis state belongs to. */
  dataDir: string;
  account: string;
  logger: Logger;
  /** Pause and resume creation (the create-rfq queue's global pause). */
  pauseCreation(): Promise<void>;
  resumeCreation(): Promise<void>;
}

/** The key in Redis that says the state was lost (JSON LostState), kept until `recover` renews the epoch. */
export const lostStateKey = (keys: RedisKeys): string => keys.key('state-lost');

export function epochFile(dataDir: string, account: string): string {
  return join(dataDir, '.rfq-sync', `epoch-${account.replace(/[^A-Za-z0-9_.-]/g, '_')}.json`);
}

/** What Redis says about a loss, for `status` (no data folder needed). */
export async function readLostState(redis: Redis, keys: RedisKeys): Promise<LostState | undefined> {
  const raw = await redis.get(lostStateKey(keys));
  return raw ? (JSON.parse(raw) as LostState) : undefined;
}

export function createStateEpoch(o: StateEpochOptions): StateEpoch {
  const key = o.keys.key('epoch');
  const file = epochFile(o.dataDir, o.account);
  let known: LostState | undefined;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<'ok' | 'lost' | 'unknown'> | undefined;

  const readFileEpoch = async (): Promise<string | undefined> => {
    try {
      return (JSON.parse(await readFile(file, 'utf8')) as { epoch?: string }).epoch;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
  };
  const writeFileEpoch = async (epoch: string) => {
    await mkdir(join(o.dataDir, '.rfq-sync'), { recursive: true });
    await writeFileAtomically(
      file,
      `${JSON.stringify({ epoch, account: o.account, key, writtenAt: new Date().toISOString() }, null, 2)}\n`,
    );
  };

  const declareLost = async (reason: string) => {
    const lost: LostState = { detectedAt: Date.now(), reason };
    // the first worker to see it records it; the others read the same record
    await o.redis.set(lostStateKey(o.keys), JSON.stringify(lost), 'NX');
    known = (await readLostState(o.redis, o.keys)) ?? lost;
    await o.pauseCreation();
    o.logger.error(
      { event: 'state.lost', reason, file },
      `Redis lost its state (${reason}): creation of RFQs is paused so nothing is posted twice. Recover with ` +
        '`rfq-sync recover --since <when the loss may have begun>` (it reconciles every requisition of the files archived since then before any post)',
    );
  };

  const checkOnce = async (): Promise<'ok' | 'lost' | 'unknown'> => {
    let inRedis: string | null;
    let flagged: LostState | undefined;
    try {
      [inRedis, flagged] = await Promise.all([o.redis.get(key), readLostState(o.redis, o.keys)]);
    } catch {
      return 'unknown'; // Redis unreachable: not a loss
    }
    if (flagged) {
      if (!known) {
        known = flagged;
        await o.pauseCreation().catch(() => undefined);
      }
      return 'lost';
    }
    const inFile = await readFileEpoch();
    if (inFile !== undefined && inRedis !== inFile) {
      if (!known)
        await declareLost(
          inRedis === null
            ? `the epoch marker of ${file} is not in Redis`
            : `Redis holds epoch ${inRedis}, the data folder ${inFile}`,
        );
      return 'lost';
    }
    if (inFile === undefined) {
      // first start, or a new data folder: Redis's epoch (made now when it has none) goes to the file
      const epoch = randomUUID();
      await o.redis.set(key, epoch, 'NX');
      await writeFileEpoch((await o.redis.get(key)) ?? epoch);
    }
    known = undefined;
    return 'ok';
  };

  return {
    check() {
      running ??= checkOnce().finally(() => (running = undefined));
      return running;
    },
    lost: () => known,
    start(intervalMs) {
      timer ??= setInterval(() => {
        this.check().catch((err: unknown) =>
          o.logger.warn({ err, event: 'state.check-failed' }, `state epoch check failed: ${(err as Error).message}`),
        );
      }, intervalMs);
      timer.unref();
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
    },
    async renew() {
      const epoch = randomUUID();
      await o.redis.set(key, epoch);
      await writeFileEpoch(epoch);
      await o.redis.del(lostStateKey(o.keys));
      known = undefined;
      await o.resumeCreation();
      o.logger.info({ event: 'state.renewed', epoch }, 'state epoch renewed: creation resumed');
    },
  };
}
