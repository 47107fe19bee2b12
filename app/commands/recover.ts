/**
 * `rfq-sync recover --since WHEN`: after Redis lost its state (src/redis/state-epoch.ts), bring every requisition
 * of the files taken since WHEN (archive/ and processing/) back to exactly one RFQ. First the audit log: a
 * requisition whose create it recorded is recorded again with that RFQ and tracked, without a walk of the service
 * (app/commands/recover-audit.ts). Each other requisition without a record is seeded as `creating` (its RFQ may exist) and
 * queued: the worker reconciles it (walk of the account, match by
 * external_id or by the fingerprint of what it would post) before any post, adopting what exists and posting only
 * what does not. Requisitions that still have a record are left alone. Then the epoch is renewed in Redis and in the
 * data folder, and creation resumes.
 * Files are read as their ingest read them: the take time in their name is the ingest's "now" (default due dates),
 * and the profile is detected again (a mapping forced per job is not known here).
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Config } from '../../src/settings/index.ts';
import { ConfigError, RfqSyncError, type Logger, type Requisition } from '../../src/core/index.ts';
import { ingestFile, loadProfiles } from '../../src/ingest/index.ts';
import {
  postedBodyOf,
  createIdempotencyStore,
  type IdempotencyStore,
  contentHashOf,
} from '../../src/creation/index.ts';
import { toCreateRfqRequest } from '../../src/requisitions/index.ts';
import { enqueueCreateRfq, parseProcessingName } from '../../src/queues/index.ts';
import { createStateEpoch, readLostState } from '../../src/redis/index.ts';
import { EXIT_FAILED, EXIT_OK } from '../cli-support.ts';
import { withReadContext, type ReadContext } from './context.ts';
import { reseedFromAudit, rfqsInAuditLog, type KnownRfq } from './recover-audit.ts';

/** `--since`: an ISO date (midnight UTC) or date-time with its zone (Z or +hh:mm); anything else is refused. */
export function parseSince(text: string): Date {
  const m = /^\d{4}-\d{2}-\d{2}$/.test(text)
    ? `${text}T00:00:00Z`
    : /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(text)
      ? text
      : undefined;
  const d = m === undefined ? NaN : Date.parse(m);
  if (!Number.isFinite(d))
    throw new ConfigError([
      `--since: "${text}" is not a date (2026-11-24) or a date-time with its zone (2026-11-24T08:00:00+01:00)`,
    ]);
  return new Date(d);
}

export interface RecoverSummary {
  files: number;
  seeded: number;
  recorded: number;
  /** Recorded again with the RFQ the audit log knows (app/commands/recover-audit.ts): no reconcile needed. */
  fromLog: number;
  conflicts: string[];
  unreadable: string[];
}

export async function runRecoverCommand(
  config: Config,
  logger: Logger,
  o: { since: Date },
  out: (line: string) => void,
): Promise<number> {
  return withReadContext(config, logger, 'recover', async (ctx) => {
    const lost = await readLostState(ctx.redis, ctx.keys);
    out(
      lost
        ? `Redis lost its state (seen ${new Date(lost.detectedAt).toISOString()}: ${lost.reason})`
        : 'no loss of Redis state is recorded; recovering anyway (requisitions with a record are left alone)',
    );
    const store = createIdempotencyStore(ctx.redis, ctx.keys);
    const profiles = await loadProfiles(config.folders.mappings);
    const summary: RecoverSummary = { files: 0, seeded: 0, recorded: 0, fromLog: 0, conflicts: [], unreadable: [] };
    // what the audit log recorded, read before anything is queued: no walk of the service for what it knows
    const known = await rfqsInAuditLog(config.folders.root);
    out(`the audit log knows the RFQ of ${known.size} requisition(s)`);

    const taken: Array<{ dir: string; name: string; original: string; takenAt: number }> = [];
    for (const dir of [config.folders.archive, config.folders.processing]) {
      for (const name of await readdir(dir).catch(() => [] as string[])) {
        const p = parseProcessingName(name);
        if (p && p.takenAt >= o.since.getTime()) taken.push({ dir, name, original: p.original, takenAt: p.takenAt });
      }
    }
    taken.sort((a, b) => a.takenAt - b.takenAt);
    out(`${taken.length} file(s) taken since ${o.since.toISOString()}`);

    for (const f of taken) {
      const requisitions: Requisition[] = [];
      try {
        await ingestFile(
          join(f.dir, f.name),
          {
            profiles,
            limits: {
              maxFileBytes: config.MAX_FILE_BYTES,
              maxXlsxUncompressedBytes: config.MAX_XLSX_UNCOMPRESSED_BYTES,
              maxXlsxEntries: config.MAX_XLSX_ENTRIES,
              maxInMemoryBytes: config.MAX_IN_MEMORY_READ_BYTES,
            },
            now: new Date(f.takenAt),
            displayName: f.original,
          },
          async (r) => void requisitions.push(r),
        );
      } catch (err) {
        if (!(err instanceof RfqSyncError) || err.kind !== 'data') throw err;
        summary.unreadable.push(`${f.name}: ${err.message}`);
        out(`  ${f.name}: not read: ${err.message}`);
        continue;
      }
      summary.files++;
      const n = { seeded: 0, recorded: 0, fromLog: 0 };
      for (const r of requisitions) {
        const res = await seedOne(ctx, store, r, known);
        if (res.status === 'conflict')
          summary.conflicts.push(
            `${r.profile}/${r.key} (${f.original}): ${res.conflicts.map((c) => `${c.externalId} held by ${c.heldBy}`).join(', ')}`,
          );
        else n[res.status]++;
      }
      const { seeded, recorded, fromLog } = n;
      summary.seeded += seeded;
      summary.recorded += recorded;
      summary.fromLog += fromLog;
      out(
        `  ${f.name}: ${requisitions.length} requisition(s): ${seeded} to reconcile, ${recorded} with a record, ${fromLog} re-seeded from the audit log`,
      );
    }
    for (const c of summary.conflicts) out(`  conflict, not queued: ${c}`);

    const epoch = createStateEpoch({
      redis: ctx.redis,
      keys: ctx.keys,
      dataDir: config.folders.root,
      account: config.account,
      logger,
      pauseCreation: () => ctx.queues.createRfq.pause(),
      resumeCreation: () => ctx.queues.createRfq.resume(),
    });
    await epoch.renew();
    logger.info(
      { event: 'state.recovered', ...summary },
      `recover: ${summary.seeded} requisition(s) queued to reconcile before any post`,
    );
    out(
      `recover: ${summary.fromLog} requisition(s) re-seeded from the audit log, ${summary.seeded} queued to reconcile before any post, ${summary.recorded} left alone (recorded), ` +
        `${summary.conflicts.length} conflict(s), ${summary.unreadable.length} file(s) not read; creation resumed`,
    );
    return summary.unreadable.length + summary.conflicts.length > 0 ? EXIT_FAILED : EXIT_OK;
  });
}

/**
 * One requisition: seeded to reconcile (queued), or recorded with the RFQ the audit log knows, or left alone (it
 * has a record), or in conflict with another requisition's external_ids.
 */
async function seedOne(
  ctx: ReadContext,
  store: IdempotencyStore,
  r: Requisition,
  known: Map<string, KnownRfq>,
): Promise<
  | { status: 'seeded' | 'recorded' | 'fromLog' }
  | { status: 'conflict'; conflicts: Array<{ externalId: string; heldBy: string }> }
> {
  const contentHash = contentHashOf(r);
  const res = await store.seedForRecovery(r, contentHash, postedBodyOf(toCreateRfqRequest(r)));
  if (res.status === 'exists') return { status: 'recorded' };
  if (res.status === 'conflict') return res;
  if (await reseedFromAudit(ctx, store, r, known)) return { status: 'fromLog' };
  await enqueueCreateRfq(ctx.queues.createRfq, r, contentHash, { why: 'recover', at: Date.now() });
  return { status: 'seeded' };
}
