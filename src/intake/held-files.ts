/**
 * Files held in the inbox for a broken mapping profile (src/ingest/broken-profiles.ts): only that profile could take
 * the file, so it is neither read with another profile nor refused. The ingest job puts it back in the inbox with a
 * report naming the profile and why it is broken, and records it in Redis (hash keys.key('held-files'): inbox name
 * -> JSON HeldFile). The inbox watcher leaves a held file alone while the mapping folder is as it was when the file
 * was held (same hash); once the folder changes (the profile fixed, or another one added) the file is taken again,
 * and held again only if still nothing else can take it. A file of the same name with another size or mtime is a
 * new file. `status` lists the held files.
 */
import type { Stats } from 'node:fs';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import type { ProfileBrokenError } from '../core/index.ts';
import { mappingFolderHash } from '../ingest/index.ts';
import type { RedisKeys } from '../redis/index.ts';
import { inboxHolds, type HoldInput, type InboxHold } from './inbox-hold.ts';
import { writeFileNoticeReport } from './file-report.ts';

export interface HeldFile extends InboxHold {
  /** The broken profiles it waits for. */
  profiles: Array<{ name: string; file: string; reason: string }>;
  /** The mapping folder's hash when it was held: a change of the folder lets the file be taken again. */
  mappingsHash: string;
}

type Keys = Pick<RedisKeys, 'key'>;
const holds = inboxHolds<HeldFile>((keys: Keys) => keys.key('held-files'));

/**
 * Back to the inbox with a report naming the broken profile, recorded as held; the ledger lets its bytes be read
 * again. Report first, move, then the record: a crash before the record only means the file is read (and held) once
 * more.
 */
export async function holdInInbox(
  o: HoldInput & {
    err: ProfileBrokenError;
    mappingsHash: string;
  },
): Promise<HeldFile> {
  const { file, err } = o;
  const names = err.profiles.map((p) => `"${p.name}"`).join(', ');
  await writeFileNoticeReport(join(o.folders.reports, o.report), {
    file: file.original,
    status: 'held',
    sha256: o.sha256,
    notes: [
      `The file was not read: only the mapping profile ${names} could take it, and it is broken. It is back in the inbox and is read as soon as the profile is fixed; nothing was created from it.`,
      ...err.profiles.map((p) => `Broken profile ${p.name}: ${p.reason}`),
    ],
  });
  const held = await holds.hold(o, { profiles: [...err.profiles], mappingsHash: o.mappingsHash });
  const { inboxName } = held;
  o.log.warn(
    { event: 'file.held', inboxName, profiles: err.profiles, report: o.report },
    `ingest: ${file.original} held in the inbox as ${inboxName}: only the broken mapping profile ${names} could take it; it is read once the profile is fixed (report outbox/reports/${o.report})`,
  );
  return held;
}

/**
 * Whether the inbox file `name` (as `st` shows it) is held and must be left alone: recorded, unchanged, and the
 * mapping folder as it was. A record that no longer applies is removed. When Redis cannot be asked, the file is not
 * held: taken, it is read and held again if it must be.
 */
export async function stillHeld(
  ctx: { redis: Redis; keys: Keys; config: { folders: { mappings: string } } },
  name: string,
  st: Pick<Stats, 'size' | 'mtimeMs'>,
): Promise<boolean> {
  return holds.stillHeld(ctx, name, st, async (held) => {
    const hash = await mappingFolderHash(ctx.config.folders.mappings).catch(() => '');
    return hash === held.mappingsHash;
  });
}

/** The files held now, oldest first (a record whose file left the inbox, or was replaced, is not one). */
export function listHeldFiles(redis: Redis, keys: Keys, inbox: string): Promise<HeldFile[]> {
  return holds.list(redis, keys, inbox);
}
