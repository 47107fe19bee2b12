/**
 * The requisition: what ingestion produces and create-rfq consumes. One requisition becomes exactly one RFQ
 * (plus supplementary RFQs for lines added by a later re-export). Plain JSON so it travels in a job payload.
 */

export interface RequisitionLine {
  /** The ERP's key of the line; unique within the requisition and across the file. */
  external_id: string;
  product_name: string;
  specification?: string;
  uom?: string;
  /** Positive whole number (the service takes an integer). */
  qty: number;
  /** Line total (qty x unit price), an integer as the service takes it, rounded half-up when computed. */
  estimated_price?: number;
  /**
   * The export's own unit price per `price_unit` items, exact decimal text (SAP: 12.35 per 100), when the profile
   * maps unit_price: the comparison estimates against it, not the whole-number estimate the service keeps.
   */
  unit_price?: string;
  price_unit?: string;
  /** The ERP's material or item number (profile field product_code): the key of the last price paid. */
  product_code?: string;
  /** 1-based row number in the source file (for reports). */
  row: number;
}

export interface Requisition {
  /** The grouping value (e.g. the PR number) as found in the file. */
  key: string;
  /** Base name of the file it came from, and the mapping profile used. */
  sourceFile: string;
  profile: string;
  title: string;
  description?: string;
  /** Unix time in ms (UTC). */
  due_date: number;
  required_date?: number;
  rfq_type: 'Public' | 'Private';
  rfq_category?: string;
  rfq_location?: string;
  /**
   * The calendar day (YYYY-MM-DD) of each date the ERP gave without a time of day: the workbooks show these as
   * dates, not as the profile's default time in another zone.
   */
  erp_days?: { due_date?: string; required_date?: string };
  /** ISO 4217 code of its amounts, from the mapping profile (`currency:`); absent when the profile names none. */
  currency?: string;
  lines: RequisitionLine[];
}
