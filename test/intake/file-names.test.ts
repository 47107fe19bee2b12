/** Names from the inbox and from job payloads never lead outside the configured folders; temp/lock files are skipped. */
import { describe, expect, it } from 'vitest';
import { isInboxCandidate, newProcessingName, reportFileName } from '../../src/intake/file-mover.ts';
import { isPlainName, parseProcessingName } from '../../src/queues/processing-name.ts';

describe('file names', () => {
  it('accepts only plain names as paths', () => {
    for (const bad of ['', '.', '..', '../x.csv', 'a/b.csv', 'a\\b.csv', '/etc/passwd', 'x\u0000.csv'])
      expect(isPlainName(bad)).toBe(false);
    for (const ok of ['orders.csv', 'PR 2027 (copy).xlsx', 'Bestellanforderung_Übersicht.csv', '..hidden', 'a..b.csv'])
      expect(isPlainName(ok)).toBe(true);
  });

  it('takes exports and skips lock, temp and partial files and dotfiles', () => {
    for (const skip of [
      '~$orders.xlsx',
      'orders.tmp',
      'orders.TMP',
      'orders.csv.part',
      'x.partial',
      'x.filepart',
      'x.crdownload',
      '.~lock.orders.xlsx#',
      '.DS_Store',
      '.orders.csv.1a2b.tmp',
    ]) {
      expect(isInboxCandidate(skip), skip).toBe(false);
    }
    for (const take of ['orders.csv', 'ME5A export.xlsx', 'orders.xls', 'tmp-orders.csv', 'partial list.csv'])
      expect(isInboxCandidate(take), take).toBe(true);
  });

  it('gives a taken file a unique processing name that keeps the original name and parses back', () => {
    const at = Date.UTC(2026, 10, 22, 2, 15, 30, 123);
    const a = newProcessingName('orders.csv', at);
    const b = newProcessingName('orders.csv', at);
    expect(a.name).not.toBe(b.name);
    expect(a.name).toMatch(/^20261122T021530Z-[0-9a-f]{6}_orders\.csv$/);
    expect(parseProcessingName(a.name)).toEqual({
      name: a.name,
      token: a.token,
      original: 'orders.csv',
      takenAt: Date.UTC(2026, 10, 22, 2, 15, 30),
    });
    expect(parseProcessingName('orders.csv')).toBeUndefined();
    expect(parseProcessingName('../20261122T021530Z-abcdef_x.csv')).toBeUndefined();
    expect(() => newProcessingName('../x.csv')).toThrow(/not a plain file name/);
  });

  it('shortens a very long name to fit the file system, keeping its extension', () => {
    const long = `${'Bestellanforderung-ü'.repeat(20)}.xlsx`;
    const p = newProcessingName(long);
    expect(Buffer.byteLength(p.name)).toBeLessThanOrEqual(255);
    expect(p.original.endsWith('.xlsx')).toBe(true);
    expect(parseProcessingName(p.name)?.original).toBe(p.original);
  });

  it('derives a safe report name from the original name and a short hash', () => {
    const p = newProcessingName('=HYPERLINK("x")|orders:2027.csv', Date.UTC(2026, 0, 2, 3, 4, 5));
    const name = reportFileName(p, 'abcdef0123456789'.repeat(4));
    expect(name).toMatch(/^=HYPERLINK\(_x_\)_orders_2027\.abcdef01\.20260102T030405Z-[0-9a-f]{6}\.xlsx$/);
    expect(name).not.toMatch(/[/\\:*?"<>|]/);
  });
});
