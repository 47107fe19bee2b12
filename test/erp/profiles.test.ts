/**
 * The shipped output profiles against their ERPs' published templates (fixtures/<profile>.json, each naming its
 * source), on the demo's award made final: every file's columns in the template's order, one PO per supplier of a
 * split award, a revised award, a hostile supplier name, the German SAP upload (`1.234,56`, dd.mm.yyyy, Windows-1252)
 * and Oracle FBDI's zip opened and read headerless in order. Pure: no Redis, no service.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { strFromU8, unzipSync } from 'fflate';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { Decimal } from 'decimal.js';
import { awardCsv } from '../../src/comparison/index.ts';
import { loadFolderProfiles, planErpFiles, type PlannedFile } from '../../src/erp/index.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import {
  byHeader,
  DEMO_XREF,
  ERP_SETTINGS,
  erpOutputs,
  finalDemo,
  finalDemoInput,
  readCsv,
  SHIPPED,
  template,
  writeXref,
} from './erp-kit.ts';

const ROOT = join(import.meta.dirname, '../..');

async function plan(profile: string, award = finalDemo().award, xref = DEMO_XREF): Promise<PlannedFile[]> {
  const dir = tempDir('rfq-erp-');
  const outputs = await erpOutputs(dir, {
    ERP_OUTPUTS: profile,
    VENDOR_XREF_FILE: writeXref(join(dir, 'xref.csv'), xref),
    ...ERP_SETTINGS,
  });
  const p = await planErpFiles(outputs, award);
  if (!p.files) throw new TypeError(`held: ${JSON.stringify(p.held)}`);
  return p.files;
}

const base = (f: PlannedFile) => f.path.split(/[\\/]/).pop()!;
const fileFor = (files: PlannedFile[], part: string) => files.find((f) => base(f).includes(part))!;

async function xlsxRows(data: Buffer): Promise<string[][]> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(data as unknown as ArrayBuffer);
  const rows: string[][] = [];
  wb.worksheets[0]!.eachRow({ includeEmpty: true }, (row, n) => {
    rows[n - 1] = Array.from({ length: row.cellCount }, (_, i) => row.getCell(i + 1).text);
  });
  return rows;
}

describe('the shipped profiles', () => {
  it('all load, each names the template it follows in its header comment', async () => {
    const { profiles, problems } = await loadFolderProfiles(join(ROOT, 'erp-outputs'));
    expect(problems).toEqual([]);
    expect(profiles.map((p) => p.name).sort()).toEqual([...SHIPPED].sort());
    for (const name of SHIPPED) {
      const head = readFileSync(join(ROOT, 'erp-outputs', `${name}.yaml`), 'utf8')
        .split('\n')
        .filter((l) => l.startsWith('#'));
      expect(head.join('\n'), name).toMatch(/# Source: /);
      expect(template(name).source.length, name).toBeGreaterThan(40);
    }
  });

  it.each(SHIPPED.filter((p) => !['oracle-fusion-fbdi', 'odoo-po'].includes(p)))(
    '%s: every file has the published columns in their order; a split award gives one PO per supplier',
    async (profile) => {
      const t = template(profile);
      const { award } = finalDemo();
      const suppliers = new Set(award.lines.map((l) => l.supplierKey));
      expect(suppliers.size).toBeGreaterThanOrEqual(3); // the demo's award is split
      const files = await plan(profile);
      for (const [part, columns] of Object.entries(t.files)) {
        const f = fileFor(files, part);
        expect(f, `${profile}: a file named ${part}...`).toBeDefined();
        expect(base(f)).toMatch(/RFQ-117-5021-v1/);
        const p = {
          encoding: profile === 'sap-po-bapi' ? 'windows-1252' : 'utf-8',
          delimiter: profile === 'sap-po-bapi' ? ';' : ',',
        };
        const rows = readCsv(f.data, p);
        expect(rows[0], `${profile} ${part}`).toEqual(columns);
        const objs = byHeader(rows);
        const perPo = objs.length === suppliers.size;
        const perLine = objs.length === award.lines.length;
        expect(perPo || perLine, `${profile} ${part}: ${objs.length} rows`).toBe(true);
      }
    },
  );

  it('SAP: the structures in their BAPI order, German numbers and dates, Windows-1252, the requisition item', async () => {
    const t = template('sap-po-bapi');
    const header = t.files['SAP-PO']!;
    for (const [struct, fields] of Object.entries(t.structures!)) {
      const ours = header.filter((h) => h.startsWith(`${struct}-`)).map((h) => h.slice(struct.length + 1));
      expect(
        ours.every((f) => fields.includes(f)),
        struct,
      ).toBe(true);
      expect(
        ours.map((f) => fields.indexOf(f)),
        struct,
      ).toEqual([...ours.map((f) => fields.indexOf(f))].sort((a, b) => a - b));
    }
    // a price over a thousand (1,034.5 per unit) and a text Windows-1252 holds (ü) and one it cannot (Ł)
    const input = finalDemoInput();
    input.rfq = {
      ...input.rfq,
      lines: input.rfq.lines.map((l, i) =>
        i === 0 ? { ...l, product_name: 'Bürostuhl Łódź ergonomisch mit Armlehnen und Kopfstütze XL' } : l,
      ),
    };
    input.quotations = input.quotations.map((q) =>
      q.quotation_key === 'comp_7'
        ? { ...q, detail: q.detail.map((d) => (d.line_id === 'L1' ? { ...d, price: '1034.5' } : d)) }
        : q,
    );
    const { award } = finalDemo(input);
    const [f] = await plan('sap-po-bapi', award);
    expect(f!.data.includes(Buffer.from([0xfc]))).toBe(true); // ü as one Windows-1252 byte
    expect(f!.data.includes(Buffer.from('Ã¼', 'latin1'))).toBe(false); // not UTF-8
    const rows = byHeader(readCsv(f!.data, { encoding: 'windows-1252', delimiter: ';' }));
    const first = rows.find((r) => r['POITEM-SHORT_TEXT']!.startsWith('Bürostuhl'))!;
    expect(first).toMatchObject({
      'POITEM-SHORT_TEXT': 'Bürostuhl ?ódz ergonomisch mit Armlehnen', // Ł has no Windows-1252 form; cut to 40
      'POITEM-NET_PRICE': '1.034,50',
      'POITEM-QUANTITY': '25,000',
      'POITEM-MATERIAL': 'MAT-100010',
      'POITEM-PREQ_NO': 'REQ-2026-0042',
      'POITEM-PREQ_ITEM': '10',
      'POSCHEDULE-DELIVERY_DATE': '01.07.2026',
      'POHEADER-DOC_DATE': '16.06.2026',
      'POHEADER-COMP_CODE': '1000',
      'POHEADER-VENDOR': '0000100107',
      'POHEADER-CURRENCY': 'EUR',
    });
    // items of one PO are numbered 10, 20, ... and share their header
    const items = rows.filter((r) => r.REF_KEY === first.REF_KEY).map((r) => r['POITEM-PO_ITEM']);
    expect(items).toEqual(items.map((_, i) => String((i + 1) * 10)));
  });

  it('Oracle FBDI: the zip holds the four CSVs in order, headerless, every row as wide as its sheet', async () => {
    const t = template('oracle-fusion-fbdi');
    const [zip] = await plan('oracle-fusion-fbdi');
    expect(base(zip!)).toBe('PoImportOrders-RFQ-117-5021-v1.zip');
    const entries = unzipSync(new Uint8Array(zip!.data));
    expect(Object.keys(entries)).toEqual(Object.keys(t.files));
    const sheets: Record<string, Array<Record<string, string>>> = {};
    for (const [name, columns] of Object.entries(t.files)) {
      const rows = readCsv(Buffer.from(strFromU8(entries[name]!), 'utf8'));
      for (const r of rows) expect(r, name).toHaveLength(columns.length);
      expect(rows[0]![0]).not.toBe(columns[0]); // no header row
      sheets[name] = rows.map((r) => Object.fromEntries(columns.map((c, i) => [c, r[i]!])));
    }
    const heads = sheets['PoHeadersInterfaceOrder.csv']!;
    const { award } = finalDemo();
    expect(heads).toHaveLength(new Set(award.lines.map((l) => l.supplierKey)).size);
    expect(heads[0]).toMatchObject({
      ACTION: 'ORIGINAL',
      DOCUMENT_TYPE_CODE: 'STANDARD',
      PRC_BU_NAME: 'US1 Business Unit',
      AGENT_NAME: 'Roth, Calvin',
      CURRENCY_CODE: 'EUR',
    });
    expect(heads.map((h) => h.VENDOR_NUM).every((v) => /^00001\d{5}$/.test(v ?? ''))).toBe(true);
    // every line belongs to a header, every schedule to a line, every distribution to a schedule
    const lines = sheets['PoLinesInterfaceOrder.csv']!;
    const locs = sheets['PoLineLocationsInterfaceOrder.csv']!;
    const dists = sheets['PoDistributionsInterfaceOrder.csv']!;
    expect(lines).toHaveLength(award.lines.length);
    expect(lines.every((l) => heads.some((h) => h.INTERFACE_HEADER_KEY === l.INTERFACE_HEADER_KEY))).toBe(true);
    expect(locs.every((s) => lines.some((l) => l.INTERFACE_LINE_KEY === s.INTERFACE_LINE_KEY))).toBe(true);
    expect(dists.every((d) => locs.some((s) => s.INTERFACE_LINE_LOCATION_KEY === d.INTERFACE_LINE_LOCATION_KEY))).toBe(
      true,
    );
    expect(locs[0]!.NEED_BY_DATE).toBe('2026/07/01');
    expect(lines.map((l) => l.LINE_ATTRIBUTE1).sort()).toEqual(award.lines.map((l) => l.externalId).sort());
  });

  it('Odoo: an xlsx whose header fields are on each PO first row only', async () => {
    const t = template('odoo-po');
    const [f] = await plan('odoo-po');
    const [head, ...rows] = await xlsxRows(f!.data);
    expect(head).toEqual(t.files['Odoo-purchase.order']);
    const col = (name: string) => head!.indexOf(name);
    const ids = rows.map((r) => r[col('id')] ?? '');
    const { award } = finalDemo();
    expect(rows).toHaveLength(award.lines.length);
    expect(ids.filter(Boolean)).toHaveLength(new Set(award.lines.map((l) => l.supplierKey)).size);
    for (const [i, r] of rows.entries())
      for (const h of t.firstRowOnly!) expect(Boolean(r[col(h)]), `row ${i + 2} ${h}`).toBe(Boolean(ids[i]));
    expect(rows.every((r) => r[col('order_line/product_qty')] !== '')).toBe(true);
  });

  it('a hostile supplier name and product text stay text in every profile a spreadsheet opens', async () => {
    const evil = '=HYPERLINK("http://evil.example","Orbit")';
    const input = finalDemoInput();
    input.quotations = input.quotations.map((q) => (q.quotation_key === '205' ? { ...q, sup_name: evil } : q));
    const { award } = finalDemo(input);
    expect(award.lines.some((l) => l.supplierName === evil)).toBe(true);
    const xref = DEMO_XREF.map((r) => (r.supplier_key === '205' ? { ...r, supplier_name: evil } : r));
    const generic = byHeader(readCsv((await plan('po-lines-csv', award, xref))[0]!.data));
    expect(generic.filter((r) => r.supplier_key === '205').every((r) => r.supplier_name === `'${evil}`)).toBe(true);
    expect(generic.find((r) => r.product_name!.includes('SUM'))!.product_name).toBe("'@SUM(A1:A2)");
    const ns = byHeader(readCsv((await plan('netsuite-po', award, xref))[0]!.data));
    expect(ns.find((r) => r.Description!.includes('SUM'))!.Description).toBe("'@SUM(A1:A2)");
    const odoo = await xlsxRows((await plan('odoo-po', award, xref))[0]!.data);
    expect(odoo.flat().filter((c) => /^[=+\-@]/.test(c))).toEqual([]);
  });

  it('a revised award: new files named for the version, the superseded award named; keys kept or renewed per profile', async () => {
    const v1 = finalDemo().award;
    const v2 = finalDemo({ version: 2, supersedes: 'RFQ-117-5021-v1.csv' }).award;
    const [g1, g2] = [await plan('po-lines-csv', v1), await plan('po-lines-csv', v2)];
    expect(base(g2[0]!)).toBe('RFQ-117-5021-v2-po-lines.csv');
    const [r1, r2] = [byHeader(readCsv(g1[0]!.data)), byHeader(readCsv(g2[0]!.data))];
    expect(r2.map((r) => [r.po_key, r.award_version, r.supersedes])).toEqual(
      r1.map((r) => [r.po_key, '2', 'RFQ-117-5021-v1.csv']),
    ); // same-keys: the PO keys stay
    const s2 = byHeader(
      readCsv((await plan('sap-po-bapi', v2))[0]!.data, { encoding: 'windows-1252', delimiter: ';' }),
    );
    expect(s2.every((r) => r.REF_KEY!.endsWith('-v2'))).toBe(true); // new-keys: new POs
  });

  it('amounts are exact: each line as the award file has it, and the file sums to the award total', async () => {
    const { model, award } = finalDemo();
    const rows = byHeader(readCsv((await plan('po-lines-csv', award))[0]!.data));
    const awardFile = byHeader(readCsv(Buffer.from(awardCsv(model))));
    expect(rows.map((r) => [r.external_id, r.unit_price, r.line_total]).sort()).toEqual(
      awardFile.map((r) => [r.external_id, r.unit_price, r.line_total]).sort(),
    );
    const sum = rows.reduce((a, r) => a.plus(r.line_total!), new Decimal(0));
    expect(sum.toFixed(2)).toBe(model.award.awardedTotal.toFixed(2));
  });
});
