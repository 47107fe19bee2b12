/**
 * The four samples of exports a new user brings (test/ingest/fixtures/make-onboarding-samples.ts): an openpyxl
 * workbook with a named sheet, a title row and a "Total" row; a German ';' CSV with a "Summe" row; a D365 export with
 * a Currency column; an SAP ME5A export with "Warengruppe". The drafted profile, parsed from its YAML text and used
 * unedited, gives exactly the requisitions of the shipped hand profile: every header field (title, description, type,
 * category, location, currency, the calendar days of both dates) and every line (product, specification, unit, qty,
 * estimated price). The only differences are the settings the draft always asks about, each under its review point:
 * the external_id prefix (only the user knows which other exports feed the account), the due date rule of a file
 * with no due date column, and the ERP's categories the hand profile maps to the service's (category_map): drafted as
 * with a service configured, the draft names exactly those as followed by no supplier.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadProfiles, type MappingProfile } from '../../src/ingest/index.ts';
import { mapCategory } from '../../src/ingest/category-map.ts';
import type { Requisition } from '../../src/core/requisition.ts';
import { SANDBOX_CATEGORIES } from '../../src/sandbox/vendors.ts';
import { ingestWith, missingRequired, suggestAndLoad } from './suggest-helpers.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

const CASES: Array<{ file: string; hand: string; skipped: number; currency?: string; category: string }> = [
  { file: 'Facilities_open_requisitions.xlsx', hand: 'facilities-pandas', skipped: 1, category: 'Electrical' },
  { file: 'BANF_Liste_Einkauf.csv', hand: 'banf-liste-de', skipped: 1, currency: 'EUR', category: 'Normteile' },
  {
    file: 'D365_PurchReqLines_DEMF.xlsx',
    hand: 'dynamics-365',
    skipped: 0,
    currency: 'EUR',
    category: 'Tools',
  },
  {
    file: 'ME5A_BANF_Werk1000.csv',
    hand: 'sap-me5a-de-warengruppe',
    skipped: 0,
    currency: 'EUR',
    category: 'WÄLZLAGER',
  },
];

/** A calendar day of `ms` in `zone` (the dates' days do not depend on the zone the profile names). */
function day(ms: number | undefined, zone: string): string | undefined {
  return ms === undefined ? undefined : new Intl.DateTimeFormat('en-CA', { timeZone: zone }).format(ms);
}

/** What the service and the workbooks get from a requisition, with its ids without `prefix`. */
function shape(r: Requisition, p: MappingProfile, prefix: string, withDue: boolean) {
  const zone = p.dates.timeZone;
  return {
    key: r.key,
    title: r.title,
    description: r.description,
    rfq_type: r.rfq_type,
    rfq_category: r.rfq_category,
    rfq_location: r.rfq_location,
    currency: r.currency,
    ...(withDue ? { due: day(r.due_date, zone) } : {}),
    required: day(r.required_date, zone),
    lines: r.lines.map((l) => ({
      row: l.row,
      external_id: l.external_id.startsWith(prefix) ? l.external_id.slice(prefix.length) : `!${l.external_id}`,
      product_name: l.product_name,
      specification: l.specification,
      uom: l.uom,
      qty: l.qty,
      estimated_price: l.estimated_price,
    })),
  };
}

describe('the unedited draft of each new sample ingests exactly as its hand profile', async () => {
  const shipped = await loadProfiles(join(ROOT, 'mappings'));
  it.each(CASES)('$file', async ({ file, hand, skipped, currency, category }) => {
    const path = join(ROOT, 'samples', file);
    const handProfile = shipped.find((p) => p.name === hand)!;
    const want = await ingestWith(path, shipped);
    expect(want.reqs[0]!.profile).toBe(hand); // the shipped profile is the one chosen for the file
    // drafted as with a service configured: its vendor directory's categories (the sandbox's, as in the demo)
    const { s, profile, reviews } = await suggestAndLoad(path, undefined, {
      categories: [...SANDBOX_CATEGORIES],
      source: 'the demo account',
    });
    const got = await ingestWith(path, [profile], profile.name);
    expect([got.rejected, got.held, got.skipped]).toEqual([0, 0, skipped]);
    expect([want.rejected, want.held, want.skipped]).toEqual([0, 0, skipped]);
    expect(got.reqs.flatMap(missingRequired)).toEqual([]);

    // the external_id prefix is the one difference in the ids, and it is asked about
    const prefix = want.reqs[0]!.lines[0]!.external_id.slice(0, -got.reqs[0]!.lines[0]!.external_id.length);
    expect(prefix).toMatch(/^[A-Z0-9]+-$/);
    expect(reviews).toContain('fields.external_id');
    // a due date rule that differs from the hand profile's is asked about
    const sameDue = JSON.stringify(handProfile.dueDateRule) === JSON.stringify(profile.dueDateRule);
    if (!sameDue) expect(reviews).toContain('due_date_rule');
    // the ERP's categories the hand profile maps to the service's are exactly those the draft names for review
    const mapped = [...new Set(got.reqs.map((r) => r.rfq_category!))].filter(
      (c) => handProfile.categoryMap && mapCategory(handProfile.categoryMap, c) !== undefined,
    );
    const categoryReview = s.reviews.find((r) => r.path === 'fields.rfq_category')?.text ?? '';
    expect(categoryReview.match(/^.*? match(es)? no category/)?.[0] ?? '').toBe(
      mapped.length === 0
        ? ''
        : `${mapped.map((c) => `"${c}"`).join(', ')} match${mapped.length === 1 ? 'es' : ''} no category`,
    );
    const viaMap = (r: Requisition) => ({
      ...r,
      rfq_category: handProfile.categoryMap
        ? (mapCategory(handProfile.categoryMap, r.rfq_category!) ?? r.rfq_category)
        : r.rfq_category,
    });
    expect(got.reqs.map((r) => shape(viaMap(r), profile, '', sameDue))).toEqual(
      want.reqs.map((r) => shape(r, handProfile, prefix, sameDue)),
    );

    expect(got.reqs[0]!.currency).toBe(currency);
    expect(got.reqs[0]!.rfq_category).toBe(category);
    // what the draft could tell, it does not ask about
    for (const settled of ['fields.qty', 'fields.estimated_price', 'fields.rfq_location'])
      expect(reviews).not.toContain(settled);
    if (skipped > 0)
      expect(s.yaml).toMatch(/# row\(s\) \d+ of the sample are summary rows \(.*\), not requisition lines/);
  });
});
