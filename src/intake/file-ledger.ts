/**
 * The file ledger: which bytes (sha256) were already taken, from which file, and whether they were processed.
 * One Redis hash (keys.fileLedger, namespaced per account), field = sha256, value = JSON of a LedgerEntry.
 *
 * - `claim` is HSETNX: of all the files holding the same bytes, exactly one becomes the owner (identified by its
 *   unique name in processing/); every other one is a duplicate, archived with a report naming the owner.
 * - The entry is `processing` until the owner's ingest job has archived the file, then `done` (final). A crash
 *   between the take and the ingest leaves a `processing` entry whose owner is still in processing/: recovery
 *   re-enqueues it (claim answers `own` for the same name).
 * - A refused file (unreadable, no mapping fits) is `release`d: the same bytes dropped again, after IT fixed the
 *   mapping, are read again instead of being called duplicates of a failure.
 * - An owner that vanished (removed by hand from processing/) would make its bytes duplicates forever: the next
 *   file with them `takeOver`s the entry instead.
 * markDone, release and takeOver change the entry only when it still belongs to the given owner (Lua, atomic).
 */
import type { Redis } from 'ioredis';
import { z } from 'zod';
import { UnexpectedError } from '../core/index.ts';
import { defineScript, loadScript, type ScriptCaller } from '../redis/index.ts';

const entrySchema = z.object({
  state: z.enum(['processing', 'done']),
  /** Name of the file in processing/ (then archive/) that owns these bytes. */
  owner: z.string(),
  /** Its name as dropped in the inbox. */
  name: z.string(),
  /** When it was taken (ms, UTC). */
  seenAt: z.number(),
  /** When its processing finished (ms, UTC). */
  doneAt: z.number().optional(),
  /** The report written for it (file name in outbox/reports/). */
  report: z.string().optional(),
});
export type LedgerEntry = z.infer<typeof entrySchema>;

export type ClaimOutcome =
  | { outcome: 'claimed'; entry: LedgerEntry }
  /** The entry already belongs to this very file (recovery, or a second enqueue after a crash). */
  | { outcome: 'own'; entry: LedgerEntry }
  /** Another file with the same bytes owns the entry. */
  | { outcome: 'duplicate'; entry: LedgerEntry };

/** 1 changed; 0 no entry; -1 another owner (or an unreadable entry); -2 not in the required state. */
const UPDATE_IF_OWNER = loadScript<1 | 0 | -1 | -2>('ledgerUpdateIfOwner-1.lua');

export class FileLedger {
  private readonly redis: Redis;
  private readonly key: string;
  private readonly updateIfOwner: ScriptCaller<1 | 0 | -1 | -2>;

  constructor(redis: Redis, key: string) {
    this.redis = redis;
    this.key = key;
    this.updateIfOwner = defineScript(redis, UPDATE_IF_OWNER);
  }

  async get(sha256: string): Promise<LedgerEntry | undefined> {
    const raw = await this.redis.hget(this.key, sha256);
    return raw === null ? undefined : parseEntry(raw);
  }

  /** Atomically become the owner of these bytes, or learn who is. */
  async claim(sha256: string, file: { owner: string; name: string; seenAt: number }): Promise<ClaimOutcome> {
    const mine: LedgerEntry = { state: 'processing', owner: file.owner, name: file.name, seenAt: file.seenAt };
    // A release may slip in between HSETNX and HGET (the owner was refused meanwhile): then claim again.
    for (let i = 0; i < 5; i++) {
      if ((await this.redis.hsetnx(this.key, sha256, JSON.stringify(mine))) === 1)
        return { outcome: 'claimed', entry: mine };
      const cur = await this.get(sha256);
      if (cur) return { outcome: cur.owner === file.owner ? 'own' : 'duplicate', entry: cur };
    }
    throw new UnexpectedError(`file ledger: could not claim ${sha256} (entry keeps appearing and disappearing)`);
  }

  /** Final: the owner was processed and archived. False when the entry is gone or belongs to another file. */
  async markDone(sha256: string, owner: string, extra: { doneAt: number; report?: string }): Promise<boolean> {
    const cur = await this.get(sha256);
    if (!cur || cur.owner !== owner) return false;
    if (cur.state === 'done') return true;
    const next: LedgerEntry = {
      ...cur,
      state: 'done',
      doneAt: extra.doneAt,
      ...(extra.report ? { report: extra.report } : {}),
    };
    return (await this.update(sha256, owner, JSON.stringify(next))) === 1;
  }

  /** Replace an owner that vanished (see inbox-intake.ts) by another file; false when the entry changed meanwhile. */
  async takeOver(
    sha256: string,
    previousOwner: string,
    file: { owner: string; name: string; seenAt: number },
  ): Promise<boolean> {
    const next: LedgerEntry = { state: 'processing', owner: file.owner, name: file.name, seenAt: file.seenAt };
    return (await this.update(sha256, previousOwner, JSON.stringify(next), 'processing')) === 1;
  }

  /** Forget the bytes (the owner was refused), so the same bytes may be read again later. */
  async release(sha256: string, owner: string): Promise<boolean> {
    return (await this.update(sha256, owner, '')) === 1;
  }

  private async update(sha256: string, owner: string, json: string, requiredState = ''): Promise<number> {
    return this.updateIfOwner([this.key], [sha256, owner, json, requiredState]);
  }
}

function parseEntry(raw: string): LedgerEntry {
  try {
    return entrySchema.parse(JSON.parse(raw));
  } catch (err) {
    throw new UnexpectedError(`file ledger: unreadable entry ${raw.slice(0, 200)}`, { cause: err });
  }
}
