/**
 * A final award as the ERP outputs read it: plain data (decimal strings, Unix ms), built from the comparison model
 * by the comparison's ERP output (src/comparison/erp-output.ts) and kept as JSON with a held RFQ (its ERP files wait
 * for the vendor cross-reference), so the files can be written later without the model.
 */

/** One awarded line: the requisition line, the supplier it went to and the agreed price. */
export interface ErpAwardLine {
  /** The service's line id. */
  lineId: string;
  /** The ERP's line id (the requisition line this PO line fulfils). */
  externalId: string;
  /** The ERP's material or item number (the mapping profile's `product_code`), when the export gave one. */
  productCode?: string;
  product: string;
  specification: string;
  uom: string;
  /** Integer quantity (the service's); absent when the line had none. */
  qty?: number;
  /** Exact decimal strings, as the award file writes them. */
  unitPrice?: string;
  lineTotal?: string;
  /** The winner: the quotation's key at the service and its supplier name (hostile text until written safely). */
  supplierKey: string;
  supplierName: string;
}

export interface ErpAward {
  rfqId: number;
  rfqNo?: number;
  title?: string;
  /** The requisition's key in the ERP (e.g. the PR number), when the RFQ came from an export. */
  requisition?: string;
  /** The mapping profile the requisition was read with. */
  profile?: string;
  /** The comparison version that made this award final. */
  version: number;
  /** The award file of the earlier final version this one replaces, and that version's number. */
  supersedes?: string;
  supersedesVersion?: number;
  /** Unix ms the award was decided (the comparison's generated time). */
  awardedAt: number;
  /** The rule that decided it (`lowest-qualified-price`, `winning-quotation`...). */
  basis: string;
  currency?: string;
  /** The RFQ's required date: a day as the ERP gave it (`yyyy-mm-dd`), else an instant (Unix ms). */
  needBy?: { day: string } | { at: number };
  /** IANA zone the dates are written in (TIME_ZONE). */
  timeZone: string;
  /** Awarded lines in the RFQ's order; lines without an award are not here. */
  lines: ErpAwardLine[];
}
