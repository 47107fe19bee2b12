/**
 * The vendor cross-reference (VENDOR_XREF_FILE): a supplier found by its key, else by its name; rows limited to a
 * company or plant win where they apply; a row without an ERP id, or rows that disagree, leave the supplier unknown
 * (never a guess); CSV (comma or semicolon, UTF-8 or Windows-1252) or xlsx; re-read when it changes, a file broken
 * later keeping the last good one in use. Pure: files only.
 */
import { utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { openVendorXref } from '../../src/erp/vendor-xref.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { writeXref } from './erp-kit.ts';

describe('vendor cross-reference', () => {
  it('by key, else by name (case and spacing aside); a blank ERP id or disagreeing rows: unknown', async () => {
    const dir = tempDir('rfq-xref-');
    const file = writeXref(join(dir, 'x.csv'), [
      { supplier_key: '101', supplier_name: 'Nordic Office Supply AB', erp_vendor_id: 'V-101', erp_vendor_site: 'STO' },
      { supplier_key: '', supplier_name: 'Hanse IT  Distribution GmbH', erp_vendor_id: 'V-107' },
      { supplier_key: 'comp_9', supplier_name: 'Draft Only Ltd', erp_vendor_id: '' },
      { supplier_key: '', supplier_name: 'Twin Name', erp_vendor_id: 'V-1' },
      { supplier_key: '', supplier_name: 'twin name', erp_vendor_id: 'V-2' },
    ]);
    const x = await (await openVendorXref(file, {})).current();
    expect(x.vendorOf('101', 'renamed since')).toEqual({ id: 'V-101', site: 'STO' });
    expect(x.vendorOf('comp_7', 'hanse it distribution gmbh')).toEqual({ id: 'V-107' });
    expect(x.vendorOf('comp_9', 'Draft Only Ltd')).toBeUndefined();
    expect(x.vendorOf('555', 'Twin Name')).toBeUndefined();
    expect(x.vendorOf('556', 'Nobody')).toBeUndefined();
  });

  it('a row for this company or plant wins over the general one; a row for another applies nowhere', async () => {
    const dir = tempDir('rfq-xref-');
    const file = writeXref(join(dir, 'x.csv'), [
      { supplier_key: '101', supplier_name: 'Nordic', erp_vendor_id: 'GENERAL' },
      { supplier_key: '101', supplier_name: 'Nordic', erp_vendor_id: 'DE-1000', company: '1000' },
      { supplier_key: '101', supplier_name: 'Nordic', erp_vendor_id: 'DE-1000-P', company: '1000', plant: '1100' },
      { supplier_key: '205', supplier_name: 'Müller', erp_vendor_id: 'US-2000', company: '2000' },
    ]);
    const at = async (company?: string, plant?: string) => (await openVendorXref(file, { company, plant })).current();
    expect((await at('1000', '1100')).vendorOf('101', 'Nordic')?.id).toBe('DE-1000-P');
    expect((await at('1000', '1200')).vendorOf('101', 'Nordic')?.id).toBe('DE-1000');
    expect((await at('3000')).vendorOf('101', 'Nordic')?.id).toBe('GENERAL');
    expect((await at('1000')).vendorOf('205', 'Müller')).toBeUndefined();
  });

  it('semicolons and Windows-1252 as Excel on a German Windows saves them; xlsx', async () => {
    const dir = tempDir('rfq-xref-');
    const csv = join(dir, 'x.csv');
    writeFileSync(
      csv,
      iconv.encode(
        'Supplier Key;Supplier Name;ERP Vendor ID\r\n205;Bürotechnik Müller & Söhne KG;0000100205\r\n',
        'windows-1252',
      ),
    );
    expect((await (await openVendorXref(csv, {})).current()).vendorOf('x', 'BÜROTECHNIK MÜLLER & SÖHNE KG')).toEqual({
      id: '0000100205',
    });
    const xlsx = join(dir, 'x.xlsx');
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Vendors');
    ws.addRow(['supplier_key', 'supplier_name', 'erp_vendor_id', 'erp_vendor_site']);
    ws.addRow(['comp_7', 'Hanse IT', 100107, 'HAMBURG']);
    await wb.xlsx.writeFile(xlsx);
    expect((await (await openVendorXref(xlsx, {})).current()).vendorOf('comp_7', '')).toEqual({
      id: '100107',
      site: 'HAMBURG',
    });
  });

  it('re-read when it changes; a file broken later keeps the last good one and says why', async () => {
    const dir = tempDir('rfq-xref-');
    const file = writeXref(join(dir, 'x.csv'), [
      { supplier_key: '101', supplier_name: 'Nordic', erp_vendor_id: 'V-1' },
    ]);
    const xref = await openVendorXref(file, {});
    expect((await xref.current()).vendorOf('412', 'TechPartner')).toBeUndefined();
    writeXref(file, [
      { supplier_key: '101', supplier_name: 'Nordic', erp_vendor_id: 'V-1' },
      { supplier_key: '412', supplier_name: 'TechPartner', erp_vendor_id: 'V-412' },
    ]);
    utimesSync(file, new Date(), new Date(Date.now() + 2000));
    expect((await xref.current()).vendorOf('412', 'TechPartner')).toEqual({ id: 'V-412' });
    expect(xref.problem()).toBeUndefined();
    writeFileSync(file, 'supplier,vendor\n412,V-412\n');
    utimesSync(file, new Date(), new Date(Date.now() + 4000));
    expect((await xref.current()).vendorOf('412', 'TechPartner')).toEqual({ id: 'V-412' });
    expect(xref.problem()).toMatch(/row 1: columns supplier_key, supplier_name, erp_vendor_id missing/);
  });
});
