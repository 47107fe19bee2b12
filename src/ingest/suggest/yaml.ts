/**
 * The drafted profile as `check --suggest` prints it: YAML with the fields in a reader's order, the review points
 * listed on top and each also written as a `# REVIEW:` comment above the setting it is about.
 */
import { stringify } from 'yaml';
import { REQUISITION_FIELDS, type FieldName } from '../mapping-profile.ts';
import type { ReviewPoint } from './evidence.ts';
import type { FileSample } from './sample.ts';

/** A reader's order: the requisition key, the line's fields, then the requisition's other header fields. */
const FIELD_ORDER: readonly FieldName[] = [
  'requisition',
  'external_id',
  'product_name',
  'specification',
  'product_code',
  'uom',
  'qty',
  'estimated_price',
  'unit_price',
  'price_unit',
  ...REQUISITION_FIELDS.filter((f) => f !== 'requisition'),
];

/** The fields in FIELD_ORDER, unset ones left out. */
export function orderFields(f: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of FIELD_ORDER) if (f[k] !== undefined) out[k] = f[k];
  return out;
}

/** The profile as YAML with each review point as a `# REVIEW:` comment above its setting, and listed on top. */
export function renderYaml(
  raw: Record<string, unknown>,
  reviews: readonly ReviewPoint[],
  file: string,
  sample: FileSample,
  comments: readonly ReviewPoint[] = [],
): string {
  const out: string[] = [];
  out.push(
    `# Drafted by \`rfq-sync check --suggest\` from ${file} (${sample.complete ? `all ${sample.rows.length}` : `the first ${sample.rows.length}`} data row${sample.rows.length === 1 ? '' : 's'}; header on ${sample.twoRows ? `rows ${sample.twoRows.upperRow}-` : 'row '}${sample.headerRow}).`,
  );
  if (reviews.length > 0) {
    out.push(`# Review points (${reviews.length}), each marked "# REVIEW:" above its setting:`);
    for (const r of reviews) out.push(`#   - ${r.path}: ${oneLine(r.text)}`);
  } else out.push('# No review points: every choice was settled by the values.');
  const body = stringify(raw, { lineWidth: 0, defaultStringType: 'QUOTE_DOUBLE', defaultKeyType: 'PLAIN' }).split('\n');
  // Attach comments: find the line of each reviewed path (top-level key, or "  key:" under its parent).
  const at = new Map<number, string[]>();
  const marked = [
    ...comments.map((c) => ({ ...c, text: `# ${oneLine(c.text)}` })),
    ...reviews.map((r) => ({ ...r, text: `# REVIEW: ${oneLine(r.text)}` })),
  ];
  for (const r of marked) {
    const [top, sub] = r.path.split('.') as [string, string | undefined];
    let idx = body.findIndex((l) => l.startsWith(`${top}:`));
    if (sub !== undefined && idx >= 0) {
      const j = body.slice(idx + 1).findIndex((l) => l.startsWith(`  ${sub}:`));
      if (j >= 0) idx = idx + 1 + j;
    }
    if (idx < 0) continue;
    const list = at.get(idx) ?? [];
    list.push(r.text);
    at.set(idx, list);
  }
  body.forEach((line, i) => {
    const notes = at.get(i);
    if (notes) {
      const indent = /^\s*/.exec(line)![0];
      for (const t of notes) out.push(`${indent}${t}`);
    }
    out.push(line);
  });
  while (out[out.length - 1] === '') out.pop();
  return out.join('\n') + '\n';
}

function oneLine(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}
