/**
 * The comparison job: write version N of an RFQ's outputs from the stored snapshot, each output registered in
 * src/comparison/outputs.ts (the comparison workbook in `outbox/comparisons/` and, once the award is final, its award
 * CSV in `outbox/awards/`), then its done files, then record the version and the revision numbers and decisions it
 * reflected. A later final award names the award file it supersedes.
 *
 * - Each version is written once: a job for a version already recorded does nothing. A crash between writing and
 *   recording rewrites the same files on retry (written to a temporary name and renamed, so a reader never sees
 *   half a file).
 * - A snapshot too large for Redis (snapshot.ts) or gone is replaced by a fresh pull.
 * - When a newer pull landed while this one was being written and it changes anything, the next version is asked
 *   for at once (the quotations job could not, as this version's job was running).
 * - Each line's ERP external_id is the one the service echoes, else the one posted at its position; when the listed
 *   lines no longer match what was posted, the award file is withheld (workbook Notes, `status`, the log).
 * - The response rate comes from the stored vendor directory (comparison-extras.ts).
 * - Each line shows the last price paid for its product (price-history.ts); a final award with its award file goes
 *   into that history.
 * - A final award writes the ERP's purchase-order files of ERP_OUTPUTS too (src/comparison/erp-output.ts), or holds
 *   them while a winner lacks an ERP vendor (erp-hold.ts).
 */
import {
  awardFileOutput,
  buildComparison,
  comparisonFileNames,
  workbookOutput,
  writeComparisonOutputs,
  type ComparisonInput,
  type ComparisonModel,
  type OutputWriter,
  type WrittenFile,
  comparisonSummary,
} from '../comparison/index.ts';
import { writeDoneFiles } from '../outbox/index.ts';
import { rfqNotListed } from '../core/index.ts';
import type { ListedRfq, Quotation } from '../sourcing/index.ts';
import { comparisonExtras, type ComparisonExtras } from './comparison-extras.ts';
import { comparisonInputFromRecord } from './comparison-input.ts';
import type { AwardingContext } from './context.ts';
import { enqueueComparison, type ComparisonJobData, enqueueOverview } from '../queues/index.ts';
import { findListedRfq } from './find-rfq.ts';
import {
  observeCloseToWorkbook,
  unreadableOf,
  type TrackedRfq,
  type WrittenComparison,
  trackingStore,
} from '../rfqs/index.ts';
import { decideNewVersion, decisionsOf, revisionsOf } from './revisions.ts';
import { loadSnapshot, pullQuotations, type Snapshot } from './snapshot.ts';
import { tellComparisonWritten } from './comparison-notices.ts';
import { overviewPath } from './overview.ts';
import { lastAwards, recordFinalAward } from './price-history.ts';
import type { TrackingStore } from '../rfqs/index.ts';
import { noteWithheld } from '../rfqs/index.ts';
import { auditComparison } from '../audit/index.ts';
import { noteSuppliersSeen } from '../vendors/index.ts';
import { settleErpFiles } from './erp-hold.ts';

export interface ComparisonResult {
  rfqId: number;
  version: number;
  skipped?: string;
  workbook?: string;
  awardCsv?: string;
  winnerKey?: string;
  /** Supplier name of the winning quotation, when it is among those received. */
  winnerName?: string;
  /** Version asked for next because a newer pull landed meanwhile. */
  next?: number;
}

export async function runComparison(ctx: AwardingContext, data: ComparisonJobData): Promise<ComparisonResult> {
  const store = trackingStore(ctx);
  const { rfqId, version } = data;
  const log = ctx.logger.child({ component: 'comparison', rfqId, version });
  const rec = await store.get(rfqId);
  if (!rec) return { rfqId, version, skipped: 'not tracked' };
  if (rec.comparison && rec.comparison.version >= version)
    return { rfqId, version, skipped: `v${rec.comparison.version} already written` };

  const { snap, usedSeq } = await snapshotToCompare(ctx, store, rec, rfqId);
  const quotations = snap.quotations ?? [];
  const listed = await listedRfq(ctx, store, rfqId, version);
  const extras = await comparisonExtras(ctx, listed);
  const { rfq } = extras;
  const input = comparisonInputOf(ctx, rec, extras, snap, quotations, version);
  const names = comparisonFileNames(rfq, version);
  const model = buildComparison(input);
  // The last price paid for each line's product (rendered beside the line; the model's figures do not use it).
  input.lastAwards = await lastAwards(ctx, model, rfqId, input.generatedAt.getTime());
  // Every registered output; the award file and the ERP's files only once the award is final (a draft stays in the workbook).
  const files = await writeComparisonOutputs(model, {
    folders: ctx.config.folders,
    names,
    ...(ctx.erp ? { erp: ctx.erp } : {}),
  });
  const workbook = fileOf(files, workbookOutput)!;
  const csv = fileOf(files, awardFileOutput);
  if (csv !== undefined) await recordFinalAward(ctx, model, rfqId, input.generatedAt.getTime());
  await settleErpFiles(ctx, { rec, model, version, names });
  await noteSuppliersSeen(ctx, model.suppliers);
  await writeDoneFiles(ctx.config, {
    rfqId,
    version,
    files,
    awardName: names.award,
    overview: overviewPath(ctx.config),
  });
  await auditComparison(ctx.audit, {
    rfqId,
    rfqNo: rfq.rfq_no,
    version,
    workbook,
    award: csv,
    winnerKey: snap.winnerKey,
    revisions: snap.revisions,
    forAward: snap.award,
  });
  await tellComparisonWritten(ctx, {
    rec,
    rfq,
    model,
    version,
    workbook,
    ...(csv !== undefined ? { award: csv } : {}),
  });
  const written = writtenComparison(rec, snap, quotations, model, names, version, unreadableOf(rfq));
  await store.update(rfqId, (cur) =>
    cur && !(cur.comparison && cur.comparison.version >= version) ? { ...cur, comparison: written } : undefined,
  );
  await noteFirstAfterClose(ctx, rec, written.writtenAt);
  await noteWithheld(ctx, rfqId, version, model.award.withheld);
  logWritten(log, { rfqId, version, workbook, csv, model, quotations, input, winnerKey: snap.winnerKey });

  // The overview shows this version at the end of the current OVERVIEW_REFRESH_MS window (or after the next poll).
  await enqueueOverview(ctx);

  const winnerName = model.suppliers.find((sup) => sup.winner)?.name || undefined;
  const result: ComparisonResult = {
    rfqId,
    version,
    workbook,
    ...(csv !== undefined ? { awardCsv: csv } : {}),
    ...(snap.winnerKey !== undefined ? { winnerKey: snap.winnerKey } : {}),
    ...(winnerName !== undefined ? { winnerName } : {}),
  };
  if (await askForNextVersion(ctx, store, rfqId, version, written, usedSeq)) result.next = version + 1;
  return result;
}

/** The log lines of a written version: the award withheld, what was written, the price basis in doubt. */
function logWritten(
  log: AwardingContext['logger'],
  w: {
    rfqId: number;
    version: number;
    workbook: string | undefined;
    csv: string | undefined;
    model: ReturnType<typeof buildComparison>;
    quotations: readonly unknown[];
    input: { invalidQuotations?: readonly unknown[] | undefined };
    winnerKey: string | undefined;
  },
): void {
  const { rfqId, version, workbook, csv, model, quotations, input } = w;
  const final = model.award.final;
  const winnerKey = w.winnerKey;
  if (model.award.withheld !== undefined)
    log.warn(
      { event: 'comparison.award_withheld', reason: model.award.withheld },
      `RFQ ${rfqId}: no award file for comparison v${version}: the ERP's ids of its lines are not certain: ${model.award.withheld}`,
    );
  log.info(
    {
      workbook,
      awardCsv: csv,
      awardFinal: final,
      quotations: quotations.length,
      invalid: input.invalidQuotations?.length ?? 0,
      winnerKey,
      event: 'comparison.written',
    },
    `RFQ ${rfqId}: comparison v${version} written${final ? ` with the final award (${model.award.finalBecause})` : ' (draft award: no award file yet)'}`,
  );
  if (model.priceBasisWarning) {
    log.warn(
      {
        event: 'comparison.price_basis',
        configured: model.priceBasis,
        looksLike: model.priceBasisWarning.looksLike,
        compared: model.priceBasisWarning.compared,
        nearerOther: model.priceBasisWarning.nearerOther,
      },
      `RFQ ${rfqId}: ${model.priceBasisWarning.text}`,
    );
  }
}

/** The path an output wrote, if it wrote one. */
function fileOf(files: readonly WrittenFile[], output: OutputWriter): string | undefined {
  return files.find((f) => f.output === output.name)?.path;
}

/**
 * The stored snapshot of the RFQ's quotations, or a fresh pull when it is gone, too large for Redis or marked for a
 * refetch; `usedSeq`: the sequence number of the stored one (0 when none), to tell later whether a newer pull landed.
 */
async function snapshotToCompare(
  ctx: AwardingContext,
  store: TrackingStore,
  rec: TrackedRfq,
  rfqId: number,
): Promise<{ snap: Snapshot; usedSeq: number }> {
  let snap: Snapshot | undefined = await loadSnapshot(store, rfqId);
  const usedSeq = snap?.seq ?? 0;
  if (!snap || snap.refetch || !snap.quotations) {
    const award = snap?.award ?? rec.state === 'completed';
    const pull = await pullQuotations(ctx.client, rfqId, award);
    snap = { rfqId, seq: usedSeq, ...pull, revisions: revisionsOf(pull.quotations) };
  }
  return { snap, usedSeq };
}

/** The RFQ as its list shows it: stored, else found on the service (and stored); rfqNotListed when it is not. */
async function listedRfq(
  ctx: AwardingContext,
  store: TrackingStore,
  rfqId: number,
  version: number,
): Promise<ListedRfq> {
  const stored = await store.getListed(rfqId);
  if (stored) return stored;
  const found = await findListedRfq(ctx.client, rfqId, ctx.dialects ? await ctx.dialects.get() : undefined);
  if (!found) throw rfqNotListed(rfqId, version);
  await store.putListed(found.rfq);
  return found.rfq;
}

/** What the comparison is built from: the RFQ, its state, the snapshot's quotations and the tracked record's settings. */
function comparisonInputOf(
  ctx: AwardingContext,
  rec: TrackedRfq,
  extras: ComparisonExtras,
  snap: Snapshot,
  quotations: Quotation[],
  version: number,
): ComparisonInput {
  const state = rec.state === 'created' ? 'open' : rec.state;
  return {
    ...extras,
    state,
    quotations,
    invalidQuotations: (snap.invalid ?? []).map((i) => ({
      ...(i.quotation_key !== undefined ? { quotation_key: i.quotation_key } : {}),
      reason: i.reason,
    })),
    ...(snap.winnerKey !== undefined ? { winnerKey: snap.winnerKey } : {}),
    generatedAt: new Date(),
    ...comparisonInputFromRecord(rec, ctx.config),
    version,
    ...(rec.comparison?.awardCsv !== undefined ? { supersedes: rec.comparison.awardCsv } : {}),
  };
}

/**
 * The first workbook since the RFQ's latest closing was seen: its latency goes into the histogram
 * (src/rfqs/hint-stats.ts).
 */
async function noteFirstAfterClose(ctx: AwardingContext, rec: TrackedRfq, writtenAt: number): Promise<void> {
  const closedAt = rec.transitions.findLast((t) => t.to === 'closed')?.at;
  if (closedAt === undefined || (rec.comparison !== undefined && rec.comparison.writtenAt >= closedAt)) return;
  await observeCloseToWorkbook(ctx, writtenAt - closedAt);
}

/** The version as recorded on the tracked RFQ: what it reflected (revisions, award, decisions) and its files. */
function writtenComparison(
  rec: TrackedRfq,
  snap: Snapshot,
  quotations: Quotation[],
  model: ComparisonModel,
  names: { workbook: string; award: string },
  version: number,
  listedUnreadable: string,
): WrittenComparison {
  const final = model.award.final;
  const decisions = decisionsOf(quotations, snap.invalid?.length ?? 0);
  return {
    version,
    writtenAt: Date.now(),
    revisions: snap.revisions,
    award: snap.award,
    ...(snap.winnerKey !== undefined ? { winnerKey: snap.winnerKey } : {}),
    workbook: names.workbook,
    ...(final
      ? { awardCsv: names.award }
      : rec.comparison?.awardCsv !== undefined
        ? { awardCsv: rec.comparison.awardCsv }
        : {}),
    ...(decisions !== undefined ? { decisions } : {}),
    ...(model.priceBasisWarning ? { priceBasisWarning: model.priceBasisWarning.text } : {}),
    // The overview's figures, from this very model: the same totals as the workbook, never recomputed.
    summary: comparisonSummary(model),
    ...(listedUnreadable ? { listedUnreadable } : {}),
  };
}

/**
 * When a newer pull landed while this version was written and it changes anything, asks for the next version (true);
 * otherwise, after the award, drops the snapshot.
 */
async function askForNextVersion(
  ctx: AwardingContext,
  store: TrackingStore,
  rfqId: number,
  version: number,
  written: WrittenComparison,
  usedSeq: number,
): Promise<boolean> {
  const latest = await loadSnapshot(store, rfqId);
  const latestDecisions = latest?.quotations ? decisionsOf(latest.quotations, latest.invalid?.length ?? 0) : undefined;
  if (
    latest &&
    latest.seq > usedSeq &&
    decideNewVersion(written, { ...latest, ...(latestDecisions !== undefined ? { decisions: latestDecisions } : {}) })
      .needed
  ) {
    await enqueueComparison(ctx, { rfqId, version: version + 1 });
    return true;
  }
  if (written.award && latest && latest.seq === usedSeq) {
    // The award is the last version an RFQ normally gets: its snapshot need not hold Redis memory any longer.
    await store.redis.del(store.k.snapshot(rfqId));
  }
  return false;
}
