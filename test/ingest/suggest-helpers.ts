/** Helpers of the `check --suggest` tests: a drafted profile loaded as a user would, and what it changes. */
import { parse as parseYaml } from 'yaml';
import { compileProfile, ingestFile, type MappingProfile } from '../../src/ingest/index.ts';
import { suggestProfile } from '../../src/ingest/suggest/profile.ts';
import type { FollowedCategories } from '../../src/ingest/suggest/categories.ts';
import type { Requisition } from '../../src/core/requisition.ts';

export const NOW = new Date('2026-11-22T10:00:00Z');
export const LIMITS = {
  maxFileBytes: 50 * 1024 * 1024,
  maxXlsxUncompressedBytes: 200 * 1024 * 1024,
  maxXlsxEntries: 1000,
};

export type Aspect = 'requisition' | 'external_id' | 'qty' | 'estimated_price';

/** The review paths that can explain a difference in each aspect. */
export const EXPLAINS: Record<Aspect, string[]> = {
  requisition: ['fields.requisition', 'continuation'],
  external_id: ['fields.external_id'],
  qty: ['fields.qty', 'numbers.decimal'],
  estimated_price: [
    'fields.estimated_price',
    'fields.unit_price',
    'fields.price_unit',
    'numbers.decimal',
    'fields.qty',
  ],
};

export async function ingestWith(
  path: string,
  profiles: MappingProfile[],
  mappingName?: string,
): Promise<{ reqs: Requisition[]; rejected: number; held: number; skipped: number }> {
  const reqs: Requisition[] = [];
  const s = await ingestFile(path, { profiles, mappingName, limits: LIMITS, now: NOW }, async (r) => void reqs.push(r));
  return { reqs, rejected: s.rejectedRows, held: s.heldRequisitions, skipped: s.skippedRows };
}

/** Review paths listed in the YAML's head comment ("#   - fields.qty: ..."): what a user sees. */
export function reviewPaths(yaml: string): string[] {
  return [...yaml.matchAll(/^# {3}- ([\w.]+): /gm)].map((m) => m[1]!);
}

/** A drafted profile as a user gets it: the YAML text, parsed and validated like any file in mappings/. */
export async function suggestAndLoad(path: string, name?: string, followed?: FollowedCategories) {
  const s = await suggestProfile(path, { limits: LIMITS, now: NOW, name, ...(followed ? { followed } : {}) });
  const profile = compileProfile(parseYaml(s.yaml), `${s.name}.yaml`);
  return { s, profile, reviews: reviewPaths(s.yaml) };
}

export function differences(got: Requisition[], want: Requisition[]): Set<Aspect> {
  const d = new Set<Aspect>();
  const shape = (rs: Requisition[]) => JSON.stringify(rs.map((r) => [r.key, r.lines.map((l) => l.row)]));
  if (shape(got) !== shape(want)) d.add('requisition');
  const lines = (rs: Requisition[]) => rs.flatMap((r) => r.lines);
  const g = lines(got);
  const w = lines(want);
  const byRow = new Map(g.map((l) => [l.row, l]));
  for (const l of w) {
    const o = byRow.get(l.row);
    if (!o) continue;
    if (o.external_id !== l.external_id) d.add('external_id');
    if (o.qty !== l.qty) d.add('qty');
    if (o.estimated_price !== l.estimated_price) d.add('estimated_price');
  }
  return d;
}

/**
 * The fields of a requisition the service requires (design.md: title, both dates, rfq_type, rfq_category,
 * rfq_location; per line product_name, uom, qty, estimated_price) that it lacks, as `field` or `line N: field`.
 */
export function missingRequired(r: Requisition): string[] {
  const out: string[] = [];
  const blank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');
  for (const f of ['title', 'due_date', 'required_date', 'rfq_type', 'rfq_category', 'rfq_location'] as const)
    if (blank(r[f])) out.push(f);
  for (const l of r.lines)
    for (const f of ['product_name', 'uom', 'qty', 'estimated_price'] as const)
      if (blank(l[f])) out.push(`row ${l.row}: ${f}`);
  return out;
}
