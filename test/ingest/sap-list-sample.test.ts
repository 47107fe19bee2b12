/**
 * An SAP GUI list saved as "Text with Tabs" (samples/SAP_PR_List_text_tabs.txt, made by
 * test/ingest/fixtures/make-sap-list-sample.ts): the ALV's short headers, Windows-1252, `1,234.56`, dd.mm.yyyy and
 * material numbers like MAT-4711. Its `check --suggest` draft, parsed from its YAML text and used unedited, gives the
 * requisitions of the hand profile (mappings/sap-alv-list-tabs.yaml): the same requisitions, lines, quantities,
 * units, names and prices (before: the unit a constant "pc", no delivery date, and without a currency column
 * `currency: "MAT"` taken from the material numbers).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { loadProfiles } from '../../src/ingest/index.ts';
import type { Requisition } from '../../src/core/requisition.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { SAP_LIST_SAMPLE, sapListText } from './fixtures/make-sap-list-sample.ts';
import { ingestWith, missingRequired, suggestAndLoad } from './suggest-helpers.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SAMPLE = join(ROOT, 'samples', SAP_LIST_SAMPLE);

/** What suppliers are asked for, per requisition: its lines with ids without `prefix`. */
function lines(reqs: Requisition[], prefix = '') {
  return reqs.map((r) => ({
    key: r.key,
    required: r.required_date === undefined ? undefined : new Date(r.required_date).toISOString().slice(0, 10),
    lines: r.lines.map((l) => ({
      row: l.row,
      external_id: l.external_id.startsWith(prefix) ? l.external_id.slice(prefix.length) : `!${l.external_id}`,
      product_name: l.product_name,
      specification: l.specification,
      uom: l.uom,
      qty: l.qty,
      estimated_price: l.estimated_price,
    })),
  }));
}

describe('SAP list "Text with Tabs" (ALV short headers)', async () => {
  const shipped = await loadProfiles(join(ROOT, 'mappings'));
  // removed after the file's tests
  const temp = tempDir();

  it('the shipped sample is the fixture script output', async () => {
    const { readFile } = await import('node:fs/promises');
    expect((await readFile(SAMPLE)).equals(iconv.encode(sapListText(), 'win1252'))).toBe(true);
  });

  it('its unedited draft ingests exactly as its hand profile', async () => {
    const want = await ingestWith(SAMPLE, shipped);
    expect(want.reqs[0]!.profile).toBe('sap-alv-list-tabs');
    const { s, profile, reviews } = await suggestAndLoad(SAMPLE);
    const got = await ingestWith(SAMPLE, [profile], profile.name);
    expect([got.rejected, got.held, got.skipped]).toEqual([0, 0, 0]);
    expect(got.reqs.flatMap(missingRequired)).toEqual([]);
    expect(want.reqs).toHaveLength(6);
    expect(lines(got.reqs)).toEqual(lines(want.reqs, 'SAPL-'));
    expect(got.reqs.map((r) => r.currency)).toEqual(want.reqs.map((r) => r.currency));
    // the short headers, each for what it is
    expect(s.raw.fields).toMatchObject({
      requisition: '{Purch.Req.}',
      uom: '{Un}',
      unit_price: '{Valn Price}',
      price_unit: '{Per}',
      required_date: '{Deliv.Date}',
      rfq_location: '{Plnt}',
      rfq_category: '{Matl Group}',
    });
    expect(s.raw.currency).toBe('{Crcy}');
    expect(s.raw.dates).toMatchObject({ formats: ['dd.MM.yyyy'] });
    for (const settled of ['fields.requisition', 'fields.uom', 'fields.qty', 'fields.rfq_location'])
      expect(reviews).not.toContain(settled);
  });

  it('without a currency column, material numbers like MAT-4711 are no currency (none is drafted)', async () => {
    // every material a MAT- number and no Crcy column: "MAT-4711" once read as the amount -4711 marked "MAT"
    const text = sapListText()
      .split('\r\n')
      .map((l) => l.split('\t').filter((_, i) => i !== 8))
      .map((cells) =>
        cells[2] === '' || cells[2] === '100-310' ? [...cells.slice(0, 2), 'MAT-4799', ...cells.slice(3)] : cells,
      )
      .map((cells) => cells.join('\t'))
      .join('\r\n');
    const path = join(temp, 'SAP_list_no_currency.txt');
    writeFileSync(path, iconv.encode(text, 'win1252'));
    const { s, profile } = await suggestAndLoad(path);
    expect(s.raw.currency).toBeUndefined();
    expect(s.raw.fields).toMatchObject({ specification: '{Material}', uom: '{Un}' });
    const got = await ingestWith(path, [profile], profile.name);
    expect(got.reqs[0]!.lines[0]).toMatchObject({ specification: 'MAT-4711', uom: 'PC', qty: 40 });
    expect(got.reqs.every((r) => r.currency === undefined)).toBe(true);
  });

  it('German short headers (Banf, Pos, BME, Bewertpreis, Lieferdat., Werk, EKG) and dd-MON-yyyy dates', async () => {
    const text = [
      'Banf\tPos\tMaterial\tKurztext\tMenge\tBME\tBewertpreis\tPEH\tWährg\tLieferdat.\tWerk\tEKG\tWarengr.',
      '10040001\t10\tMAT-4711\tKugellager 6205-2RS\t40\tST\t4,85\t1\tEUR\t15-MÄR-2027\t1000\t001\tLAGER',
      '10040001\t20\tMAT-4712\tKugellager 6206-2RS\t24\tST\t6,10\t1\tEUR\t15-MÄR-2027\t1000\t001\tLAGER',
      '10040002\t10\t\tKopierpapier A4\t1.200\tPAK\t3,95\t1\tEUR\t01-FEB-2027\t2000\t002\tBÜRO',
    ].join('\r\n');
    const path = join(temp, 'BANF_kurz.txt');
    writeFileSync(path, iconv.encode(`${text}\r\n`, 'win1252'));
    const { s, profile } = await suggestAndLoad(path);
    expect(s.raw.fields).toMatchObject({
      requisition: '{Banf}',
      uom: '{BME}',
      unit_price: '{Bewertpreis}',
      price_unit: '{PEH}',
      required_date: '{Lieferdat.}',
      rfq_location: '{Werk}',
      rfq_category: '{Warengr.}',
    });
    expect(s.raw.fields).toMatchObject({ external_id: '{Banf}-{Pos}' });
    expect(s.raw.currency).toBe('{Währg}');
    const got = await ingestWith(path, [profile], profile.name);
    expect(got.rejected).toBe(0);
    expect(lines(got.reqs)).toEqual([
      {
        key: '10040001',
        required: '2027-03-15',
        lines: [
          expect.objectContaining({ product_name: 'Kugellager 6205-2RS', uom: 'ST', qty: 40, estimated_price: 194 }),
          expect.objectContaining({ product_name: 'Kugellager 6206-2RS', uom: 'ST', qty: 24, estimated_price: 146 }),
        ],
      },
      {
        key: '10040002',
        required: '2027-02-01',
        lines: [
          expect.objectContaining({ product_name: 'Kopierpapier A4', uom: 'PAK', qty: 1200, estimated_price: 4740 }),
        ],
      },
    ]);
  });
});
