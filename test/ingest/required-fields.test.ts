/**
 * The fields the sourcing service requires (ralese/docs rfq_post.rst: only `description` and a line's `external_id`
 * are optional) are required at `check` and ingest, before anything is sent: a requisition missing one is held, the
 * message naming the field and the profile setting that fills it. A profile's `category_map` turns ERP values into
 * the service's categories. Every shipped sample still passes `check` with nothing held for want of a field.
 */
import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { MappingError } from '../../src/core/errors.ts';
import { compileProfile, ingestFile, loadProfiles, runCheck, type MappingProfile } from '../../src/ingest/index.ts';
import type { Requisition } from '../../src/core/requisition.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const NOW = new Date('2026-11-22T10:00:00Z');
const LIMITS = { maxFileBytes: 1024 * 1024, maxXlsxUncompressedBytes: 1024 * 1024, maxXlsxEntries: 50 };
const HEADER =
  'Requisition,Line,Item,Specification,UoM,Qty,Estimated Total,Title,Description,Due Date,Required Date,RFQ Type,Category,Location';
const COLS = HEADER.split(',');

let dir: string;
let shipped: MappingProfile[];
beforeAll(async () => {
  dir = tempDir('rfq-required-');
  shipped = await loadProfiles(`${ROOT}mappings`);
});

/** A generic-template row, with some columns emptied. */
function row(pr: string, empty: string[] = []): string {
  const v: Record<string, string> = {
    Requisition: pr,
    Line: '1',
    Item: 'Bolt M8',
    Specification: '',
    UoM: 'pc',
    Qty: '10',
    'Estimated Total': '25',
    Title: 'Bolts',
    Description: '',
    'Due Date': '2027-03-01',
    'Required Date': '2027-04-01',
    'RFQ Type': 'Public',
    Category: 'Fasteners',
    Location: 'Plant 1',
  };
  for (const c of empty) v[c] = '';
  return COLS.map((c) => v[c]).join(',');
}

async function check(
  name: string,
  lines: string[],
  profiles = shipped,
): Promise<{ code: number; out: string[]; reqs: Requisition[] }> {
  const file = join(dir, name);
  await writeFile(file, [HEADER, ...lines].join('\n'));
  const out: string[] = [];
  const code = await runCheck(file, { profiles, limits: LIMITS, now: NOW, mappingName: profiles[0]!.name }, (l) =>
    out.push(l),
  );
  const reqs: Requisition[] = [];
  await ingestFile(file, { profiles, limits: LIMITS, now: NOW, mappingName: profiles[0]!.name }, async (r) => {
    reqs.push(r);
  });
  return { code, out, reqs };
}

const generic = () => shipped.filter((p) => p.name === 'generic');
/** The generic profile with changes (fields removed or added, other settings). */
function genericWith(over: { drop?: string[]; add?: Record<string, unknown> } = {}): MappingProfile[] {
  const fields: Record<string, string> = {
    requisition: '{Requisition}',
    external_id: '{Requisition}-{Line}',
    product_name: '{Item}',
    specification: '{Specification}',
    uom: '{UoM}',
    qty: '{Qty}',
    estimated_price: '{Estimated Total}',
    title: '{Title}',
    due_date: '{Due Date}',
    required_date: '{Required Date}',
    rfq_type: '{RFQ Type}',
    rfq_category: '{Category}',
    rfq_location: '{Location}',
  };
  for (const f of over.drop ?? []) delete fields[f];
  return [
    compileProfile({ name: 'acme', match: { headers: ['Requisition'] }, fields, ...over.add }, 'mappings/acme.yaml'),
  ];
}

describe('fields the sourcing service requires', () => {
  it.each([
    // [field kind, emptied column, field, the setting named]
    [
      'header text',
      'Category',
      'rfq_category',
      'fields.rfq_category (a column, or a constant) in mapping profile "generic"',
    ],
    [
      'header text',
      'Location',
      'rfq_location',
      'fields.rfq_location (a column, or a constant) in mapping profile "generic"',
    ],
    [
      'RFQ type',
      'RFQ Type',
      'rfq_type',
      'fields.rfq_type (a column, or the constant Public or Private) in mapping profile "generic"',
    ],
    [
      'date',
      'Required Date',
      'required_date',
      'fields.required_date (a column), or add a required_date_rule (days after the due date)',
    ],
    ['date', 'Due Date', 'due_date', 'fields.due_date (a column), or add a due_date_rule (days after ingest)'],
    ['line text', 'UoM', 'uom', 'fields.uom (a column, or a constant) in mapping profile "generic"'],
    ['line text', 'Item', 'product_name', 'fields.product_name (a column, or a constant)'],
    [
      'line number',
      'Estimated Total',
      'estimated_price',
      'fields.estimated_price (the line total) or fields.unit_price (total = qty x unit price)',
    ],
    ['line number', 'Qty', 'qty', 'fields.qty (a column, or a constant)'],
  ])(
    '%s: an empty %s holds the requisition at check, naming %s and the setting',
    async (_kind, column, field, setting) => {
      const { code, out, reqs } = await check(
        `generic-missing-${field}.csv`,
        [row('OK-1'), row('BAD-1', [column])],
        generic(),
      );
      expect(code).toBe(1);
      expect(reqs.map((r) => r.key)).toEqual(['OK-1']);
      const err = out.find((l) => l.startsWith('error:'))!;
      expect(err).toContain(
        `row 3, column ${column} (empty): ${field} is required by the sourcing service and is empty here`,
      );
      expect(err).toContain(setting);
      expect(out.at(-1)).toContain('1 requisition(s) held back');
    },
  );

  it('a profile that does not map a required field holds every requisition, naming the setting to add', async () => {
    const { code, out, reqs } = await check(
      'acme-no-location.csv',
      [row('A-1')],
      genericWith({ drop: ['rfq_location'] }),
    );
    expect(code).toBe(1);
    expect(reqs).toEqual([]);
    expect(out).toContain(
      'error: acme-no-location.csv row 2, column rfq_location (empty): rfq_location is required by the sourcing service and mapping profile "acme" (acme.yaml) does not fill it: set fields.rfq_location (a column, or a constant)',
    );
  });

  it('required_date_rule gives the required date where the export has none', async () => {
    const { code, reqs } = await check(
      'acme-rule.csv',
      [row('A-2', ['Required Date'])],
      genericWith({ drop: ['required_date'], add: { required_date_rule: { days_after_due: 10 } } }),
    );
    expect(code).toBe(0);
    expect(reqs[0]!.required_date).toBe(reqs[0]!.due_date + 10 * 86_400_000);
  });

  it('every shipped sample passes check with nothing held for want of a required field', async () => {
    for (const f of await readdir(`${ROOT}samples`)) {
      const out: string[] = [];
      expect(
        await runCheck(`${ROOT}samples/${f}`, { profiles: shipped, limits: LIMITS, now: NOW }, (l) => out.push(l)),
        f,
      ).toBe(0);
      expect(
        out.filter((l) => l.includes('required by the sourcing service')),
        f,
      ).toEqual([]);
      expect(out.at(-1), f).toMatch(/ 0 requisition\(s\) held back, 0 row\(s\) rejected/);
    }
  });
});

describe('category_map', () => {
  const mapped = () =>
    genericWith({ add: { category_map: { BOLTS: 'Fasteners', ppe: 'Safety', '001': 'Office supplies' } } });

  it('maps the ERP value to the service category (exact key first, then any letter case); an unmapped one is sent as it is, with a warning', async () => {
    const lines = [row('M-1'), row('M-2'), row('M-3'), row('M-4')].map((l, i) =>
      l.replace(',Fasteners,', `,${['BOLTS', 'PPE', '001', 'NUTS'][i]},`),
    );
    const { code, out, reqs } = await check('acme-map.csv', lines, mapped());
    expect(code).toBe(0);
    expect(reqs.map((r) => r.rfq_category)).toEqual(['Fasteners', 'Safety', 'Office supplies', 'NUTS']);
    expect(out).toContain(
      'warning: acme-map.csv row 5, column Category ("NUTS"): rfq_category "NUTS" is not in category_map of mapping profile "acme": sent as it is',
    );
  });

  it('is refused without fields.rfq_category, and with an empty category, naming the file and field', () => {
    expect(() => genericWith({ drop: ['rfq_category'], add: { category_map: { A: 'B' } } })).toThrow(
      new MappingError(
        'mapping profile mappings/acme.yaml: field category_map: needs fields.rfq_category (the values it maps)',
      ),
    );
    expect(() => genericWith({ add: { category_map: { A: ' ' } } })).toThrow(
      /field category_map: every category must be a non-empty text/,
    );
  });
});
