/**
 * `check --suggest` when two columns compete for one field: it chooses by what the values show, and marks the field
 * `# REVIEW:` naming both columns and why one was chosen. The case that sent RFQs out as "For office move": an
 * export with `Name` (the item) and `Description` (a purpose text repeated across different items); a column whose
 * values are tied to the item number is the product name, one whose values repeat across different items is a
 * purpose, not a name.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-dir.ts';
import { ingestWith, suggestAndLoad } from './suggest-helpers.ts';

const dir = tempDir('suggest-competing-');

/** Items of the export: item number -> its name. */
const ITEMS: Record<string, string> = {
  'IT-100': 'Laptop 14 inch, 16 GB RAM',
  'IT-210': 'Docking station USB-C',
  'FU-300': 'Office chair with armrests',
  'FU-310': 'Standing desk 160 x 80 cm',
  'OS-400': 'Moving boxes, double wall',
  'OS-410': 'Cable ties 200 mm, pack of 100',
};

/** Requisition lines: [requisition, line, item number, purpose]. */
const LINES: Array<[string, number, string, string]> = [
  ['PR-501', 1, 'FU-300', 'For office move'],
  ['PR-501', 2, 'FU-310', 'For office move'],
  ['PR-501', 3, 'OS-400', 'For office move'],
  ['PR-502', 1, 'IT-100', 'New hire, sales team'],
  ['PR-502', 2, 'IT-210', 'New hire, sales team'],
  ['PR-503', 1, 'OS-410', 'For office move'],
  ['PR-503', 2, 'IT-210', 'Replacement of broken unit'],
  ['PR-504', 1, 'IT-100', 'Replacement of broken unit'],
  ['PR-504', 2, 'FU-300', 'For office move'],
];

async function draft(file: string, withItemNumber: boolean) {
  const head = `Requisition,Line,${withItemNumber ? 'Item Number,' : ''}Name,Description,Qty,Unit,Unit Price,Need By,Plant,Category`;
  const rows = LINES.map(
    ([req, line, item, purpose]) =>
      `${req},${line},${withItemNumber ? `${item},` : ''}"${ITEMS[item]}","${purpose}",${line + 1},pc,25.00,2027-03-01,Berlin,Office supplies`,
  );
  const path = join(dir, file);
  await writeFile(path, [head, ...rows].join('\r\n') + '\r\n');
  const r = await suggestAndLoad(path);
  const review = r.s.reviews.find((x) => x.path === 'fields.product_name')?.text ?? '';
  return { ...r, path, review };
}

describe('Name (the item) and Description (a purpose) compete for the product name', () => {
  it('with an item number: Name is tied to it, Description repeats across items; marked for review', async () => {
    const { s, profile, path, review, reviews } = await draft('name-description.csv', true);
    expect(s.raw.fields).toMatchObject({ product_name: '{Name}' });
    expect(reviews).toContain('fields.product_name');
    expect(review).toContain('"Name"');
    expect(review).toContain('"Description"');
    expect(review).toMatch(/"Name" was chosen/);
    expect(review).toMatch(/one value per item number \("Item Number"\)/);
    expect(review).toMatch(/"For office move" on 4 different items/);
    expect(review).toMatch(/a purpose, not a name/);
    expect(s.yaml).toMatch(/# REVIEW: [^\n]*"Name"[^\n]*\n\s+product_name: "\{Name\}"/);
    // unedited, no supplier is asked to quote on a purpose
    const got = await ingestWith(path, [profile], profile.name);
    const names = got.reqs.flatMap((r) => r.lines.map((l) => l.product_name));
    expect(names).toEqual(LINES.map(([, , item]) => ITEMS[item]));
  });

  it('without an item number: the column repeated across the other one’s values is the purpose', async () => {
    const { s, profile, path, review } = await draft('name-description-no-item.csv', false);
    expect(s.raw.fields).toMatchObject({ product_name: '{Name}' });
    expect(review).toMatch(/"Name" was chosen/);
    expect(review).toMatch(/"Description" repeats across different items \("For office move" on 4 different items/);
    const got = await ingestWith(path, [profile], profile.name);
    expect(got.reqs.flatMap((r) => r.lines.map((l) => l.product_name))).toEqual(LINES.map(([, , item]) => ITEMS[item]));
  });
});

describe('other fields two columns compete for', () => {
  it('two unit columns (Un, OUn): the one chosen and the other are named, with why', async () => {
    const lines = [
      'Purch.Req.,Item,Short Text,Quantity,Un,OUn,Valn Price,Deliv.Date,Plnt,Matl Group',
      '4711,10,Hex bolt M8x40,500,PC,BOX,0.12,15.03.2027,1000,BOLTS',
      '4711,20,Hex nut M8,500,PC,BOX,0.05,15.03.2027,1000,BOLTS',
      '4712,10,Copy paper A4,20,PAK,CAR,3.95,01.02.2027,1000,OFFICE',
    ];
    const path = join(dir, 'two-units.csv');
    await writeFile(path, lines.join('\r\n') + '\r\n');
    const { s, reviews } = await suggestAndLoad(path);
    expect(s.raw.fields).toMatchObject({ uom: '{Un}' });
    expect(reviews).toContain('fields.uom');
    const text = s.reviews.find((r) => r.path === 'fields.uom')!.text;
    expect(text).toMatch(/"Un" and "OUn" could both be the uom: "Un" was chosen/);
  });

  it('two requisition numbers (Purch.Req. and Reference) are named; a Requisitioner (a person) is no rival', async () => {
    const lines = [
      'Purch.Req.,Reference,Requisitioner,Item,Short Text,Quantity,Un,Valn Price,Plnt,Matl Group',
      '4711,EXT-9,MUELLER,10,Hex bolt M8x40,500,PC,0.12,1000,BOLTS',
      '4711,EXT-9,MUELLER,20,Hex nut M8,500,PC,0.05,1000,BOLTS',
      '4712,EXT-10,SCHMIDT,10,Copy paper A4,20,PAK,3.95,1000,OFFICE',
    ];
    const path = join(dir, 'two-requisitions.csv');
    await writeFile(path, lines.join('\r\n') + '\r\n');
    const { s } = await suggestAndLoad(path);
    expect(s.raw.fields).toMatchObject({ requisition: '{Purch.Req.}' });
    const text = s.reviews.find((r) => r.path === 'fields.requisition')!.text;
    expect(text).toMatch(/^"Purch\.Req\." and "Reference" could both be the requisition: "Purch\.Req\." was chosen/);
    expect(text).not.toContain('Requisitioner');
  });
});
