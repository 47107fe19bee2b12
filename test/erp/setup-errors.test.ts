/**
 * What stops the worker at start, before any award (docs/erp-outputs.md#writing-a-profile): an output profile that
 * does not load (each problem naming its file, line and field), an ERP_* setting a profile names left unset, a
 * profile ERP_OUTPUTS names that does not exist, VENDOR_XREF_FILE missing or unusable. Pure: files and the loader.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/core/errors.ts';
import { loadErpOutputs } from '../../src/erp/index.ts';
import { loadConfig } from '../../src/settings/index.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { DEMO_XREF, ERP_SETTINGS, writeXref } from './erp-kit.ts';

async function problems(env: Record<string, string>, dir = tempDir('rfq-erp-')): Promise<string[]> {
  try {
    await loadErpOutputs(loadConfig({ RFQ_SYNC_DIR: dir, ...env }, { requireToken: false }));
  } catch (err) {
    if (err instanceof ConfigError) return [...err.problems];
    throw err;
  }
  return [];
}

const GOOD = `# an own profile
name: own-lines
erp: Test ERP
new_version: same-keys
files:
  - name: "own-{rfq_label}.csv"
    rows: line
    columns:
      - po_key
      - { name: Qty, field: qty }
`;

describe('output profiles that do not load stop the start, each problem named', () => {
  it('a field not in the vocabulary, a setting not listed, a bad date pattern: file, line and field', async () => {
    const dir = tempDir('rfq-erp-own-');
    writeFileSync(
      join(dir, 'broken.yaml'),
      `name: broken
erp: Test ERP
new_version: same-keys
settings: [ERP_PLANT]
format:
  date: dd.mm.yy
files:
  - name: "b-{rfq_label}.csv"
    rows: po
    columns:
      - po_key
      - { name: Price, field: unit_price }
      - { name: Org, setting: ERP_PURCHASING_ORG }
      - { name: Nope, field: vendor_colour }
`,
    );
    const file = join(dir, 'broken.yaml');
    expect(await problems({ ERP_OUTPUTS: 'broken', ERP_OUTPUTS_DIR: dir, ERP_PLANT: '1000' })).toEqual([
      `output profile ${file} line 6: format.date: "dd.mm.yy" must hold a year (yyyy or yy), a month (MM) and a day (dd)`,
      `output profile ${file} line 12: files.0.columns.1.field: "unit_price" is a line field: a file of rows: po has one row per purchase order`,
      `output profile ${file} line 13: files.0.columns.2.setting: ERP_PURCHASING_ORG must be listed under the profile's settings: (checked at start)`,
      `output profile ${file} line 14: files.0.columns.3.field: "vendor_colour" is not a field of the vocabulary (docs/erp-outputs.md#vocabulary)`,
    ]);
  });

  it('the shape (zod): an unknown key and a missing one, with their lines; YAML that does not parse', async () => {
    const dir = tempDir('rfq-erp-own-');
    writeFileSync(
      join(dir, 'shape.yaml'),
      `erp: Test\nnew_version: sometimes\nfiles:\n  - name: x.csv\n    rows: line\n    colour: blue\n    columns: [po_key]\n`,
    );
    writeFileSync(join(dir, 'syntax.yaml'), `erp: [unclosed\n`);
    const got = await problems({ ERP_OUTPUTS: 'shape,syntax', ERP_OUTPUTS_DIR: dir });
    expect(got[0]).toMatch(/shape\.yaml line 2: new_version: Invalid option: expected one of "same-keys"\|"new-keys"/);
    expect(got[1]).toMatch(/shape\.yaml line 4: files\.0: Unrecognized key: "colour"/);
    expect(got[2]).toMatch(/syntax\.yaml line \d: not valid YAML: /);
  });

  it('a PO decided by a field made from the PO; a line value on the first row only', async () => {
    const dir = tempDir('rfq-erp-own-');
    const file = join(dir, 'grouping.yaml');
    writeFileSync(
      file,
      `erp: Test\nnew_version: new-keys\ngroup_by: [supplier_key, po_seq]\nfiles:\n  - name: g.csv\n    rows: line\n    columns:\n      - { name: Ref, template: "{external_id}/1", first_row_only: true }\n`,
    );
    expect(await problems({ ERP_OUTPUTS: 'grouping', ERP_OUTPUTS_DIR: dir })).toEqual([
      `output profile ${file} line 3: group_by.1: "po_seq" is made from the PO: it cannot decide the PO`,
      `output profile ${file} line 8: files.0.columns.0.first_row_only: its value differs from line to line: it cannot be on the first row only`,
    ]);
  });

  it('a profile ERP_OUTPUTS names that exists nowhere; an own profile beside the shipped ones', async () => {
    const dir = tempDir('rfq-erp-own-');
    writeFileSync(join(dir, 'own-lines.yaml'), GOOD);
    const [missing] = await problems({ ERP_OUTPUTS: 'sap-po-bap', ERP_OUTPUTS_DIR: dir });
    expect(missing).toMatch(
      /^ERP_OUTPUTS: no output profile "sap-po-bap" in .* \(dynamics-365-po, netsuite-po, odoo-po, oracle-ebs-pdoi, oracle-fusion-fbdi, own-lines, po-lines-csv, sap-po-bapi\)$/,
    );
    const data = tempDir('rfq-erp-');
    const outputs = await loadErpOutputs(
      loadConfig(
        {
          RFQ_SYNC_DIR: data,
          ERP_OUTPUTS: 'own-lines, po-lines-csv',
          ERP_OUTPUTS_DIR: dir,
          VENDOR_XREF_FILE: writeXref(join(data, 'x.csv'), DEMO_XREF),
        },
        { requireToken: false },
      ),
    );
    expect(outputs!.profiles.map((p) => [p.name, p.file])).toEqual([
      ['own-lines', join(dir, 'own-lines.yaml')],
      ['po-lines-csv', join(import.meta.dirname, '../../erp-outputs/po-lines-csv.yaml')],
    ]);
  });
});

describe('settings the profiles need', () => {
  it('every ERP_* constant a profile lists, unset: one line each naming the profile', async () => {
    const dir = tempDir('rfq-erp-');
    const env = {
      ERP_OUTPUTS: 'sap-po-bapi',
      VENDOR_XREF_FILE: writeXref(join(dir, 'x.csv'), DEMO_XREF),
      ERP_PLANT: '1100',
    };
    const got = await problems(env, dir);
    expect(got).toEqual(
      ['ERP_COMPANY_CODE', 'ERP_PURCHASING_ORG', 'ERP_PURCHASING_GROUP'].map((s) =>
        expect.stringMatching(
          new RegExp(
            `^${s}: required by the output profile sap-po-bapi \\(.*sap-po-bapi\\.yaml\\), which ERP_OUTPUTS names: not set$`,
          ),
        ),
      ),
    );
    expect(await problems({ ...env, ...ERP_SETTINGS }, dir)).toEqual([]);
  });

  it('VENDOR_XREF_FILE unset, missing a column, or naming one supplier twice: refused at start', async () => {
    const dir = tempDir('rfq-erp-');
    expect(await problems({ ERP_OUTPUTS: 'po-lines-csv' }, dir)).toEqual([
      "VENDOR_XREF_FILE: required by po-lines-csv: the ERP's vendor of each supplier (rfq-sync vendors --xref-draft FILE writes a draft)",
    ]);
    const noId = join(dir, 'no-id.csv');
    writeFileSync(noId, 'supplier_key;Supplier Name\n101;Nordic\n');
    expect(await problems({ ERP_OUTPUTS: 'po-lines-csv', VENDOR_XREF_FILE: noId }, dir)).toEqual([
      `VENDOR_XREF_FILE: vendor cross-reference ${noId} row 1: column erp_vendor_id missing (the header names supplier_key, supplier_name)`,
    ]);
    const twice = writeXref(join(dir, 'twice.csv'), [...DEMO_XREF, { ...DEMO_XREF[1]!, erp_vendor_id: '0000999999' }]);
    expect(await problems({ ERP_OUTPUTS: 'po-lines-csv', VENDOR_XREF_FILE: twice }, dir)).toEqual([
      `VENDOR_XREF_FILE: vendor cross-reference ${twice} row 7: erp_vendor_id: supplier_key comp_7 is 0000999999 here and 0000100107 on row 3`,
    ]);
  });
});
