/**
 * The ERP's own purchase-order files (ERP_OUTPUTS, src/erp/): a registered output like the workbook and the award
 * file. Only a final award writes them, every configured profile into `outbox/erp/<profile>/`, each file atomically
 * and marked for the ERP (done files). When a winner is missing from the vendor cross-reference nothing is written:
 * the plan says who (erpPlanOf), and the comparison job holds the RFQ's ERP files until the cross-reference knows
 * them (src/awarding/erp-hold.ts).
 */
import { UnexpectedError, writeFileAtomically } from '../core/index.ts';
import { planErpFiles, type ErpAward, type ErpOutputs, type ErpPlan } from '../erp/index.ts';
import type { OutputWriter } from './output-writer.ts';
import type { ComparisonModel } from './types.ts';

/** The model's award as the ERP outputs read it: awarded lines only, amounts as exact decimal strings. */
export function erpAwardOf(model: ComparisonModel): ErpAward {
  const { input } = model;
  const { rfq } = input;
  const need = input.erpDays?.required_date;
  const needBy =
    need && need.at === rfq.required_date && /^\d{4}-\d{2}-\d{2}$/.test(need.day)
      ? { day: need.day }
      : rfq.required_date !== undefined
        ? { at: rfq.required_date }
        : undefined;
  const supersededVersion = /-v(\d+)\.csv$/.exec(input.supersedes ?? '')?.[1];
  return {
    rfqId: rfq._id,
    ...(rfq.rfq_no !== undefined ? { rfqNo: rfq.rfq_no } : {}),
    ...(rfq.title ? { title: rfq.title } : {}),
    ...(input.requisition ? { requisition: input.requisition.key } : {}),
    ...(input.requisition?.profile ? { profile: input.requisition.profile } : {}),
    version: input.version ?? 1,
    ...(input.supersedes ? { supersedes: input.supersedes } : {}),
    ...(supersededVersion !== undefined ? { supersedesVersion: Number(supersededVersion) } : {}),
    awardedAt: input.generatedAt.getTime(),
    basis: model.award.basis,
    ...(model.currency ? { currency: model.currency } : {}),
    ...(needBy ? { needBy } : {}),
    timeZone: model.timeZone,
    lines: model.lines.flatMap((l) => {
      if (!l.award) return [];
      const s = model.suppliers[l.award.supplier]!;
      const code = input.productCodes?.[l.externalId];
      return [
        {
          lineId: l.lineId,
          externalId: l.externalId,
          ...(code ? { productCode: code } : {}),
          product: l.product,
          specification: l.specification,
          uom: l.uom,
          ...(l.qty !== undefined ? { qty: l.qty } : {}),
          ...(l.award.unitPrice ? { unitPrice: l.award.unitPrice.toFixed() } : {}),
          ...(l.award.lineTotal ? { lineTotal: l.award.lineTotal.toFixed() } : {}),
          supplierKey: s.key,
          supplierName: s.name,
        },
      ];
    }),
  };
}

/** The plan of each model's ERP files, made once by paths() and read by write() and by the comparison job. */
const plans = new WeakMap<ComparisonModel, { plan: ErpPlan; bytes: Map<string, Buffer> }>();

/** What the ERP output made of this model: its files, or the winners that hold them; undefined when it wrote none. */
export function erpPlanOf(model: ComparisonModel): ErpPlan | undefined {
  return plans.get(model)?.plan;
}

async function planFor(model: ComparisonModel, erp: ErpOutputs): Promise<string[]> {
  const plan = await planErpFiles(erp, erpAwardOf(model));
  plans.set(model, { plan, bytes: new Map((plan.files ?? []).map((f) => [f.path, f.data])) });
  return (plan.files ?? []).map((f) => f.path);
}

export const erpOutput: OutputWriter = {
  name: 'erp',
  forErp: true,
  paths: (model, place) => (model.award.final && place.erp ? planFor(model, place.erp) : []),
  write: async (model, path) => {
    const data = plans.get(model)?.bytes.get(path);
    if (data === undefined) throw new UnexpectedError(`no ERP file planned at ${path}`);
    await writeFileAtomically(path, data);
  },
};
