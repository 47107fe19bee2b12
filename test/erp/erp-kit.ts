/**
 * The ERP outputs' test kit: the demo comparison made final (every quotation decided: a split award), the shipped
 * templates' published column lists (fixtures/<profile>.json, each naming its source), a vendor cross-reference
 * file, the ERP outputs loaded from settings as the worker loads them, and the files read back as the ERP would.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'csv-parse/sync';
import iconv from 'iconv-lite';
import { buildComparison, erpAwardOf, type ComparisonInput, type ComparisonModel } from '../../src/comparison/index.ts';
import { loadErpOutputs, type ErpAward, type ErpOutputs } from '../../src/erp/index.ts';
import { loadConfig } from '../../src/settings/index.ts';
import { demoInput } from '../comparison/fixtures.ts';

const HERE = fileURLToPath(new URL('.', import.meta.url));

export const SHIPPED = [
  'po-lines-csv',
  'sap-po-bapi',
  'oracle-ebs-pdoi',
  'oracle-fusion-fbdi',
  'netsuite-po',
  'odoo-po',
  'dynamics-365-po',
] as const;

/** Every ERP_* constant the shipped profiles name, as an installation sets them. */
export const ERP_SETTINGS: Record<string, string> = {
  ERP_COMPANY_CODE: '1000',
  ERP_PURCHASING_ORG: '1000',
  ERP_PURCHASING_GROUP: '001',
  ERP_PLANT: '1100',
  ERP_WAREHOUSE: '11',
  ERP_BUSINESS_UNIT: 'US1 Business Unit',
  ERP_ORG_ID: '204',
  ERP_BUYER: 'Roth, Calvin',
  ERP_SHIP_TO_LOCATION: 'V1- New York City',
  ERP_SHIP_TO_ORGANIZATION: 'V1',
  ERP_SUBSIDIARY: 'Parent Company',
  ERP_LOCATION: 'Main Warehouse',
};

export interface Template {
  profile: string;
  source: string;
  headerless?: boolean;
  /** File name part -> the published columns in order. */
  files: Record<string, string[]>;
  structures?: Record<string, string[]>;
  firstRowOnly?: string[];
}

export function template(profile: string): Template {
  return JSON.parse(readFileSync(join(HERE, 'fixtures', `${profile}.json`), 'utf8')) as Template;
}

/** The demo comparison with every quotation decided: final, split across three suppliers (lowest qualified price). */
export function finalDemoInput(over: Partial<ComparisonInput> = {}): ComparisonInput {
  const base = demoInput();
  return {
    ...base,
    quotations: base.quotations.map((q) => (q.status ? q : { ...q, status: 'qualified' })),
    currency: 'EUR',
    productCodes: { 'PR-4711-10': 'MAT-100010', 'PR-4711-30': 'MAT-100030' },
    erpDays: { required_date: { day: '2026-07-01', at: base.rfq.required_date! } },
    ...over,
  };
}

export function finalDemo(over: Partial<ComparisonInput> = {}): { model: ComparisonModel; award: ErpAward } {
  const model = buildComparison(finalDemoInput(over));
  return { model, award: erpAwardOf(model) };
}

export interface XrefRow {
  supplier_key: string;
  supplier_name: string;
  erp_vendor_id: string;
  erp_vendor_site?: string;
  company?: string;
  plant?: string;
}

/** The demo's suppliers with ERP vendors (and sites) in the ERP's style. */
export const DEMO_XREF: XrefRow[] = [
  {
    supplier_key: '101',
    supplier_name: 'Nordic Office Supply AB',
    erp_vendor_id: '0000100101',
    erp_vendor_site: 'STOCKHOLM',
  },
  {
    supplier_key: 'comp_7',
    supplier_name: 'Hanse IT Distribution GmbH',
    erp_vendor_id: '0000100107',
    erp_vendor_site: 'HAMBURG',
  },
  {
    supplier_key: '205',
    supplier_name: 'Bürotechnik Müller & Söhne KG',
    erp_vendor_id: '0000100205',
    erp_vendor_site: 'KOELN',
  },
  { supplier_key: '310', supplier_name: 'Cheap Imports Ltd', erp_vendor_id: '0000100310', erp_vendor_site: 'LONDON' },
  { supplier_key: '412', supplier_name: 'TechPartner Solutions', erp_vendor_id: '0000100412', erp_vendor_site: 'MAIN' },
];

export function writeXref(path: string, rows: readonly XrefRow[]): string {
  const cols = ['supplier_key', 'supplier_name', 'erp_vendor_id', 'erp_vendor_site', 'company', 'plant'] as const;
  const quote = (v: string) => (/[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
  writeFileSync(
    path,
    [cols.join(','), ...rows.map((r) => cols.map((c) => quote(r[c] ?? '')).join(','))].join('\r\n') + '\r\n',
  );
  return path;
}

/** The ERP outputs as the worker loads them from these settings (RFQ_SYNC_DIR `dir`). */
export async function erpOutputs(dir: string, env: Record<string, string>): Promise<ErpOutputs> {
  const config = loadConfig({ RFQ_SYNC_DIR: dir, ...env }, { requireToken: false });
  const outputs = await loadErpOutputs(config);
  if (!outputs) throw new TypeError('ERP_OUTPUTS names no profile');
  return outputs;
}

/** A CSV as the ERP reads it: decoded from its encoding, split with its delimiter. */
export function readCsv(data: Buffer, o: { encoding?: string; delimiter?: string } = {}): string[][] {
  const enc = o.encoding ?? 'utf-8';
  const text =
    enc === 'utf-8-bom'
      ? data.subarray(3).toString('utf8')
      : enc === 'utf-8'
        ? data.toString('utf8')
        : iconv.decode(data, enc);
  return parse(text, {
    delimiter: o.delimiter ?? ',',
    relax_column_count: false,
    record_delimiter: ['\r\n', '\n'],
  }) as string[][];
}

/** Rows as objects by the header row. */
export function byHeader(rows: string[][]): Array<Record<string, string>> {
  const [head, ...body] = rows;
  return body.map((r) => Object.fromEntries(head!.map((h, i) => [h, r[i] ?? ''])));
}
