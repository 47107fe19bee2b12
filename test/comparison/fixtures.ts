/** RFQs and quotations shaped like the sourcing service's (after tolerant parsing) for the comparison tests. */
import { copyFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ingestFile, loadProfiles } from '../../src/ingest/index.ts';
import type { Requisition } from '../../src/core/requisition.ts';
import type { ListedRfq, Quotation } from '../../src/sourcing/types.ts';
import type { ComparisonInput } from '../../src/comparison/index.ts';

export interface LineSpec {
  ext: string;
  product: string;
  qty: number;
  /** Estimated line TOTAL, decimal string. */
  est?: string;
  uom?: string;
  spec?: string;
}

export function makeRfq(lines: LineSpec[], over: Partial<ListedRfq> = {}): ListedRfq {
  return {
    _id: 5021,
    rfq_no: 117,
    title: 'Office IT refresh Q3',
    comp_name: 'Acme Manufacturing GmbH',
    status: 'Active',
    rfq_date: Date.UTC(2026, 5, 1, 8, 0),
    due_date: Date.UTC(2026, 5, 15, 16, 0),
    required_date: Date.UTC(2026, 6, 1),
    rfq_type: 'Public',
    rfq_category: 'IT hardware',
    rfq_location: 'Hamburg',
    lines: lines.map((l, i) => ({
      position: i,
      line_id: `L${i + 1}`,
      external_id: l.ext,
      product_name: l.product,
      specification: l.spec ?? '',
      uom: l.uom ?? 'EA',
      qty: l.qty,
      estimated_price: l.est,
      docs: {},
    })),
    ...over,
  };
}

export function quote(
  key: string,
  name: string,
  prices: Record<string, string | null>,
  over: Partial<Quotation> = {},
): Quotation {
  return {
    quotation_key: key,
    sup_name: name,
    revision_no: 1,
    quotation_date: Date.UTC(2026, 5, 10, 9, 0),
    notes: '',
    detail: Object.entries(prices).map(([line_id, price]) => ({ line_id, price, docs: [] })),
    attachments: [],
    ...over,
  };
}

export const GENERATED_AT = new Date(Date.UTC(2026, 5, 16, 7, 30));

/** A realistic RFQ: 8 lines, 5 suppliers, one not qualified, one missing price, one tie, hostile texts. */
export function demoInput(over: Partial<ComparisonInput> = {}): ComparisonInput {
  const rfq = makeRfq([
    { ext: 'PR-4711-10', product: 'Laptop 14" business', spec: 'i7, 32 GB RAM, 1 TB SSD', qty: 25, est: '30000' },
    { ext: 'PR-4711-20', product: 'Docking station USB-C', spec: '2x DisplayPort, 100 W PD', qty: 25, est: '5000' },
    { ext: 'PR-4711-30', product: 'Monitor 27" QHD', spec: 'IPS, height adjustable', qty: 40, est: '12000' },
    { ext: 'PR-4711-40', product: 'Keyboard DE layout', spec: 'wired, quiet keys', qty: 50, est: '1500' },
    { ext: 'PR-4711-50', product: 'Mouse optical', spec: 'wireless, 2.4 GHz', qty: 50, est: '750' },
    { ext: 'PR-4711-60', product: 'Headset', spec: 'USB, noise cancelling', qty: 30, est: '2400' },
    { ext: '=HYPERLINK("http://evil.example","x")', product: '@SUM(A1:A2)', spec: '-2+3', qty: 10, est: '900' },
    { ext: 'PR-4711-80', product: 'Laptop bag', spec: '15", water resistant', qty: 25, est: '875', uom: 'PC' },
  ]);
  const quotations: Quotation[] = [
    quote(
      '101',
      'Nordic Office Supply AB',
      { L1: '1149.00', L2: '189.90', L3: '289.00', L4: '27.50', L5: '13.90', L6: '74.00', L7: '85.00', L8: '32.00' },
      { quotation_date: Date.UTC(2026, 5, 9, 14, 5), revision_no: 2, notes: 'Delivery in 3 weeks.' },
    ),
    quote(
      'comp_7',
      'Hanse IT Distribution GmbH',
      { L1: '1099.00', L2: '199.00', L3: '279.00', L4: '29.00', L5: '12.50', L6: '79.00', L7: '92.00', L8: null },
      {
        quotation_date: Date.UTC(2026, 5, 10, 11, 0),
        notes: '=cmd|" /C calc"!A0',
        attachments: [{ name: 'offer.pdf' }],
      },
    ),
    quote(
      '205',
      'Bürotechnik Müller & Söhne KG',
      { L1: '1175.00', L2: '185.00', L3: '279.00', L4: '26.90', L5: '14.20', L6: '71.50', L7: '88.00', L8: '29.90' },
      { quotation_date: Date.UTC(2026, 5, 11, 8, 30), status: 'qualified' },
    ),
    quote(
      '310',
      'Cheap Imports Ltd',
      { L1: '899.00', L2: '149.00', L3: '219.00', L4: '19.00', L5: '9.00', L6: '49.00', L7: '60.00', L8: '19.00' },
      { quotation_date: Date.UTC(2026, 5, 8, 10, 0), status: 'not qualified', notes: 'No CE certificates.' },
    ),
    quote(
      '412',
      'TechPartner Solutions',
      { L1: '1125.00', L2: '195.50', L3: '299.00', L4: '28.00', L5: '13.00', L6: '76.00', L7: '90.00', L8: '31.50' },
      { quotation_date: Date.UTC(2026, 5, 12, 16, 45), status: 'qualified', revision_no: 3 },
    ),
  ];
  return {
    rfq,
    state: 'closed',
    quotations,
    invalidQuotations: [{ quotation_key: '999', reason: 'quotation_detail is not an object or array' }],
    requisition: { key: 'REQ-2026-0042', sourceFile: 'sap_export_2026-06-01.csv', profile: 'sap-me5a' },
    generatedAt: GENERATED_AT,
    timeZone: 'Europe/Berlin',
    version: 1,
    ...over,
  };
}

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The requisitions of a shipped sample, read through its shipped profile as the worker would (copied into `dir`). */
export async function ingestSample(dir: string, sample: string): Promise<Requisition[]> {
  const path = join(dir, sample);
  await copyFile(join(ROOT, 'samples', sample), path);
  const got: Requisition[] = [];
  const limits = { maxFileBytes: 50 * 1024 * 1024, maxXlsxUncompressedBytes: 200 * 1024 * 1024, maxXlsxEntries: 1000 };
  await ingestFile(
    path,
    { profiles: await loadProfiles(join(ROOT, 'mappings')), limits, now: new Date('2026-11-22T10:00:00Z') },
    async (r) => void got.push(r),
  );
  return got;
}

const PRINT_PRODUCTS = [
  ['Hydraulic pump HP-220', 'cast iron, 220 bar'],
  ['Seal kit NBR', 'for HP-220'],
  ['Ball bearing 6204-2RS', 'sealed both sides'],
  ['Conveyor belt 800 mm', 'EP 400/3, per metre'],
  ['Gear motor 1.5 kW', 'IE3, 400 V'],
  ['Safety gloves', 'cut level C, size 9'],
  ['Stainless bolts M12x60', 'A4-80, DIN 933'],
  ['Frequency inverter 4 kW', 'IP20, EMC filter'],
  ['Pneumatic cylinder 50/200', 'ISO 15552'],
  ['Cable NYM-J 5x2.5', 'drum of 100 m'],
] as const;

/**
 * An RFQ of `lines` lines and `suppliers` quotations sized for the printout: large quantities, so a line total
 * runs into millions (8,203,437.40 as the lowest, bold on green, was printed as `###`), products and specifications
 * of ordinary length, every supplier quoting every line, one not qualified.
 */
export function printInput(lines: number, suppliers: number, over: Partial<ComparisonInput> = {}): ComparisonInput {
  const rfq = makeRfq(
    Array.from({ length: lines }, (_, i) => {
      const [product, spec] = PRINT_PRODUCTS[i % PRINT_PRODUCTS.length]!;
      return {
        ext: `PR-4711-${String((i + 1) * 10).padStart(3, '0')}`,
        product: i < PRINT_PRODUCTS.length ? product : `${product} (${Math.floor(i / PRINT_PRODUCTS.length) + 1})`,
        spec,
        qty: i === 0 ? 7_460 : 10 + i * 37,
        est: i === 0 ? '8500000' : String((10 + i * 37) * (40 + i * 13)),
        uom: i % 4 === 3 ? 'M' : 'PC',
      };
    }),
    { title: 'Maintenance spares 2027', rfq_category: 'MRO' },
  );
  const names = [
    'Nordic Industrial Supply AB',
    'Hanse Technik GmbH',
    'Bürotechnik Müller & Söhne KG',
    'Cheap Imports Ltd',
    'TechPartner Solutions',
    'Rhein-Main Antriebe GmbH',
    'Alpine Components AG',
  ];
  const quotations: Quotation[] = Array.from({ length: suppliers }, (_, s) => {
    const prices: Record<string, string> = {};
    for (let i = 0; i < lines; i++) {
      // line 1: 7,460 x 1,099.66 = 8,203,463.60 ... the lowest of them 8,203,437.40 (1,099.6565 rounds in the cell)
      const base = i === 0 ? 1099.65 : 40 + i * 13;
      prices[`L${i + 1}`] = (base * (1 + ((s * 7 + i * 3) % 11) / 100) + (i === 0 && s === 1 ? -0.0035 : 0)).toFixed(
        i === 0 ? 4 : 2,
      );
    }
    return quote(String(100 + s), names[s % names.length]!, prices, {
      quotation_date: Date.UTC(2026, 5, 8 + s, 10, 0),
      status: s === 3 ? 'not qualified' : 'qualified',
      notes: s === 0 ? 'Delivery in 3 weeks, DAP Hamburg.' : '',
    });
  });
  return {
    rfq,
    state: 'closed',
    quotations,
    requisition: { key: 'REQ-2026-0117', sourceFile: 'sap_export_2026-06-01.csv', profile: 'sap-me5a' },
    generatedAt: GENERATED_AT,
    timeZone: 'Europe/Berlin',
    currency: 'EUR',
    version: 1,
    ...over,
  };
}

/**
 * A final comparison whose lines have short product names (`Nut`, `Bolt`) and no specification: the columns under
 * the header block's dates (RFQ date, due date, generated) are as narrow as their lines make them, which once
 * printed those dates as `###`.
 */
export function shortNamesInput(over: Partial<ComparisonInput> = {}): ComparisonInput {
  const rfq = makeRfq(
    [
      { ext: 'A1', product: 'Nut', qty: 10, est: '20' },
      { ext: 'A2', product: 'Bolt', qty: 5, est: '15' },
    ],
    { title: 'Fasteners' },
  );
  return {
    rfq,
    state: 'completed',
    quotations: [
      quote('101', 'Keystone', { L1: '1.90', L2: '2.80' }, { status: 'qualified' }),
      quote('102', 'Orbit', { L1: '2.10', L2: '2.70' }, { status: 'qualified' }),
    ],
    generatedAt: GENERATED_AT,
    timeZone: 'Europe/Berlin',
    currency: 'EUR',
    ...over,
  };
}
