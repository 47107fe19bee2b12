/** How ERP number and date texts are read: the values a user's export holds must come out exactly. */
import { describe, expect, it } from 'vitest';
import { parseDateCell, parseDateText, type DateFormat } from '../../src/ingest/date-format.ts';
import { parseNumber, type NumberFormat } from '../../src/ingest/number-format.ts';

const comma: NumberFormat = { decimal: ',', thousands: 'auto' };
const point: NumberFormat = { decimal: '.', thousands: 'auto' };
const num = (s: string | number, f: NumberFormat = point) => {
  const r = parseNumber(s, f);
  return r.ok ? r.value.toString() : `ERR ${r.reason}`;
};

describe('parseNumber', () => {
  it.each([
    ['1.234,56', comma, '1234.56'],
    ['1234,5', comma, '1234.5'],
    ['500,000', comma, '500'],
    ['12 345,60', comma, '12345.6'],
    ['€ 1.250,00', comma, '1250'],
    ['1.250,00 EUR', comma, '1250'],
    ['1,234.50', point, '1234.5'],
    ['USD 99.99', point, '99.99'],
    ['$1,000', point, '1000'],
    ["1'000.25", point, '1000.25'],
    ['100-', point, '-100'],
    ['(12.5)', point, '-12.5'],
    ['+7', point, '7'],
    ['.5', point, '0.5'],
    ['0.1', point, '0.1'],
  ])('%s -> %s', (text, fmt, want) => expect(num(text, fmt)).toBe(want));

  it('keeps decimals exact (no binary float)', () => {
    expect(num('0.1')).toBe('0.1');
    expect(
      parseNumber('0.1', point).ok &&
        (parseNumber('0.1', point) as { value: { plus(x: string): { toString(): string } } }).value
          .plus('0.2')
          .toString(),
    ).toBe('0.3');
  });

  it.each([
    ['1.23', comma],
    ['1,2,3', comma],
    ['12a', point],
    ['', point],
    ['1.2.3', point],
    ['1,23', point],
    ['--5', point],
  ])('refuses %s', (text, fmt) => expect(num(text, fmt)).toMatch(/^ERR /));

  it('takes Excel numeric cells as they are', () => {
    expect(num(825.6)).toBe('825.6');
    expect(num(Number.NaN)).toMatch(/^ERR/);
  });
});

const berlin: DateFormat = {
  formats: ['dd.MM.yyyy', 'dd-MMM-yyyy', 'M/d/yyyy', 'iso', 'excel_serial'],
  timeZone: 'Europe/Berlin',
  defaultTime: '12:00',
};
const iso = (s: string | number | Date, f: DateFormat = berlin) => {
  const r = typeof s === 'string' ? parseDateText(s, f) : parseDateCell(s, f);
  return r.ok ? new Date(r.ms).toISOString() : `ERR ${r.reason}`;
};

describe('parseDateText / parseDateCell', () => {
  it.each([
    ['15.03.2027', '2027-03-15T11:00:00.000Z'], // CET, noon default time
    ['15.07.2027', '2027-07-15T10:00:00.000Z'], // CEST
    ['05-JAN-2028', '2028-01-05T11:00:00.000Z'],
    ['01-Mär-2027', '2027-03-01T11:00:00.000Z'],
    ['3/7/2027', '2027-03-07T11:00:00.000Z'], // M/d/yyyy: March 7
    ['2027-06-30', '2027-06-30T10:00:00.000Z'],
    ['2027-06-30T10:00:00Z', '2027-06-30T10:00:00.000Z'],
    ['2027-06-30 10:00:00+02:00', '2027-06-30T08:00:00.000Z'],
    ['46461', '2027-03-15T11:00:00.000Z'], // Excel serial
    ['29.02.2028', '2028-02-29T11:00:00.000Z'],
  ])('%s -> %s', (text, want) => expect(iso(text)).toBe(want));

  it.each([
    ['31.02.2027', 'ERR is not a real date (day out of range)'],
    ['29.02.2027', 'ERR is not a real date (day out of range)'],
    ['13/45/2027', 'ERR is not a real date (month out of range)'],
    ['05-XYZ-2027', 'ERR has an unknown month name "XYZ"'],
    [
      'tomorrow',
      'ERR is not a date in the expected format (dd.MM.yyyy or dd-MMM-yyyy or M/d/yyyy or iso or excel_serial)',
    ],
  ])('refuses %s', (text, want) => expect(iso(text)).toBe(want));

  it('reads exceljs Date cells as wall clock in the profile zone (no time-zone shift)', () => {
    expect(iso(new Date(Date.UTC(2027, 2, 15)))).toBe('2027-03-15T11:00:00.000Z');
    expect(iso(new Date(Date.UTC(2027, 2, 15, 17, 0)))).toBe('2027-03-15T16:00:00.000Z');
    // exceljs sometimes gives 16:59:59.999 for 17:00.
    expect(iso(new Date(Date.UTC(2027, 2, 15, 16, 59, 59, 999)))).toBe('2027-03-15T16:00:00.000Z');
  });

  it('reads numeric cells as Excel serials (dates typed without a date format, formula results)', () => {
    expect(iso(46461)).toBe('2027-03-15T11:00:00.000Z');
    expect(iso(46461.75)).toBe('2027-03-15T17:00:00.000Z');
  });

  it('respects DST gaps and UTC profiles', () => {
    const utc: DateFormat = { ...berlin, timeZone: 'UTC' };
    expect(iso('15.03.2027', utc)).toBe('2027-03-15T12:00:00.000Z');
    const ny: DateFormat = { ...berlin, timeZone: 'America/New_York', defaultTime: '02:30' };
    expect(iso('14.03.2027', ny)).toBe('2027-03-14T07:30:00.000Z'); // 02:30 does not exist that day: resolves forward
  });
});

describe('parseDateCell on texts (each text read once per profile formats)', () => {
  const texts = ['15.03.2027', '3/7/2027', ' 2027-06-30 ', '31.02.2027', 'tomorrow', '', '46461', '05-XYZ-2027'];
  const us: DateFormat = { formats: ['M/d/yyyy', 'iso'], timeZone: 'America/New_York', defaultTime: '09:00' };
  const eu: DateFormat = { formats: ['d/M/yyyy', 'iso'], timeZone: 'UTC', defaultTime: '17:00' };

  it('gives what parseDateText gives, valid or not, the first time and again', () => {
    for (const f of [berlin, us, eu])
      for (let pass = 0; pass < 2; pass++)
        for (const t of texts)
          expect(parseDateCell(t, f), `${t} in ${f.formats.join(',')}`).toEqual(parseDateText(t, f));
  });

  it('reads the same text by each profile formats: 3/7/2027 is March 7 in one, July 3 in the other', () => {
    expect(iso('3/7/2027', us)).toBe('2027-03-07T14:00:00.000Z');
    expect(iso('3/7/2027', eu)).toBe('2027-07-03T17:00:00.000Z');
    expect(parseDateCell('3/7/2027', us)).toEqual({ ok: true, ms: Date.UTC(2027, 2, 7, 14), day: '2027-03-07' });
    expect(parseDateCell('3/7/2027', eu)).toEqual({ ok: true, ms: Date.UTC(2027, 6, 3, 17), day: '2027-07-03' });
  });

  it('still gives the same results past the texts it keeps', () => {
    for (let i = 0; i < 1000; i++) {
      const t = `${(i % 31) + 1}.${(i % 12) + 1}.${2027 + (i % 5)}`;
      expect(parseDateCell(t, berlin)).toEqual(parseDateText(t, berlin));
    }
  });
});
