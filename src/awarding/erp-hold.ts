/**
 * Final awards whose ERP files wait for the vendor cross-reference: a winner without an ERP vendor is never written
 * blank or guessed (docs/erp-outputs.md#a-winner-the-cross-reference-does-not-know). The award is kept in Redis
 * (erp-held.ts), named in `status`, the overview and the audit trace, and procurement and IT are told once (again
 * only when a later version lacks other suppliers). Every poll tries the
 * held awards again against the cross-reference as it stands (re-read when it changed) and writes the files of
 * those it now knows, with their done files; a newer award version of the RFQ replaces its entry.
 */
import { join } from 'node:path';
import { erpAwardOf, erpPlanOf, type ComparisonModel, type WrittenFile } from '../comparison/index.ts';
import { writeFileAtomically } from '../core/index.ts';
import { planErpFiles, type ErpAward, type ErpOutputs, type MissingVendor, type PlannedFile } from '../erp/index.ts';
import { heldErpFiles, heldKey, type HeldErpFiles } from './erp-held.ts';
import { erpVendorMissing } from '../notify/events/index.ts';
import { writeDoneFiles } from '../outbox/index.ts';
import { trackingStore, type TrackedRfq } from '../rfqs/index.ts';
import type { AwardingContext } from './context.ts';
import { overviewPath } from './overview.ts';

type Ctx = Pick<AwardingContext, 'redis' | 'keys' | 'config' | 'logger' | 'notify' | 'audit' | 'erp'>;

/** `Orbit IT (key 104)`. */
const supplierText = (m: MissingVendor): string => `${m.supplierName || '(no name)'} (key ${m.supplierKey})`;

async function auditWritten(
  ctx: Ctx,
  award: ErpAward,
  files: readonly PlannedFile[],
  heldSince?: number,
): Promise<void> {
  await ctx.audit?.write({
    event: 'erp-written',
    summary: `ERP files of RFQ ${award.rfqId} v${award.version} written: ${files.map((f) => `${f.profile}/${f.path.split(/[\\/]/).pop()}`).join(', ')}${heldSince !== undefined ? ' (held until the vendor cross-reference knew every winner)' : ''}`,
    rfq_id: award.rfqId,
    ...(award.rfqNo !== undefined ? { rfq_no: award.rfqNo } : {}),
    version: award.version,
    files: files.map((f) => f.path),
  });
}

/** Holds the award: kept for the next polls, said in the log and the trace, and told once per version. */
async function hold(ctx: Ctx, rec: TrackedRfq, h: HeldErpFiles, erp: ErpOutputs): Promise<void> {
  const raw = await ctx.redis.hget(heldKey(ctx), String(h.rfqId));
  const before = raw === null ? undefined : (JSON.parse(raw) as HeldErpFiles);
  const retry = before?.version === h.version;
  await ctx.redis.hset(heldKey(ctx), String(h.rfqId), JSON.stringify(retry ? { ...h, at: before.at } : h));
  const who = h.missing.map(supplierText).join(', ');
  ctx.logger.warn(
    { event: 'erp.held', rfqId: h.rfqId, version: h.version, suppliers: h.missing },
    `RFQ ${h.rfqId}: ERP files of award v${h.version} held: no ERP vendor for ${who} in VENDOR_XREF_FILE; written on the first poll after it has them`,
  );
  if (!retry)
    await ctx.audit?.write({
      event: 'erp-held',
      summary: `ERP files of RFQ ${h.rfqId} v${h.version} held: no ERP vendor for ${who} in the vendor cross-reference`,
      rfq_id: h.rfqId,
      ...(h.award.rfqNo !== undefined ? { rfq_no: h.award.rfqNo } : {}),
      version: h.version,
      suppliers: h.missing.map((m) => ({ key: m.supplierKey, name: m.supplierName, missing: m.fields })),
    });
  // Told once: a later version held for the same suppliers says nothing new (a retry emits the same event: one)
  const keys = (m: readonly MissingVendor[]) => JSON.stringify(m.map((x) => x.supplierKey).sort());
  if (before && !retry && keys(before.missing) === keys(h.missing)) return;
  const req = rec.requisition;
  await ctx.notify?.emit(
    erpVendorMissing.event({
      rfqId: h.rfqId,
      ...(h.award.rfqNo !== undefined ? { rfqNo: String(h.award.rfqNo) } : {}),
      ...(h.award.title ? { title: h.award.title } : {}),
      ...(req ? { requisition: `${req.profile ?? '?'}/${req.key}`, sourceFile: req.sourceFile } : {}),
      ...(req?.profile !== undefined ? { profile: req.profile } : {}),
      version: h.version,
      suppliers: h.missing.map((m) => ({ supplier: supplierText(m), missing: m.fields.join(' and ') })),
      xrefFile: erp.xref?.file ?? '(VENDOR_XREF_FILE)',
      profiles: erp.profiles.map((p) => p.name),
    }),
  );
}

/**
 * After a final award's outputs are written: holds its ERP files when a winner lacks an ERP vendor, else says what
 * was written and drops an earlier version's hold (this version replaces it).
 */
export async function settleErpFiles(
  ctx: Ctx,
  w: { rec: TrackedRfq; model: ComparisonModel; version: number; names: { workbook: string; award: string } },
): Promise<void> {
  const erp = ctx.erp;
  const plan = erpPlanOf(w.model);
  if (!erp || !plan) return;
  const rfqId = w.rec.rfqId;
  if (plan.held) {
    const award = erpAwardOf(w.model);
    await hold(
      ctx,
      w.rec,
      {
        rfqId,
        version: w.version,
        missing: plan.held,
        at: Date.now(),
        award,
        workbook: w.names.workbook,
        awardFile: w.names.award,
      },
      erp,
    );
    return;
  }
  await ctx.redis.hdel(heldKey(ctx), String(rfqId));
  for (const warning of plan.warnings)
    ctx.logger.warn({ event: 'erp.text_changed', rfqId }, `RFQ ${rfqId}: ${warning}`);
  await auditWritten(ctx, erpAwardOf(w.model), plan.files);
}

/** Writes the files of a held award, then their done files (the version's manifest lists them with its other files). */
async function writeHeld(ctx: Ctx, h: HeldErpFiles, files: readonly PlannedFile[]): Promise<void> {
  for (const f of files) await writeFileAtomically(f.path, f.data);
  const written: WrittenFile[] = [
    { output: 'workbook', path: join(ctx.config.folders.comparisons, h.workbook), forErp: false },
    { output: 'award', path: join(ctx.config.folders.awards, h.awardFile), forErp: true },
    ...files.map((f) => ({ output: 'erp', path: f.path, forErp: true })),
  ];
  await writeDoneFiles(ctx.config, {
    rfqId: h.rfqId,
    version: h.version,
    files: written,
    awardName: h.awardFile,
    overview: overviewPath(ctx.config),
  });
}

/**
 * Every held award tried again (each poll): written when the cross-reference knows its winners now, dropped when a
 * newer version of the RFQ was written since. Returns the RFQs whose files were written.
 */
export async function releaseHeldErpFiles(ctx: Ctx): Promise<number[]> {
  const erp = ctx.erp;
  if (!erp) return [];
  const released: number[] = [];
  const store = trackingStore(ctx);
  for (const h of await heldErpFiles(ctx)) {
    const rec = await store.get(h.rfqId);
    if (!rec || (rec.comparison && rec.comparison.version > h.version)) {
      await ctx.redis.hdel(heldKey(ctx), String(h.rfqId));
      continue;
    }
    const plan = await planErpFiles(erp, h.award);
    if (plan.held) {
      if (JSON.stringify(plan.held) !== JSON.stringify(h.missing))
        await ctx.redis.hset(heldKey(ctx), String(h.rfqId), JSON.stringify({ ...h, missing: plan.held }));
      continue;
    }
    await writeHeld(ctx, h, plan.files);
    await auditWritten(ctx, h.award, plan.files, h.at);
    await ctx.redis.hdel(heldKey(ctx), String(h.rfqId));
    ctx.logger.info(
      { event: 'erp.released', rfqId: h.rfqId, version: h.version, files: plan.files.map((f) => f.path) },
      `RFQ ${h.rfqId}: ERP files of award v${h.version} written now that the vendor cross-reference knows every winner`,
    );
    released.push(h.rfqId);
  }
  return released;
}
