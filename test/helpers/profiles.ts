/** Mapping profiles the tests of broken profiles share: one that works, and the same with a field the schema requires left out. */

export const LEGACY_PROFILE = `name: legacy
match:
  filename: ["legacy-*"]
due_date_rule:
  days_after_ingest: 14
required_date_rule:
  days_after_due: 14
fields:
  requisition: "{PR}"
  external_id: "LEG-{PR}-{Pos}"
  product_name: "{Item}"
  qty: "{Qty}"
  uom: "{Unit}"
  estimated_price: "{Total}"
  rfq_type: Private
  rfq_category: "{Group}"
  rfq_location: Plant 2
`;

/** No external_id: the schema requires one. */
export const LEGACY_PROFILE_BROKEN = LEGACY_PROFILE.replace('  external_id: "LEG-{PR}-{Pos}"\n', '');
