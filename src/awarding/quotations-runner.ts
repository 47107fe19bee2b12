/**
 * The quotations job: pull an RFQ's quotations (and the winner once completed), decide whether the comparison
 * workbook needs a new version, and if so store the snapshot and enqueue the comparison of that version.
 *
 * Runs when the RFQ closes, on every poll while it stays closed (revision check: one GET per closed RFQ), and when
 * it completes (award). A quotation whose key cannot be read is left out by the client, and a field that cannot be
 * read is left out of its quotation; both are passed on to the workbook's notes and said once per RFQ, quotation and
 * field (src/rfqs/report-once.ts), never blocking the others.
 */
import type { Logger } from '../core/index.ts';
import type { AwardingContext } from './context.ts';
import { enqueueComparison, type QuotationsJobData } from '../queues/index.ts';
import { sayOnce, type ToSay, trackingStore } from '../rfqs/index.ts';
import { decideNewVersion, decisionsOf, revisionsOf, type VersionDecision } from './revisions.ts';
import { pullQuotations, storeSnapshot, type QuotationPull } from './snapshot.ts';
import type { TrackingStore } from '../rfqs/index.ts';
import { quotationsPulled } from '../audit/index.ts';

export interface QuotationsResult {
  rfqId: number;
  skipped?: string;
  quotations?: number;
  invalid?: number;
  winnerKey?: string;
  decision?: VersionDecision;
  /** Version of the comparison enqueued, when one was. */
  version?: number;
}

/** What a quotations pull reads: the tracked record, the service, and the comparison queue it may ask. */
export type QuotationsContext = Pick<AwardingContext, 'redis' | 'keys' | 'client' | 'logger' | 'queues' | 'audit'>;

export async function runQuotations(
  ctx: QuotationsContext,
  data: QuotationsJobData,
  opts: { snapshotMaxBytes?: number } = {},
): Promise<QuotationsResult> {
  const store = trackingStore(ctx);
  const { rfqId } = data;
  const log = ctx.logger.child({ component: 'quotations', rfqId, reason: data.reason });
  const rec = await store.get(rfqId);
  if (!rec) {
    log.warn(`RFQ ${rfqId} is not tracked by this service; quotations not pulled`);
    return { rfqId, skipped: 'not tracked' };
  }
  const award = data.reason === 'award' || rec.state === 'completed';
  const pull = await pullQuotations(ctx.client, rfqId, award);
  const revisions = revisionsOf(pull.quotations);
  const decisions = decisionsOf(pull.quotations, pull.invalid.length);
  const current = {
    revisions,
    award,
    listedUnreadable: rec.listedUnreadable ?? '',
    ...(pull.winnerKey !== undefined ? { winnerKey: pull.winnerKey } : {}),
    ...(decisions !== undefined ? { decisions } : {}),
  };
  let decision = decideNewVersion(rec.comparison, current);
  const base = {
    rfqId,
    quotations: pull.quotations.length,
    invalid: pull.invalid.length,
    decision,
    ...(pull.winnerKey ? { winnerKey: pull.winnerKey } : {}),
  };
  if (award && pull.winnerKey === undefined)
    log.warn(
      `RFQ ${rfqId} is completed but the service names no winning quotation (status=success): the award recommends the lowest qualified prices`,
    );
  await sayUnreadable(store, log, rfqId, pull);
  if (!decision.needed) return base;

  await storeSnapshot(store, rfqId, pull, revisions, opts.snapshotMaxBytes);
  // A comparison version may have been written while this pull ran, from the snapshot before ours: its job ended
  // without seeing ours, and asking for that version again would be a no-op. Decided again against what is written
  // now; a version written after this read sees our snapshot itself (comparison-runner.ts askForNextVersion).
  const written = (await store.get(rfqId))?.comparison;
  if (written?.version !== rec.comparison?.version) {
    decision = decideNewVersion(written, current);
    if (!decision.needed) return { ...base, decision };
  }
  const version = (written?.version ?? 0) + 1;
  await ctx.audit?.write(
    quotationsPulled({
      rfqId,
      count: pull.quotations.length,
      keys: Object.keys(revisions),
      reason: data.reason,
      version,
    }),
  );
  await enqueueComparison(ctx, { rfqId, version });
  const why = decision.revised.length > 0 ? ` (revised: ${decision.revised.join(', ')})` : '';
  log.info(
    { version, reasons: decision.reasons, revised: decision.revised },
    `RFQ ${rfqId}: comparison v${version} asked for: ${decision.reasons.join(', ')}${why}`,
  );
  return { ...base, decision, version };
}

/** What could not be read in this pull, warned about the first time it is met (later pulls say it at debug). */
async function sayUnreadable(store: TrackingStore, log: Logger, rfqId: number, pull: QuotationPull): Promise<void> {
  const said: ToSay[] = [];
  for (const bad of pull.invalid)
    said.push({
      key: `${rfqId}|quotation ${bad.quotation_key ?? `#${bad.index}`}`,
      fields: { event: 'quotation.invalid', quotation_key: bad.quotation_key, reason: bad.reason },
      msg: `RFQ ${rfqId}: quotation ${bad.quotation_key ?? `at ${bad.index}`} cannot be read (${bad.reason}); left out and reported in the workbook notes`,
    });
  for (const q of pull.quotations)
    for (const u of q.unreadable ?? [])
      said.push({
        key: `${rfqId}|quotation ${q.quotation_key}|${u.field}`,
        fields: {
          event: 'quotation.unreadable-field',
          quotation_key: q.quotation_key,
          field: u.field,
          reason: u.reason,
        },
        msg: `RFQ ${rfqId}: field ${u.field} of quotation ${q.quotation_key} cannot be read (${u.reason}); left out and reported in the workbook notes`,
      });
  await sayOnce(store, log, said);
}
