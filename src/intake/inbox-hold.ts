/**
 * A file held in the inbox until something outside it changes (a broken profile fixed: held-files.ts; the vendor
 * directory read: category-held-files.ts). One mechanism for every reason: the file goes back to the inbox, its
 * record (inbox name -> JSON, in a hash of the reason's own key family) holds its size and mtime, and the ledger lets its bytes
 * be read again. The inbox watcher leaves a held file alone while it is unchanged and its reason still applies; a
 * file of the same name with another size or mtime is a new file. `status` lists the held files.
 */
import type { Stats } from 'node:fs';
import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import type { Logger } from '../core/index.ts';
import type { RedisKeys } from '../redis/index.ts';
import { returnToInbox, type FileFolders } from './file-mover.ts';
import type { FileLedger } from './file-ledger.ts';
import type { ProcessingName } from '../queues/index.ts';

/** What every held file's record carries; each reason adds its own fields. */
/** What every hold needs of the file being read: where it is, its bytes' ledger entry and its report's name. */
export interface HoldInput {
  redis: Redis;
  keys: Pick<RedisKeys, 'key'>;
  log: Logger;
  folders: FileFolders;
  ledger: FileLedger;
  file: ProcessingName;
  sha256: string;
  report: string;
}

export interface InboxHold {
  /** Its name in the inbox now. */
  inboxName: string;
  /** Its name as dropped. */
  file: string;
  sha256: string;
  size: number;
  mtimeMs: number;
  at: number;
  /** Its report in outbox/reports/. */
  report: string;
}

type Keys = Pick<RedisKeys, 'key'>;

/** The store of one reason's held files; `heldKey` names its hash (built by the owner of the key family). */
export function inboxHolds<T extends InboxHold>(heldKey: (keys: Keys) => string) {
  return {
    /**
     * Back to the inbox, recorded as held, then the ledger lets its bytes be read again (its report written before
     * by the caller). A crash before the record only means the file is taken (and held) once more.
     */
    async hold(
      o: {
        redis: Redis;
        keys: Keys;
        folders: FileFolders;
        ledger: FileLedger;
        file: ProcessingName;
        sha256: string;
        report: string;
      },
      fields: Omit<T, keyof InboxHold>,
    ): Promise<T> {
      const inboxName = await returnToInbox(o.folders, o.file);
      const st = await lstat(join(o.folders.inbox, inboxName));
      const base: InboxHold = {
        inboxName,
        file: o.file.original,
        sha256: o.sha256,
        size: st.size,
        mtimeMs: st.mtimeMs,
        at: Date.now(),
        report: o.report,
      };
      const held = { ...base, ...fields } as T;
      await o.redis.hset(heldKey(o.keys), inboxName, JSON.stringify(held));
      await o.ledger.release(o.sha256, o.file.name);
      return held;
    },

    /**
     * Whether the inbox file `name` (as `st` shows it) is held and must be left alone: recorded, unchanged, and
     * `applies` (its reason) still true. A record that no longer applies is removed. When Redis cannot be asked,
     * the file is not held: taken, it is held again if it must be.
     */
    async stillHeld(
      ctx: { redis: Redis; keys: Keys },
      name: string,
      st: Pick<Stats, 'size' | 'mtimeMs'>,
      applies: (held: T) => Promise<boolean>,
    ): Promise<boolean> {
      // Redis down: the file is taken into processing/ as ever (queued once Redis answers), never kept waiting here.
      if (ctx.redis.status !== 'ready') return false;
      try {
        const raw = await ctx.redis.hget(heldKey(ctx.keys), name);
        if (raw === null) return false;
        const held = JSON.parse(raw) as T;
        if (held.size === st.size && held.mtimeMs === st.mtimeMs && (await applies(held))) return true;
        await ctx.redis.hdel(heldKey(ctx.keys), name);
      } catch {
        // Redis went away meanwhile: take the file (held again if it must be)
      }
      return false;
    },

    /** The files held now, oldest first (a record whose file left the inbox, or was replaced, is not one). */
    async list(redis: Redis, keys: Keys, inbox: string): Promise<T[]> {
      const out: T[] = [];
      for (const [name, raw] of Object.entries(await redis.hgetall(heldKey(keys)))) {
        const held = JSON.parse(raw) as T;
        const st = await lstat(join(inbox, name)).catch(() => undefined);
        if (st && st.size === held.size && st.mtimeMs === held.mtimeMs) out.push(held);
      }
      return out.sort((a, b) => a.at - b.at);
    },
  };
}
