/**
 * The overview of an account's tracked RFQs (`<outbox>/overview.xlsx`), gathered from Redis alone: the tracked
 * records carry the due date (poll) and the latest comparison's summary (comparison job), so no workbook is
 * reopened and no listed RFQ read. Rewritten after every poll (src/tracking/poll/poll-runner.ts). One account per
 * data folder, so one overview per account.
 */
import { join, relative } from 'node:path';
import { sortOverviewRows, writeOverview, type OverviewRow } from '../comparison/index.ts';
import type { AwardingContext } from './context.ts';
import { heldErpFiles } from './erp-held.ts';
import { priceHistories } from './price-history.ts';
import { type TrackedRfq, trackingStore } from '../rfqs/index.ts';

export const OVERVIEW_FILE = 'overview.xlsx';
const BATCH = 500;

export function overviewPath(config: AwardingContext['config']): string {
  return join(config.folders.outbox, OVERVIEW_FILE);
}

export function overviewRow(rec: TrackedRfq, config: AwardingContext['config'], erpHeld?: string[]): OverviewRow {
  const req = rec.requisition;
  const cmp = rec.comparison;
  const currency = req?.currency ?? config.REQUISITION_CURRENCY;
  return {
    rfqId: rec.rfqId,
    state: rec.state,
    ...(rec.flaggedAt !== undefined ? { flagged: true } : {}),
    ...(req ? { requisition: req.key, sourceFile: req.sourceFile } : {}),
    ...(req?.title !== undefined ? { title: req.title } : {}),
    ...(rec.dueDate !== undefined ? { dueDate: rec.dueDate } : {}),
    ...(cmp?.summary ? { summary: cmp.summary } : {}),
    ...(currency ? { currency } : {}),
    // Relative to the overview's folder: right on whatever share or drive letter procurement opens it from.
    ...(cmp ? { comparison: relative(config.folders.outbox, join(config.folders.comparisons, cmp.workbook)) } : {}),
    ...(erpHeld ? { erpHeld } : {}),
  };
}

/** Every tracked RFQ of the account as an overview row, earliest due date first. */
export async function overviewRows(ctx: Pick<AwardingContext, 'redis' | 'keys' | 'config'>): Promise<OverviewRow[]> {
  const store = trackingStore(ctx);
  const ids = (await store.trackedIds()).sort((a, b) => a - b);
  const held = new Map(
    (await heldErpFiles(ctx)).map((h) => [h.rfqId, h.missing.map((m) => m.supplierName || `key ${m.supplierKey}`)]),
  );
  const rows: OverviewRow[] = [];
  for (let i = 0; i < ids.length; i += BATCH) {
    for (const rec of await store.getMany(ids.slice(i, i + BATCH)))
      if (rec) rows.push(overviewRow(rec, ctx.config, held.get(rec.rfqId)));
  }
  return sortOverviewRows(rows);
}

export interface OverviewWritten {
  path: string;
  rows: number;
  ms: number;
}

/** Reads the tracked RFQs and rewrites the overview atomically. */
export async function writeAccountOverview(
  ctx: Pick<AwardingContext, 'redis' | 'keys' | 'config'>,
  generatedAt = new Date(),
): Promise<OverviewWritten> {
  const started = performance.now();
  const rows = await overviewRows(ctx);
  const path = overviewPath(ctx.config);
  const prices = await priceHistories(ctx, generatedAt.getTime());
  await writeOverview(rows, path, {
    timeZone: ctx.config.TIME_ZONE,
    generatedAt,
    account: ctx.config.account,
    prices,
  });
  return { path, rows: rows.length, ms: Math.round(performance.now() - started) };
}
