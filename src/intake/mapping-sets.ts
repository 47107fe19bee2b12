/**
 * The mapping profiles each worker of an account uses. Workers that share an inbox must read a file the same way: a
 * worker whose MAPPINGS_DIR holds other profiles refuses a file another takes, or maps it differently, depending on
 * which one wins the rename. Each worker records the set it loaded (names and a hash of the YAML files) in Redis
 * (hash keys.key('mapping-sets'): worker -> JSON MappingSet) at start and every REFRESH_MS; differing sets among
 * the workers seen in the last STALE_MS are logged as a warning and shown by `status`.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import type { Logger } from '../logger.ts';
import type { RedisKeys } from '../redis/redis-keys.ts';

export interface MappingSet {
  worker: string;
  /** Profile files (names), sorted. */
  files: string[];
  /** sha256 of every file's name and bytes, 12 hex. */
  hash: string;
  at: number;
}

const REFRESH_MS = 5 * 60_000;
const STALE_MS = 15 * 60_000;

export async function mappingSetOf(dir: string, worker: string, now = Date.now()): Promise<MappingSet> {
  const files = (await readdir(dir).catch(() => [] as string[]))
    .filter((n) => /\.ya?ml$/i.test(n) && !n.startsWith('.'))
    .sort();
  const h = createHash('sha256');
  for (const f of files)
    h.update(f)
      .update('\0')
      .update(await readFile(join(dir, f)).catch(() => Buffer.alloc(0)))
      .update('\0');
  return { worker, files, hash: h.digest('hex').slice(0, 12), at: now };
}

/** The sets of the workers seen lately, grouped by hash; more than one group means they disagree. */
export async function currentMappingSets(redis: Redis, keys: RedisKeys, now = Date.now()): Promise<MappingSet[][]> {
  const all = Object.values(await redis.hgetall(keys.key('mapping-sets')))
    .map((v) => JSON.parse(v) as MappingSet)
    .filter((s) => now - s.at < STALE_MS);
  const groups = new Map<string, MappingSet[]>();
  for (const s of all) groups.set(s.hash, [...(groups.get(s.hash) ?? []), s]);
  return [...groups.values()];
}

export function describeMappingSets(groups: MappingSet[][]): string {
  return groups
    .map((g) => `${g.map((s) => s.worker).join(', ')}: ${g[0]!.files.join(' ')} (${g[0]!.hash})`)
    .join(' | ');
}

/** Record this worker's set now and every REFRESH_MS; warn when the account's workers disagree. */
export async function startMappingSetWatch(o: {
  redis: Redis;
  keys: RedisKeys;
  dir: string;
  logger: Logger;
  worker?: string;
}): Promise<{ stop(): void }> {
  const worker = o.worker ?? `${hostname()}:${process.pid}`;
  let warnedFor = '';
  const beat = async () => {
    const mine = await mappingSetOf(o.dir, worker);
    await o.redis.hset(o.keys.key('mapping-sets'), worker, JSON.stringify(mine));
    const groups = await currentMappingSets(o.redis, o.keys);
    const said = describeMappingSets(groups);
    if (groups.length > 1 && said !== warnedFor) {
      o.logger.warn(
        { event: 'mappings.differ', sets: groups },
        `workers of this account use different mapping profiles: a file may be refused by one and taken by another: ${said}`,
      );
    }
    warnedFor = groups.length > 1 ? said : '';
  };
  await beat();
  const timer = setInterval(() => void beat().catch(() => undefined), REFRESH_MS);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      void o.redis.hdel(o.keys.key('mapping-sets'), worker).catch(() => undefined);
    },
  };
}
