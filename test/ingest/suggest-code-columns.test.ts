/**
 * `check --suggest` on SAP lists: the purchasing group (`PGr`, German `EKG`, `Purchasing Group`) holds short codes
 * such as `001` or `P03`. The header vocabulary knows it near "who asked", but a code names no one: it is never
 * drafted as the description's requester ("Requested by P03") nor as the product text. A column of names
 * (`Requisitioner`) still is.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-dir.ts';
import { suggestAndLoad } from './suggest-helpers.ts';

const dir = tempDir('suggest-code-columns-');

const fieldsOf = (s: { raw: Record<string, unknown> }) => s.raw.fields as Record<string, string>;
const SAMPLES = fileURLToPath(new URL('../../samples/', import.meta.url));

/** [requisition, item, material, short text, purchasing group, requisitioner] */
const LINES: Array<[string, number, string, string, string, string]> = [
  ['10030001', 10, 'MAT-5510', 'Gear oil ISO VG 220, 20 l', 'P03', 'MUELLER'],
  ['10030001', 20, 'MAT-5515', 'Grease NLGI 2, 400 g cartridge', 'P03', 'MUELLER'],
  ['10030002', 10, 'MAT-3020', 'Hearing protection earmuffs SNR 30', 'P02', 'SCHMIDT'],
  ['10030003', 10, 'MAT-3021', 'Safety goggles, clear', '001', 'WEBER'],
  ['10030003', 20, 'MAT-3022', 'Nitrile gloves size 9, box of 100', '001', 'WEBER'],
  ['10030004', 10, 'MAT-5510', 'Gear oil ISO VG 220, 20 l', 'P03', 'MUELLER'],
];

/** A tab-separated SAP list as "Save -> Local File -> Text with Tabs" writes it. */
async function sapList(file: string, group: string, withShortText: boolean, withRequisitioner: boolean) {
  const head = [
    'Purch.Req.',
    'Item',
    'Material',
    ...(withShortText ? ['Short Text'] : []),
    'Quantity',
    'Un',
    'Valn Price',
    'Crcy',
    'Deliv.Date',
    'Plnt',
    group,
    ...(withRequisitioner ? ['Requisitioner'] : []),
    'Matl Group',
  ];
  const rows = LINES.map(([req, item, mat, text, pgr, who]) => [
    req,
    String(item),
    mat,
    ...(withShortText ? [text] : []),
    '4',
    'EA',
    '12.50',
    'EUR',
    '10.02.2027',
    '3000',
    pgr,
    ...(withRequisitioner ? [who] : []),
    'SAFETY',
  ]);
  const path = join(dir, file);
  await writeFile(path, ['', head.join('\t'), ...rows.map((r) => r.join('\t'))].join('\r\n') + '\r\n', 'latin1');
  return suggestAndLoad(path);
}

describe('a purchasing group code is not drafted as text', () => {
  it('PGr is not the requester of the description', async () => {
    const { s } = await sapList('pgr.txt', 'PGr', true, false);
    expect(fieldsOf(s).product_name).toBe('{Short Text}');
    expect(JSON.stringify(fieldsOf(s))).not.toContain('{PGr}');
  });

  it('EKG (German) is not the requester either', async () => {
    const { s } = await sapList('ekg.txt', 'EKG', true, false);
    expect(JSON.stringify(fieldsOf(s))).not.toContain('{EKG}');
  });

  it('a Requisitioner column (names) is the requester, not the purchasing group', async () => {
    const { s } = await sapList('pgr-requisitioner.txt', 'PGr', true, true);
    expect(fieldsOf(s).description).toBe('Requested by {Requisitioner}');
  });

  it('without a text column, the product name is not the purchasing group', async () => {
    const { s } = await sapList('pgr-no-text.txt', 'PGr', false, false);
    expect(fieldsOf(s).product_name).not.toBe('{PGr}');
    expect(JSON.stringify(fieldsOf(s))).not.toContain('{PGr}');
  });

  it('the unconverted SAP list sample: its PGr (P01, P03) is not drafted as the requester', async () => {
    const { s } = await suggestAndLoad(join(SAMPLES, 'SAP_List_BANF_unconverted.txt'));
    expect(JSON.stringify(fieldsOf(s))).not.toContain('{PGr}');
  });

  it('the SAP XXL .xls sample: "Purchasing Group" is not the requester, "Requisitioner" is', async () => {
    const { s } = await suggestAndLoad(join(SAMPLES, 'SAP_XXL_PurchReqs_Plant2000.xls'));
    expect(JSON.stringify(fieldsOf(s))).not.toContain('{Purchasing Group}');
    expect(fieldsOf(s).description).toContain('{Requisitioner}');
  });
});
