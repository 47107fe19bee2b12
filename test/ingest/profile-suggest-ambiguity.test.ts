/**
 * `check --suggest` never guesses silently: what the values cannot settle is a review point in the YAML, and the
 * same layout with one telling value is settled without one.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { suggestAndLoad } from './suggest-helpers.ts';
import { tempDir } from '../helpers/temp-dir.ts';

let dir: string;
beforeAll(async () => {
  dir = tempDir('suggest-ambiguity-');
});

async function suggest(name: string, lines: string[]) {
  const path = join(dir, name);
  await writeFile(path, lines.join('\r\n') + '\r\n');
  const r = await suggestAndLoad(path);
  const reviewText = (p: string) =>
    r.s.reviews
      .filter((x) => x.path === p)
      .map((x) => x.text)
      .join(' | ');
  return { ...r, reviewText };
}

describe('day/month order', () => {
  const head = 'Requisition,Line,Item,Qty,Unit Price,Due Date,Delivery Date';
  it('05/03/2027 and 04/02/2027 cannot be told apart: a review point says so, in the YAML at dates.formats', async () => {
    const { s, reviews, reviewText } = await suggest('dm-undecided.csv', [
      head,
      'R-1,1,Pump seal kit,4,12.50,05/01/2027,05/03/2027',
      'R-1,2,Impeller 120 mm,2,88.00,05/01/2027,04/02/2027',
      'R-2,1,Gasket set,10,3.20,06/01/2027,07/02/2027',
    ]);
    expect(reviews).toContain('dates.formats');
    expect(reviewText('dates.formats')).toMatch(/d\/M versus M\/d cannot be told apart/);
    expect(s.yaml).toMatch(
      /# REVIEW: "Due Date": d\/M versus M\/d cannot be told apart[^\n]*\n(\s*# REVIEW:[^\n]*\n)*\s+formats:/,
    );
  });
  it('one value with a day above 12 settles it: no review point, d/M/yyyy', async () => {
    const { s, reviews, profile } = await suggest('dm-decided.csv', [
      head,
      'R-1,1,Pump seal kit,4,12.50,05/01/2027,25/03/2027',
      'R-1,2,Impeller 120 mm,2,88.00,05/01/2027,04/02/2027',
      'R-2,1,Gasket set,10,3.20,16/01/2027,07/02/2027',
    ]);
    expect(reviews).not.toContain('dates.formats');
    expect(profile.dates.formats[0]).toBe('dd/MM/yyyy');
    expect(s.evidence.find((e) => e.what === 'dates.formats')!.why).toMatch(
      /"16\/01\/2027" settles the day\/month order/,
    );
  });
});

describe('decimal comma versus thousands separator', () => {
  const head = 'Requisition,Line,Item,Qty,Unit Price,Due Date';
  it('"1,000" and "2,500" alone read either way: a review point at numbers.decimal, and thousands stay auto (ingestion warns)', async () => {
    const { reviews, reviewText, profile } = await suggest('sep-undecided.csv', [
      head,
      'R-1,1,Copper cable NYM 3x1.5,"1,000","1,250",2027-03-01',
      'R-1,2,Cable ties 200 mm,"2,500",4,2027-03-01',
    ]);
    expect(reviews).toContain('numbers.decimal');
    expect(reviewText('numbers.decimal')).toMatch(
      /decimal comma or thousands separator\? 3 value\(s\) like "1,000" read either way/,
    );
    expect(profile.numbers.thousands).toBe('auto');
  });
  it('one "1,250.50" settles it: "." decimal, "," thousands, no review point', async () => {
    const { reviews, profile } = await suggest('sep-decided.csv', [
      head,
      'R-1,1,Copper cable NYM 3x1.5,"1,000","1,250.50",2027-03-01',
      'R-1,2,Cable ties 200 mm,"2,500",4,2027-03-01',
    ]);
    expect(reviews).not.toContain('numbers.decimal');
    expect(profile.numbers).toEqual({ decimal: '.', thousands: ',' });
  });
});

describe('two candidate quantity columns', () => {
  it('"Quantity" and "Open Quantity" with only a unit price: a review point at fields.qty naming both', async () => {
    const { reviews, reviewText } = await suggest('qty-undecided.csv', [
      'Requisition,Line,Item,Quantity,Open Quantity,Unit Price,Need By Date',
      'R-1,1,Hydraulic hose 1/2",20,12,14.90,2027-04-01',
      'R-1,2,Hose clamp,40,40,0.80,2027-04-01',
      'R-2,1,Filter cartridge,6,2,31.00,2027-04-15',
    ]);
    expect(reviews).toContain('fields.qty');
    expect(reviewText('fields.qty')).toMatch(/two candidate quantity columns: "Quantity" and "Open Quantity"/);
  });
  it('a line total tells them apart (total = qty x price on the rows): "Open Quantity", no review point', async () => {
    const { reviews, profile, s } = await suggest('qty-decided.csv', [
      'Requisition,Line,Item,Quantity,Open Quantity,Unit Price,Line Total,Need By Date',
      'R-1,1,Hydraulic hose 1/2",20,12,14.90,178.80,2027-04-01',
      'R-1,2,Hose clamp,40,40,0.80,32.00,2027-04-01',
      'R-2,1,Filter cartridge,6,2,31.00,62.00,2027-04-15',
    ]);
    expect(reviews).not.toContain('fields.qty');
    expect(profile.fields.qty!.source).toBe('{Open Quantity}');
    expect(profile.fields.estimated_price!.source).toBe('{Line Total}');
    expect(s.evidence.find((e) => e.what === 'fields.qty')!.why).toMatch(
      /only "Open Quantity" x "Unit Price" = "Line Total" \(3 of 3 rows\)/,
    );
  });
});

describe('a numeric field is never drafted from a column of text', () => {
  it('the quantity written with its unit ("5 pcs") and no other column of whole numbers: refused, naming it', async () => {
    // before: qty drafted as the first free column, "{Item}", and every row rejected by the check
    const path = join(dir, 'qty-as-text.csv');
    await writeFile(
      path,
      [
        'Requisition,Line,Item,Quantity,Unit Price,Need By Date',
        'R-1,1,Hydraulic hose,5 pcs,14.90,2027-04-01',
        'R-1,2,Hose clamp,40 pcs,0.80,2027-04-01',
        'R-2,1,Filter cartridge,6 pcs,31.00,2027-04-15',
      ].join('\r\n') + '\r\n',
    );
    await expect(suggestAndLoad(path)).rejects.toThrow(
      'qty-as-text.csv: has no column of numbers left that could be the quantity (columns: "Requisition", "Line", "Item", "Quantity", "Unit Price", "Need By Date")',
    );
  });
});

describe('due and required dates by order', () => {
  it('two date columns named like neither: the earlier is the due date, the later the required date, with a review point', async () => {
    const { reviews, reviewText, profile } = await suggest('dates-by-order.csv', [
      'Requisition,Line,Item,Qty,Unit Price,Date A,Date B',
      'R-1,1,Pump seal kit,4,12.50,2027-02-01,2027-03-15',
      'R-1,2,Impeller 120 mm,2,88.00,2027-02-01,2027-03-20',
      'R-2,1,Gasket set,10,3.20,2027-02-10,2027-04-01',
    ]);
    expect(profile.fields.due_date!.source).toBe('{Date A}');
    expect(profile.fields.required_date!.source).toBe('{Date B}');
    expect(profile.dueDateRule).toBeUndefined();
    expect(reviews).toContain('fields.due_date');
    expect(reviewText('fields.due_date')).toMatch(
      /"Date A" \(the earlier\) taken as the due date, "Date B" as the required date/,
    );
  });
});
