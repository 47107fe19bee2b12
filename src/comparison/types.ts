/**
 * The shapes of the quote comparison: what goes in (ComparisonInput) and the model every output renders
 * (ComparisonModel). Kept apart from the stages so each stage module depends on these types only.
 */
import type { Decimal } from 'decimal.js';
import type { ListedRfq, Quotation } from '../sourcing/index.ts';

/**
 * What a quotation's `price` for a line means (QUOTATION_PRICE_BASIS): the unit price, or the line total (unit
 * price = line total / qty).
 */
export type PriceBasis = 'unit' | 'line_total';

export interface ComparisonInput {
  rfq: ListedRfq;
  state: 'open' | 'closed' | 'completed' | 'cancelled';
  quotations: Quotation[];
  /** Quotations that broke the schema upstream: reported in the notes, never blocking. */
  invalidQuotations?: Array<{ quotation_key?: string; reason: string }>;
  /** quotation_key of the winning quotation once the RFQ is completed (`status=success`). */
  winnerKey?: string;
  requisition?: { key: string; sourceFile: string; profile?: string };
  generatedAt: Date;
  /** IANA zone for displayed dates, default 'UTC'. */
  timeZone?: string;
  /** Workbook version: a quotation revision after the first workbook triggers a new version. */
  version?: number;
  /** Default 'unit'. */
  priceBasis?: PriceBasis;
  /** external_id -> [unit price, price unit] of the ERP export: the estimates use these where given. */
  erpPrices?: Record<string, [string, string]>;
  /**
   * Dates the ERP gave as a day only (the day as written, and the instant sent for it): shown as that day, without
   * a time, while the RFQ still has that instant.
   */
  erpDays?: Partial<Record<'due_date' | 'required_date', { day: string; at: number }>>;
  /** ISO 4217 code of every amount (the requisition's currency); unnamed when unknown. */
  currency?: string;
  /** File name of the earlier award file of this RFQ that this version's award file replaces. */
  supersedes?: string;
  /**
   * Set when the RFQ's lines as listed do not match what was posted (count, or the product at a position) while
   * their ERP ids come from those positions: no award file is written, the reason is said instead.
   */
  erpIdProblem?: string;
  /** How the lines' ERP ids were found (the notes say it): echoed by the service, or by position as posted. */
  erpIdsBy?: { echoed: number; byPosition: number };
  /** The vendors following the RFQ's category (the account's vendor directory), for the response rate. */
  vendors?: CategoryVendors;
  /**
   * The last final award of each line's product before this RFQ (src/awarding/price-history.ts), by the line's
   * `line_id`; a line without one shows "no earlier award". Absent: the history was not looked up (no columns' data).
   */
  lastAwards?: Record<string, LastAward>;
  /** external_id -> the ERP's material or item number (the profile's `product_code`): the price history's key. */
  productCodes?: Record<string, string>;
  /** Paper of the printout (PRINT_PAPER), default A4. */
  paper?: 'a4' | 'letter';
  /** The "Evaluated by / Approved by / Date" block below the Comparison sheet (COMPARISON_SIGN_OFF), default on. */
  signOff?: boolean;
}

/** A final award of a product, as the price history keeps it. */
export interface LastAward {
  /** Unit price as a decimal string. */
  unitPrice: string;
  currency?: string;
  /** Unix ms when the award became final (the comparison that made it final was written). */
  at: number;
  supplier: string;
  rfqId: number;
  rfqNo?: number;
}

/** A vendor of the account's directory, as procurement contacts it. */
export interface VendorContact {
  id: string;
  name: string;
  contact?: string;
  email?: string;
  phone?: string;
}

/** The RFQ's category and who follows it; `following` undefined: no figures (`unavailable` says why). */
export interface CategoryVendors {
  category?: string;
  following?: VendorContact[];
  unavailable?: string;
  /** Unix ms of the directory's read. */
  asOf?: number;
}

/** Who was asked (the vendors following the category) and who answered (src/comparison/responses.ts). */
export interface ResponseRate {
  category?: string;
  following: number;
  /** Following vendors with a quotation. */
  quoted: number;
  /** Quotations from suppliers not following the category (invited, or not in the directory). */
  others: number;
  /** quoted / following, a fraction; absent when nobody follows. */
  rate?: Decimal;
  /** Following vendors without a quotation, in directory order. */
  notQuoted: VendorContact[];
  asOf?: number;
  /** Why there are no figures (no directory, not readable). */
  unavailable?: string;
}

export type SupplierDecision = 'qualified' | 'not qualified' | 'undecided';
/**
 * The name of the award rule that decided the award (award/award-rules.ts): `lowest-qualified-price`,
 * `winning-quotation`...
 */
export type AwardBasis = string;

export interface SupplierSummary {
  key: string;
  name: string;
  revision?: number;
  quotationDate?: number;
  notes?: string;
  decision: SupplierDecision;
  /** Counts for statistics, ranks and the award (not `not qualified`). */
  eligible: boolean;
  winner: boolean;
  /** Quotation attachments plus documents attached to its lines. */
  documents: number;
  /** Names of the quotation's own attachments. */
  attachmentNames: string[];
  /** Line index -> names of the documents the supplier attached to that line (only lines that have some). */
  lineDocuments?: Map<number, string[]>;
  /**
   * Indexed by line index: the validated price as quoted (a decimal string: a unit price or a line total, per the
   * model's priceBasis), or null when this supplier gave no usable price. Strings, not Decimals: a Decimal costs
   * ~250 bytes, and 250,000 of them would dominate memory; priceParts() parses one when needed.
   */
  quoted: Array<string | null>;
  /**
   * Indexed by line index, for display only (a cell holds a double): the unit price and the exact line total
   * (computed in decimal per the price basis) converted once; NaN where there is none. Keeping these as doubles
   * instead of 250,000 retained Decimal totals is what keeps a 5,000 x 50 comparison small.
   */
  unitValues: Float64Array;
  lineTotalValues: Float64Array;
  linesQuoted: number;
  /** linesQuoted / all lines (0 when the RFQ has no lines). */
  coverage: Decimal;
  fullCoverage: boolean;
  /** Sum of the line totals of the quoted lines. */
  total: Decimal;
  /** Position in the deterministic tie-break order (earlier quotation date, then key). */
  tieOrder: number;
  /** Rank by total among eligible suppliers with full coverage (equal totals share a rank). */
  rankByTotal?: number;
  /** (total - best total) / best total, for full-coverage suppliers; a fraction, 0.05 = 5 %. */
  deviationFromBest?: Decimal;
}

export interface LineComparison {
  index: number;
  lineId: string;
  externalId: string;
  product: string;
  specification: string;
  uom: string;
  /** An integer per the interface; a number, so a line holds no Decimal until its statistics are computed. */
  qty?: number;
  estimatedTotal?: Decimal;
  estimatedUnit?: Decimal;
  /** Indexed by supplier index: rank of the unit price among eligible prices of this line; 0 = not ranked. */
  ranks: number[];
  /** Eligible quotes for this line. */
  quotes: number;
  /** Any quote at all, eligible or not. */
  anyQuote?: boolean;
  /** Unit prices (converted from line totals under the line_total basis; undefined there without a qty). */
  lowest?: Decimal;
  highest?: Decimal;
  mean?: Decimal;
  /** Supplier index with the lowest eligible unit price (ties broken by earlier quotation date, then key). */
  best?: number;
  /** All supplier indexes sharing the lowest eligible price, in tie-break order (length > 1: a tie). */
  tiedAtBest: number[];
  bestLineTotal?: Decimal;
  /** estimatedTotal - bestLineTotal (positive = saving). */
  savings?: Decimal;
  /** savings / estimatedTotal, a fraction. */
  savingsPct?: Decimal;
  /**
   * unitPrice is undefined only for a line total without a quantity. `remark`: the rule's word on why this line went
   * to this supplier (a tie, one order for every line), for the Award sheet.
   */
  award?: { supplier: number; unitPrice?: Decimal; lineTotal?: Decimal; basis: AwardBasis; remark?: string };
  /** Why the line has no award, when it has none. */
  noAwardReason?: string;
}

export interface AwardSummary {
  basis: AwardBasis;
  /** The rule's name for people (`lowest qualified price`), and how it decides (the Award sheet's second line). */
  basisLabel: string;
  basisDescription: string;
  /**
   * Final: the ERP may act on it, and only then is an award file written. The RFQ is completed and its winning
   * quotation is known, or (closed or completed) every quotation has a qualification decision. Otherwise a draft.
   */
  final: boolean;
  finalBecause?: 'winning-quotation' | 'all-decided';
  /** Readable quotations without a qualification decision, plus those that could not be read. */
  undecided: number;
  /** Parts of the RFQ or of a quotation left out unread that could change the award: it stays a draft. */
  blockedBy?: string[];
  /** Each line to its lowest eligible price. */
  splitTotal: Decimal;
  splitLinesCovered: number;
  /** The eligible full-coverage supplier with the lowest total. */
  bestSingle?: { supplier: number; total: Decimal };
  /** bestSingle.total - splitTotal: what splitting the award saves. */
  splitSaving?: Decimal;
  /** splitSaving / bestSingle.total, a fraction. */
  splitSavingPct?: Decimal;
  winner?: { supplier: number; total: Decimal; linesQuoted: number };
  /** Sum of the awarded line totals (per the basis). */
  awardedTotal: Decimal;
  awardedLines: number;
  estimatedTotal?: Decimal;
  /** Why no award file is written although the award may be final: the ERP's ids of the lines are not certain. */
  withheld?: string;
}

export interface ComparisonNote {
  topic: string;
  text: string;
}

/** Set when the quotes look like the other price basis than the configured one (lines with qty >= 2). */
export interface PriceBasisWarning {
  configured: PriceBasis;
  looksLike: PriceBasis;
  /** Quotes compared with the estimate, and how many of them are nearer the other basis. */
  compared: number;
  nearerOther: number;
  text: string;
}

export interface ComparisonModel {
  input: ComparisonInput;
  timeZone: string;
  priceBasis: PriceBasis;
  priceBasisWarning?: PriceBasisWarning;
  /** One currency for every amount of the comparison: two currencies never meet in one figure. */
  currency?: string;
  /** Columns in display order: eligible full coverage by total, then partial coverage, then not qualified. */
  suppliers: SupplierSummary[];
  lines: LineComparison[];
  winnerIndex?: number;
  award: AwardSummary;
  notes: ComparisonNote[];
  /** The response rate, when the input names the vendors following the category. */
  responses?: ResponseRate;
  /** Counts behind the notes (lists in the notes are capped). */
  counts: { ties: number; linesWithoutQuote: number; linesWithoutEligibleQuote: number; invalidQuotations: number };
}
