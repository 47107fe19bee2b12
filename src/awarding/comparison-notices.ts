/**
 * What procurement is told of a comparison version the comparison job just wrote (docs/notifications.md#events):
 * the workbook is ready; the award is final (with its summary); the RFQ closed with fewer quotations than
 * NOTIFY_MIN_QUOTATIONS (once per RFQ). Emitted after the files are written and before the version is recorded, so a
 * crash between the two emits again on the retry, which adds nothing twice (the events' ids).
 */
import { Decimal } from 'decimal.js';
import { erpPlanOf, type ComparisonModel } from '../comparison/index.ts';
import { awardFinal, comparisonReady, supplierResponseLow } from '../notify/events/index.ts';
import type { ListedRfq } from '../sourcing/index.ts';
import type { AwardingContext } from './context.ts';
import type { TrackedRfq } from '../rfqs/index.ts';

export interface WrittenVersion {
  rec: TrackedRfq;
  rfq: ListedRfq;
  model: ComparisonModel;
  version: number;
  workbook: string;
  /** The award file, when this version wrote one (the award is final). */
  award?: string;
}

/** Like the award file: at least two decimals, never fewer than the amount has. */
function amount(d: Decimal): string {
  return d.decimalPlaces() < 2 ? d.toFixed(2) : d.toFixed();
}

export async function tellComparisonWritten(
  ctx: Partial<Pick<AwardingContext, 'notify'>> & Pick<AwardingContext, 'config'>,
  w: WrittenVersion,
): Promise<void> {
  const notify = ctx.notify;
  if (!notify?.enabled) return;
  const { rec, rfq, model } = w;
  const req = rec.requisition;
  const fields = {
    rfqId: rec.rfqId,
    ...(rfq.rfq_no !== undefined ? { rfqNo: String(rfq.rfq_no) } : {}),
    ...(rfq.title ? { title: rfq.title } : req?.title ? { title: req.title } : {}),
    ...(req ? { requisition: `${req.profile ?? '?'}/${req.key}`, sourceFile: req.sourceFile } : {}),
    ...(req?.profile !== undefined ? { profile: req.profile } : {}),
    ...(rfq.rfq_location ? { location: rfq.rfq_location } : {}),
    ...(rfq.rfq_category ? { category: rfq.rfq_category } : {}),
  };
  const state = model.input.state;
  const quotations = model.suppliers.length + model.counts.invalidQuotations;
  const award = model.award;
  const best = award.awardedLines > 0 ? amount(award.awardedTotal) : undefined;
  await notify.emit(
    comparisonReady.event({
      ...fields,
      version: w.version,
      state,
      quotations,
      workbook: w.workbook,
      ...(best !== undefined ? { bestTotal: best } : {}),
      ...(model.currency ? { currency: model.currency } : {}),
      final: award.final,
      ...recommended(model),
    }),
  );
  if (w.award && best !== undefined) await notify.emit(awardFinal.event({ ...fields, ...awardSummary(w, best) }));
  if ((state === 'closed' || state === 'completed') && quotations < ctx.config.NOTIFY_MIN_QUOTATIONS)
    await notify.emit(
      supplierResponseLow.event({ ...fields, quotations, minimum: ctx.config.NOTIFY_MIN_QUOTATIONS, state }),
    );
}

function recommended(model: ComparisonModel): { recommended?: string } {
  const w = model.award.winner ? model.suppliers[model.award.winner.supplier] : undefined;
  const name = w ? w.name || `key ${w.key}` : undefined;
  return name ? { recommended: name } : {};
}

/** The award summary in the message: per supplier its lines and total, largest total first. */
function awardSummary(w: WrittenVersion, awardedTotal: string) {
  const { model } = w;
  const bySupplier = new Map<number, { lines: number; total: Decimal }>();
  for (const line of model.lines) {
    if (!line.award) continue;
    const s = bySupplier.get(line.award.supplier) ?? { lines: 0, total: new Decimal(0) };
    s.lines++;
    if (line.award.lineTotal) s.total = s.total.add(line.award.lineTotal);
    bySupplier.set(line.award.supplier, s);
  }
  const suppliers = [...bySupplier]
    .sort((a, b) => b[1].total.cmp(a[1].total))
    .map(([i, s]) => {
      const sup = model.suppliers[i]!;
      return { name: sup.name || `key ${sup.key}`, lines: s.lines, total: amount(s.total) };
    });
  const a = model.award;
  const saving =
    a.estimatedTotal !== undefined && a.awardedLines === model.lines.length
      ? a.estimatedTotal.sub(a.awardedTotal)
      : undefined;
  return {
    version: w.version,
    because:
      a.finalBecause === 'winning-quotation'
        ? 'the winning quotation of the completed RFQ'
        : 'every quotation has a qualification decision',
    awardFile: w.award!,
    ...(model.currency ? { currency: model.currency } : {}),
    awardedTotal,
    awardedLines: a.awardedLines,
    lines: model.lines.length,
    ...(a.estimatedTotal !== undefined ? { estimatedTotal: amount(a.estimatedTotal) } : {}),
    ...(saving !== undefined ? { savings: amount(saving) } : {}),
    suppliers,
    ...(model.input.supersedes ? { supersedes: model.input.supersedes } : {}),
    ...erpNotice(model),
  };
}

/** The ERP's purchase-order files of the award (ERP_OUTPUTS): written, or held for the suppliers named. */
function erpNotice(model: ComparisonModel): { erpFiles?: string[]; erpHeld?: string[] } {
  const plan = erpPlanOf(model);
  if (plan?.held) return { erpHeld: plan.held.map((m) => m.supplierName || `key ${m.supplierKey}`) };
  return plan?.files.length ? { erpFiles: plan.files.map((f) => f.path) } : {};
}
