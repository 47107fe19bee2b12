/**
 * One intake per data folder. The ingest queue is shared by every worker of the account, but a taken file lives in
 * one processing/ folder: a worker whose processing/ is another one would run jobs for files it does not have, and
 * those files (their requisitions) would be lost. So:
 *   - the data folder (RFQ_SYNC_DIR) gets an identity: a marker file (`.rfq-sync/folder.json`, beside the state
 *     epoch, a random id made once, with O_EXCL so two hosts sharing the folder agree on one);
 *   - Redis records which folder identity does intake for the account (`intake:folder`, set by the first intake
 *     worker: SET NX);
 *   - a worker doing intake in another folder refuses to start (ConfigError: exit 2, both paths and hosts named);
 *     INTAKE=off runs a worker without intake (no inbox, no ingest jobs) on a host without the share;
 *   - `rfq-sync intake --take-over` moves intake to this folder for good (a host replaced, the share moved).
 * The marker is in the data folder, not in processing/ (whose emptiness IT reads as "nothing stuck"): hosts that share
 * intake share RFQ_SYNC_DIR (docs/operations.md#several-workers-several-hosts); folders put on a share one by one,
 * with RFQ_SYNC_DIR left local, are refused: loudly, never silently.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import type { Redis } from 'ioredis';
import type { Folders } from '../settings/index.ts';
import { ConfigError, type Logger } from '../core/index.ts';
import type { RedisKeys } from '../redis/index.ts';

/** The marker, relative to the data folder. */
export const FOLDER_MARKER = join('.rfq-sync', 'folder.json');

/** A data folder as one host sees it: its identity (shared by every host that mounts it), the host and the path. */
export interface IntakeFolder {
  /** The identity in the folder's marker file. */
  id: string;
  host: string;
  /** The data folder (RFQ_SYNC_DIR) on that host. */
  path: string;
  /** Unix ms: when the folder began intake for the account (in the Redis record). */
  since?: number;
}

const intakeKey = (keys: RedisKeys): string => keys.key('intake', 'folder');

/** The identity in a data folder's marker; undefined when it has none yet. */
export async function folderId(dataDir: string): Promise<string | undefined> {
  try {
    const id = (JSON.parse(await readFile(join(dataDir, FOLDER_MARKER), 'utf8')) as { id?: unknown }).id;
    return typeof id === 'string' && id.length > 0 ? id : undefined;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/** This host's data folder: the identity in its marker, made now when the folder has none. */
export async function thisFolder(dataDir: string): Promise<IntakeFolder> {
  const file = join(dataDir, FOLDER_MARKER);
  const read = () => folderId(dataDir);
  let id = await read();
  if (!id) {
    await mkdir(dirname(file), { recursive: true });
    const made = randomUUID();
    const marker = { id: made, createdAt: new Date().toISOString(), host: hostname(), path: dataDir };
    try {
      // `wx`: a host sharing this folder that made one first wins; its id is read back below
      await writeFile(file, `${JSON.stringify(marker, null, 2)}\n`, { flag: 'wx' });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    id = (await read()) ?? made;
  }
  return { id, host: hostname(), path: dataDir };
}

/** Which folder does intake for the account, as Redis records it (undefined before the first intake worker). */
export async function readIntakeFolder(redis: Redis, keys: RedisKeys): Promise<IntakeFolder | undefined> {
  const raw = await redis.get(intakeKey(keys));
  return raw ? (JSON.parse(raw) as IntakeFolder) : undefined;
}

const short = (id: string) => id.slice(0, 8);
export const describeFolder = (f: IntakeFolder): string => `${f.path} on host ${f.host} (folder ${short(f.id)})`;

/** What a worker whose folder is not the intake folder can do. */
export const WORKER_WAYS_OUT =
  'Mount the same data folder here (RFQ_SYNC_DIR on the share), or set INTAKE=off on this worker (it then creates ' +
  'RFQs, polls and writes outputs only), or move intake to this folder for good with `rfq-sync intake --take-over` ' +
  '(docs/operations.md#several-workers-several-hosts).';

/** The refusal of a worker (or `rfq-sync ingest`) whose folder is not the intake folder: both folders, the ways out. */
export function notTheIntakeFolder(
  account: string,
  mine: IntakeFolder,
  holder: IntakeFolder,
  waysOut = WORKER_WAYS_OUT,
): ConfigError {
  const since = holder.since ? ` since ${new Date(holder.since).toISOString()}` : '';
  return new ConfigError([
    `INTAKE: the data folder here, ${describeFolder(mine)}, is not the one that does intake for ` +
      `account ${account}: that is ${describeFolder(holder)}${since}. Two data folders would each take their own ` +
      "inbox's files while either worker runs the other's ingest jobs: those files and their requisitions would be " +
      `lost. ${waysOut}`,
  ]);
}

/** What the intake-folder checks read: the account and the data folder (RFQ_SYNC_DIR). */
export interface IntakeFolderConfig {
  account: string;
  folders: Pick<Folders, 'root'>;
}

/** Refuses (ConfigError) when another folder does intake for the account; none recorded yet is fine. */
export async function assertIntakeFolder(
  ctx: {
    config: IntakeFolderConfig;
    redis: Redis;
    keys: RedisKeys;
  },
  waysOut?: string,
): Promise<void> {
  const holder = await readIntakeFolder(ctx.redis, ctx.keys);
  if (!holder) return;
  const mine = await thisFolder(ctx.config.folders.root);
  if (mine.id !== holder.id) throw notTheIntakeFolder(ctx.config.account, mine, holder, waysOut);
}

/**
 * Before a worker takes files: this folder does intake for the account (recorded now when no folder does), or the
 * worker refuses to start (ConfigError naming both folders).
 */
export async function claimIntake(ctx: {
  config: IntakeFolderConfig;
  logger: Logger;
  redis: Redis;
  keys: RedisKeys;
}): Promise<IntakeFolder> {
  const mine = await thisFolder(ctx.config.folders.root);
  const record: IntakeFolder = { ...mine, since: Date.now() };
  if ((await ctx.redis.set(intakeKey(ctx.keys), JSON.stringify(record), 'NX')) === 'OK') {
    ctx.logger.info(
      { event: 'intake.claimed', folder: mine.id, path: mine.path },
      `intake: this data folder (${describeFolder(mine)}) now does intake for account ${ctx.config.account}`,
    );
    return record;
  }
  const holder = await readIntakeFolder(ctx.redis, ctx.keys);
  if (!holder || holder.id === mine.id) return holder ?? record;
  throw notTheIntakeFolder(ctx.config.account, mine, holder);
}

/** `rfq-sync intake --take-over`: this folder does intake from now on; the folder that did it before is returned. */
export async function takeOverIntake(ctx: {
  config: IntakeFolderConfig;
  redis: Redis;
  keys: RedisKeys;
}): Promise<{ now: IntakeFolder; before: IntakeFolder | undefined }> {
  const mine = await thisFolder(ctx.config.folders.root);
  const now: IntakeFolder = { ...mine, since: Date.now() };
  const before = await ctx.redis.set(intakeKey(ctx.keys), JSON.stringify(now), 'GET');
  return { now, before: before ? (JSON.parse(before) as IntakeFolder) : undefined };
}
