/**
 * Longest text the sourcing service takes in a create-rfq request, per field (characters, as zod's max counts them:
 * UTF-16 code units, after trimming for the trimmed fields). One definition for the client's request schema
 * (schemas.ts) and for ingestion, which rejects an overlong value in the report instead of letting it travel as a
 * job that the client would refuse later.
 */
export const REQUEST_TEXT_LIMITS = {
  title: 500,
  description: 20_000,
  rfq_category: 200,
  rfq_location: 200,
  product_name: 500,
  specification: 5_000,
  uom: 50,
  external_id: 200,
} as const;

export type LimitedTextField = keyof typeof REQUEST_TEXT_LIMITS;

/** Most lines one RFQ may have (the create request's `lines`); a longer requisition is held at ingestion. */
export const MAX_LINES_PER_RFQ = 1000;
