/**
 * The vocabulary of award fields an output profile's columns (and file names) read, each with its level (`award`:
 * the same for every row of the RFQ's files; `po`: one value per purchase order; `line`: per awarded line) and its
 * kind (how it is written: text, whole number, quantity, money, date). docs/erp-outputs.md#vocabulary lists them
 * from VOCABULARY's descriptions; a profile naming a field not here is refused at start.
 */
import { Decimal } from 'decimal.js';
import type { ErpAward, ErpAwardLine } from './award.ts';

export type FieldLevel = 'award' | 'po' | 'line';
export type FieldKind = 'text' | 'int' | 'qty' | 'money' | 'date';

/** What the ERP's vendor cross-reference gives for a supplier (src/erp/vendor-xref.ts). */
export interface VendorRef {
  id: string;
  site?: string;
}

/** One purchase order of an award: the lines of one group (by default one requisition and one supplier). */
export interface ErpPo {
  /** 1-based, in the order of each PO's first line in the RFQ. */
  seq: number;
  supplierKey: string;
  supplierName: string;
  vendor: VendorRef;
  lines: ErpAwardLine[];
}

/** A value before formatting: text, a number (exact), a day (`yyyy-mm-dd`) or an instant. */
export type FieldValue = string | Decimal | { day: string } | { at: number } | undefined;

interface Field {
  level: FieldLevel;
  kind: FieldKind;
  description: string;
  get(a: ErpAward, po: ErpPo | undefined, line: ErpAwardLine | undefined, lineNo: number): FieldValue;
}

const int = (n: number | undefined): Decimal | undefined => (n === undefined ? undefined : new Decimal(n));
const dec = (s: string | undefined): Decimal | undefined => (s === undefined ? undefined : new Decimal(s));

/** `117-5021` (RFQ number and id), or the id alone when the RFQ has no number yet. */
export function rfqLabel(a: Pick<ErpAward, 'rfqId' | 'rfqNo'>): string {
  return a.rfqNo !== undefined ? `${a.rfqNo}-${a.rfqId}` : String(a.rfqId);
}

/** The PO's key: the RFQ and the supplier's key at the service, stable from one award version to the next. */
export function poKey(a: ErpAward, po: Pick<ErpPo, 'supplierKey'>): string {
  return `RFQ${rfqLabel(a)}-${po.supplierKey.replace(/[^A-Za-z0-9_-]+/g, '_')}`;
}

function poTotal(po: ErpPo): Decimal | undefined {
  let sum = new Decimal(0);
  for (const l of po.lines) {
    if (l.lineTotal === undefined) return undefined;
    sum = sum.plus(l.lineTotal);
  }
  return sum;
}

/** The part of the ERP line id after its last `-` (the shipped mapping profiles end it with the requisition's item). */
function requisitionLine(externalId: string): string {
  const i = externalId.lastIndexOf('-');
  return i >= 0 ? externalId.slice(i + 1) : externalId;
}

export const VOCABULARY: Record<string, Field> = {
  rfq_id: {
    level: 'award',
    kind: 'int',
    description: "The RFQ's id at the sourcing service.",
    get: (a) => int(a.rfqId),
  },
  rfq_no: { level: 'award', kind: 'int', description: "The RFQ's number at the service.", get: (a) => int(a.rfqNo) },
  rfq_label: {
    level: 'award',
    kind: 'text',
    description: 'The RFQ as file names show it: `<rfq_no>-<rfq_id>` (the id alone before the RFQ has a number).',
    get: (a) => rfqLabel(a),
  },
  rfq_title: { level: 'award', kind: 'text', description: "The RFQ's title.", get: (a) => a.title },
  requisition: {
    level: 'award',
    kind: 'text',
    description: "The requisition's key in the ERP (the mapping profile's `requisition`, e.g. the PR number).",
    get: (a) => a.requisition,
  },
  mapping_profile: {
    level: 'award',
    kind: 'text',
    description: 'The mapping profile the requisition was read with.',
    get: (a) => a.profile,
  },
  award_version: {
    level: 'award',
    kind: 'int',
    description: 'The comparison version that made the award final (a revised award has a higher one).',
    get: (a) => int(a.version),
  },
  supersedes: {
    level: 'award',
    kind: 'text',
    description: 'The award file of the earlier final version this award replaces; empty for the first.',
    get: (a) => a.supersedes,
  },
  supersedes_version: {
    level: 'award',
    kind: 'int',
    description: 'The version number of the award this one replaces; empty for the first.',
    get: (a) => int(a.supersedesVersion),
  },
  award_date: {
    level: 'award',
    kind: 'date',
    description: 'When the award was decided (the comparison that made it final).',
    get: (a) => ({ at: a.awardedAt }),
  },
  basis: {
    level: 'award',
    kind: 'text',
    description: 'The award rule that decided it (`lowest-qualified-price`, `winning-quotation`).',
    get: (a) => a.basis,
  },
  currency: { level: 'award', kind: 'text', description: 'ISO 4217 currency of every amount.', get: (a) => a.currency },
  need_by_date: {
    level: 'award',
    kind: 'date',
    description: "The RFQ's required date: the day the ERP gave, else the date in TIME_ZONE.",
    get: (a) => a.needBy,
  },
  po_key: {
    level: 'po',
    kind: 'text',
    description:
      "The PO's key: `RFQ<rfq_label>-<supplier_key>`, the same in every award version for the same supplier (an ERP that updates by key amends the PO).",
    get: (a, po) => (po ? poKey(a, po) : undefined),
  },
  po_key_version: {
    level: 'po',
    kind: 'text',
    description:
      '`<po_key>-v<award_version>`: a new key for each award version (an ERP that creates a new PO each time).',
    get: (a, po) => (po ? `${poKey(a, po)}-v${a.version}` : undefined),
  },
  po_seq: {
    level: 'po',
    kind: 'int',
    description: "The PO's number within the award, 1, 2, ... in the order of each PO's first line.",
    get: (_a, po) => int(po?.seq),
  },
  po_lines: {
    level: 'po',
    kind: 'int',
    description: 'How many lines the PO has.',
    get: (_a, po) => int(po?.lines.length),
  },
  po_total: {
    level: 'po',
    kind: 'money',
    description: "The sum of the PO's line totals.",
    get: (_a, po) => (po ? poTotal(po) : undefined),
  },
  erp_vendor_id: {
    level: 'po',
    kind: 'text',
    description: "The ERP's vendor for the supplier, from VENDOR_XREF_FILE (never blank: an RFQ without one is held).",
    get: (_a, po) => po?.vendor.id,
  },
  erp_vendor_site: {
    level: 'po',
    kind: 'text',
    description:
      "The ERP's supplier site from VENDOR_XREF_FILE's `erp_vendor_site` (a profile that uses it holds an RFQ without one).",
    get: (_a, po) => po?.vendor.site,
  },
  supplier_key: {
    level: 'po',
    kind: 'text',
    description: "The winning quotation's key at the service.",
    get: (_a, po) => po?.supplierKey,
  },
  supplier_name: {
    level: 'po',
    kind: 'text',
    description: 'The supplier name as the service gave it.',
    get: (_a, po) => po?.supplierName,
  },
  po_line: {
    level: 'line',
    kind: 'int',
    description: "The line's number within its PO: 1, 2, 3 ...",
    get: (_a, _po, _l, n) => new Decimal(n),
  },
  po_item: {
    level: 'line',
    kind: 'int',
    description: "The line's item number within its PO in steps of 10 (10, 20, 30: SAP's numbering).",
    get: (_a, _po, _l, n) => new Decimal(n * 10),
  },
  external_id: {
    level: 'line',
    kind: 'text',
    description: "The ERP's id of the requisition line this PO line fulfils.",
    get: (_a, _po, l) => l?.externalId,
  },
  requisition_line: {
    level: 'line',
    kind: 'text',
    description:
      "The part of `external_id` after its last `-`: the requisition's item number with the shipped mapping profiles.",
    get: (_a, _po, l) => (l ? requisitionLine(l.externalId) : undefined),
  },
  line_id: {
    level: 'line',
    kind: 'text',
    description: "The line's id at the service.",
    get: (_a, _po, l) => l?.lineId,
  },
  product_code: {
    level: 'line',
    kind: 'text',
    description: "The ERP's material or item number (the mapping profile's `product_code`); empty when not given.",
    get: (_a, _po, l) => l?.productCode,
  },
  product_name: { level: 'line', kind: 'text', description: "The line's product.", get: (_a, _po, l) => l?.product },
  item: {
    level: 'line',
    kind: 'text',
    description: 'The product code where the export gave one, else the product name.',
    get: (_a, _po, l) => (l ? l.productCode || l.product : undefined),
  },
  specification: {
    level: 'line',
    kind: 'text',
    description: "The line's specification.",
    get: (_a, _po, l) => l?.specification,
  },
  qty: { level: 'line', kind: 'qty', description: 'The quantity awarded.', get: (_a, _po, l) => int(l?.qty) },
  uom: {
    level: 'line',
    kind: 'text',
    description: 'The unit of measure as the requisition gave it.',
    get: (_a, _po, l) => l?.uom,
  },
  unit_price: {
    level: 'line',
    kind: 'money',
    description: 'The unit price awarded, exact.',
    get: (_a, _po, l) => dec(l?.unitPrice),
  },
  line_total: {
    level: 'line',
    kind: 'money',
    description: 'The line total awarded (unit price x quantity), exact.',
    get: (_a, _po, l) => dec(l?.lineTotal),
  },
};

export const LEVEL_ORDER: Record<FieldLevel, number> = { award: 0, po: 1, line: 2 };
