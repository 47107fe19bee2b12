/**
 * The mapping profiles each worker of an account uses. Workers that share an inbox must read a file the same way: a
 * worker whose MAPPINGS_DIR holds other profiles refuses a file another takes, or maps it differently, depending on
 * which one wins the rename. Each worker records the set it loaded (names, a hash of the YAML files and the broken
 * profiles) in Redis (hash keys.key('mapping-sets'): worker -> JSON MappingSet) at start, whenever the folder
 * changes and every REFRESH_MS; differing sets among the workers seen in the last STALE_MS are logged as a warning
 * and shown by `status`.
 *
 * The folder is looked at every MAPPINGS_CHECK_MS: each change is a reload, said in the log (every broken profile
 * with its reason, at start and at each reload; that they are fixed), and `onChange` runs (the inbox is swept, so
 * files held for a broken profile are taken once it is fixed: held-files.ts).
 */
import { hostname } from 'node:os';
import type { Redis } from 'ioredis';
import { loadProfileCatalog } from '../ingest/index.ts';
import type { Logger } from '../core/index.ts';
import type { RedisKeys } from '../redis/index.ts';

export interface MappingSet {
  worker: string;
  /** Profile files (names), sorted. */
  files: string[];
  /** sha256 of every file's name and bytes, 12 hex. */
  hash: string;
  at: number;
  /** The profiles that do not load, skipped (absent from sets recorded before they were reported). */
  broken?: Array<{ name: string; file: string; reason: string }>;
}

const REFRESH_MS = 5 * 60_000;
const STALE_MS = 15 * 60_000;

export async function mappingSetOf(dir: string, worker: string, now = Date.now()): Promise<MappingSet> {
  try {
    const c = await loadProfileCatalog(dir);
    const broken = c.broken.map(({ name, file, reason }) => ({ name, file, reason }));
    return { worker, files: c.files, hash: c.hash, at: now, broken };
  } catch (err) {
    // the folder itself cannot be read or is empty: no profile works
    const reason = (err as Error).message;
    return { worker, files: [], hash: '', at: now, broken: [{ name: '(all)', file: dir, reason }] };
  }
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

/** The profiles of the mapping folder as this worker last loaded them. */
export interface MappingWatch {
  broken(): NonNullable<MappingSet['broken']>;
  stop(): void;
}

/** Record this worker's set now, at each change of the folder and every REFRESH_MS; say what is broken. */
export async function startMappingSetWatch(o: {
  redis: Redis;
  keys: RedisKeys;
  dir: string;
  logger: Logger;
  worker?: string;
  /** How often the folder is looked at, ms (MAPPINGS_CHECK_MS). Default REFRESH_MS. */
  checkMs?: number;
  /** After a reload (the folder changed since the last look). */
  onChange?: () => void;
}): Promise<MappingWatch> {
  const worker = o.worker ?? `${hostname()}:${process.pid}`;
  let warnedFor = '';
  let mine: MappingSet | undefined;
  let recordedAt = 0;
  const look = async () => {
    const next = await mappingSetOf(o.dir, worker);
    const changed = next.hash !== mine?.hash;
    if (changed) sayReload(o.logger, next, mine);
    const first = mine === undefined;
    mine = next;
    if (changed || Date.now() - recordedAt >= REFRESH_MS) {
      recordedAt = Date.now();
      await record(next);
    }
    if (changed && !first) o.onChange?.();
  };
  const record = async (set: MappingSet) => {
    await o.redis.hset(o.keys.key('mapping-sets'), worker, JSON.stringify(set));
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
  await look();
  const timer = setInterval(() => void look().catch(() => undefined), o.checkMs ?? REFRESH_MS);
  timer.unref();
  return {
    broken: () => mine?.broken ?? [],
    stop() {
      clearInterval(timer);
      void o.redis.hdel(o.keys.key('mapping-sets'), worker).catch(() => undefined);
    },
  };
}

/** At start and at each reload: every broken profile with its reason, or that the broken ones are fixed. */
function sayReload(logger: Logger, now: MappingSet, before: MappingSet | undefined): void {
  const broken = now.broken ?? [];
  for (const b of broken)
    logger.error(
      { event: 'mappings.broken', profile: b.name, file: b.file, reason: b.reason },
      `mapping profile "${b.name}" is broken and skipped (the others work): ${b.reason}; a file only it could take is held in the inbox until it is fixed`,
    );
  const fixed = (before?.broken ?? []).filter((b) => !broken.some((x) => x.file === b.file));
  logger.info(
    {
      event: before ? 'mappings.reloaded' : 'mappings.loaded',
      files: now.files,
      broken: broken.length,
      fixed: fixed.map((f) => f.name),
    },
    `mapping profiles ${before ? 'reloaded' : 'loaded'}: ${now.files.length - broken.length} of ${now.files.length} work${fixed.length > 0 ? `; fixed: ${fixed.map((f) => `"${f.name}"`).join(', ')}` : ''}${broken.length > 0 ? `; broken: ${broken.map((f) => `"${f.name}"`).join(', ')}` : ''}`,
  );
}
