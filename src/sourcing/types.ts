/**
 * Normalised shapes of what the sourcing service returns, after tolerant parsing (see schemas in this folder).
 * Money stays a decimal string here: it is summed and compared exactly (decimal.js), never as a binary float.
 */

export type RfqStatusFilter = 'open' | 'closed' | 'cancelled' | 'completed';
export const RFQ_STATUSES: readonly RfqStatusFilter[] = ['open', 'closed', 'cancelled', 'completed'];
/** The state of an RFQ (domain): the same four values as the filter, whatever the wire spells. */
export type RfqState = RfqStatusFilter;

/**
 * How the status filter is written on the wire: `lower` (`status=open`, the interface's table) or `capitalised`
 * (`status=Open`, its curl example). Which one a service takes is detected (src/sourcing/dialect.ts), never assumed.
 */
export type FilterForm = 'lower' | 'capitalised';

/** A list to read: one state in a given form, or `all`: the unfiltered list (every RFQ of the account). */
export type ListFilter = RfqStatusFilter | { state: RfqStatusFilter; form: FilterForm } | 'all';

/** Header fields the edit call changes (PUT /v1/rfqs/{id}); lines cannot be changed. */
export interface RfqHeaderEdit {
  title?: string;
  /** Unix ms as digit strings, as on creation. */
  due_date?: string;
  required_date?: string;
  description?: string;
}

/** Body of POST /v1/rfqs. Timestamps are Unix ms as digit strings (docs/architecture.md#the-interface). */
export interface CreateRfqRequest {
  title: string;
  due_date: string;
  required_date?: string;
  description?: string;
  rfq_type: 'Public' | 'Private';
  rfq_category?: string;
  rfq_location?: string;
  lines: Array<{
    product_name: string;
    specification?: string;
    uom?: string;
    qty: number;
    estimated_price?: number;
    external_id: string;
  }>;
}

/** A field of a record that could not be read: left out of it, named with the reason (and the value it had). */
export interface UnreadableField {
  /** Dotted path in the record as the service wrote it, e.g. `lines.0.qty`, `quotation_detail.<line_id>.price`. */
  field: string;
  reason: string;
}

/** A supplier invited to an RFQ (the `invitation` map of older list answers). */
export interface Invitation {
  sup_name?: string;
  contact?: string;
  sup_email?: string;
  sup_id?: string;
  /** As the service says it, e.g. `pending`. */
  status?: string;
}

export interface ListedLine {
  /** Zero-based position (the key of the `lines` map, or the array index). */
  position: number;
  line_id: string;
  product_name?: string;
  specification?: string;
  uom?: string;
  qty?: number;
  /** Decimal strings. */
  estimated_price?: string;
  each_price?: string;
  status?: string;
  external_id?: string;
  docs: unknown;
}

export interface ListedRfq {
  _id: number;
  title?: string;
  rfq_no?: number;
  comp_name?: string;
  /** The status string inside the record (e.g. `Active`); the RFQ's state is the list it was found in. */
  status?: string;
  /**
   * The state the record's own label names (status-labels.ts), when the label is known: used only where no proven
   * filter says it (the unfiltered walk, the detail call).
   */
  labelState?: RfqState;
  version?: number;
  /** Unix ms. */
  rfq_date?: number;
  due_date?: number;
  required_date?: number;
  description?: string;
  rfq_type?: string;
  rfq_category?: string;
  rfq_location?: string;
  /** Sorted by position. */
  lines: ListedLine[];
  /** Suppliers invited to the RFQ, where the service lists them (`invitation`). */
  invitations?: Invitation[];
  /** Fields left out because they could not be read (the record's identity, `_id` and its lines, was). */
  unreadable?: UnreadableField[];
}

export interface QuotationLineDetail {
  line_id: string;
  /** Decimal string, or null when the supplier left the line without a price. */
  price: string | null;
  docs: unknown[];
}

export interface Quotation {
  /** Opaque: an integer or `comp_<n>` on the wire, always a string here. */
  quotation_key: string;
  sup_name?: string;
  revision_no?: number;
  quotation_date?: number;
  notes?: string;
  detail: QuotationLineDetail[];
  attachments: unknown[];
  status?: 'qualified' | 'not qualified';
  /** The service's own word when it wrote `success` / `unsuccess` (read as qualified / not qualified). */
  statusWord?: 'success' | 'unsuccess';
  /** Fields left out because they could not be read (its `quotation_key` was). */
  unreadable?: UnreadableField[];
}

export interface QuotationList {
  rfqId: number;
  quotations: Quotation[];
  /** Quotations whose key could not be read: reported, never blocking the others. */
  invalid: Array<{ index: number; quotation_key?: string; reason: string }>;
}
