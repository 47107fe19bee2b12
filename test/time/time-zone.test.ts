/**
 * The one time module (src/core/time-zone.ts): wall clocks in an IANA zone and back across DST changes, month ends and
 * the day line, the offset label the workbooks print, the zone names the settings and profiles accept. Pure.
 */
import { describe, expect, it } from 'vitest';
import {
  canonicalTimeZone,
  daysLaterAt,
  isValidTimeZone,
  minuteText,
  wallClockAt,
  wallDate,
  wallToUtc,
  zoneOffsetLabel,
} from '../../src/core/time-zone.ts';
import { parseDateText } from '../../src/ingest/date-format.ts';

const at = (iso: string): number => Date.parse(iso);

describe('time zones', () => {
  it('reads the wall clock of an instant, and turns it back into that instant', () => {
    const ms = at('2026-06-16T07:30:15Z');
    expect(wallClockAt(ms, 'Europe/Berlin')).toEqual({ y: 2026, mo: 6, d: 16, h: 9, mi: 30, s: 15 });
    expect(wallClockAt(ms, 'America/New_York')).toEqual({ y: 2026, mo: 6, d: 16, h: 3, mi: 30, s: 15 });
    expect(wallClockAt(ms, 'Pacific/Kiritimati')).toEqual({ y: 2026, mo: 6, d: 16, h: 21, mi: 30, s: 15 });
    for (const zone of ['UTC', 'Europe/Berlin', 'America/New_York', 'Asia/Kolkata', 'Pacific/Kiritimati'])
      expect(wallToUtc(wallClockAt(ms, zone), zone)).toBe(ms);
  });

  it('resolves a time a DST change skips forward, and one it repeats to its first occurrence, east and west of UTC', () => {
    // Berlin, 29 March 2026: 02:00 -> 03:00; 25 October 2026: 03:00 -> 02:00
    expect(wallToUtc({ y: 2026, mo: 3, d: 29, h: 2, mi: 30, s: 0 }, 'Europe/Berlin')).toBe(at('2026-03-29T01:30:00Z'));
    expect(wallToUtc({ y: 2026, mo: 3, d: 29, h: 3, mi: 0, s: 0 }, 'Europe/Berlin')).toBe(at('2026-03-29T01:00:00Z'));
    expect(wallToUtc({ y: 2026, mo: 10, d: 25, h: 2, mi: 30, s: 0 }, 'Europe/Berlin')).toBe(at('2026-10-25T00:30:00Z'));
    expect(wallToUtc({ y: 2026, mo: 10, d: 25, h: 3, mi: 30, s: 0 }, 'Europe/Berlin')).toBe(at('2026-10-25T02:30:00Z'));
    // New York, 8 March 2026: 02:00 -> 03:00; 1 November 2026: 02:00 -> 01:00
    expect(wallToUtc({ y: 2026, mo: 3, d: 8, h: 2, mi: 30, s: 0 }, 'America/New_York')).toBe(
      at('2026-03-08T07:30:00Z'),
    );
    expect(wallToUtc({ y: 2026, mo: 11, d: 1, h: 1, mi: 30, s: 0 }, 'America/New_York')).toBe(
      at('2026-11-01T05:30:00Z'),
    );
    // Lord Howe moves by half an hour: 2:00 -> 1:30 on 5 April 2026
    expect(wallToUtc({ y: 2026, mo: 4, d: 5, h: 1, mi: 45, s: 0 }, 'Australia/Lord_Howe')).toBe(
      at('2026-04-04T14:45:00Z'),
    );
  });

  it('an ERP date in the repeated hour is read as its first occurrence', () => {
    const berlin = { formats: ['dd.MM.yyyy HH:mm'], timeZone: 'Europe/Berlin', defaultTime: '12:00' };
    expect(parseDateText('25.10.2026 02:30', berlin)).toEqual({ ok: true, ms: at('2026-10-25T00:30:00Z') });
    expect(parseDateText('25.10.2026 03:30', berlin)).toEqual({ ok: true, ms: at('2026-10-25T02:30:00Z') });
  });

  it('counts calendar days in the zone, across a DST change and a month end', () => {
    // 23:30 UTC on 28 March is already 29 March in Berlin: three days later is 1 April, 17:00 summer time
    expect(daysLaterAt(at('2026-03-28T23:30:00Z'), 3, '17:00', 'Europe/Berlin')).toBe(at('2026-04-01T15:00:00Z'));
    expect(daysLaterAt(at('2026-12-30T12:00:00Z'), 2, '08:15', 'UTC')).toBe(at('2027-01-01T08:15:00Z'));
    expect(daysLaterAt(at('2026-06-16T07:30:00Z'), 0, '06:00', 'Europe/Berlin')).toBe(at('2026-06-16T04:00:00Z'));
  });

  it('gives the wall clock as a Date for Excel cells, milliseconds kept, and as text to the minute', () => {
    const ms = at('2026-01-15T23:59:30.250Z');
    expect(wallDate(ms, 'Europe/Berlin').toISOString()).toBe('2026-01-16T00:59:30.250Z');
    expect(minuteText(ms)).toBe('2026-01-15 23:59');
    expect(minuteText(ms, 'Asia/Kolkata')).toBe('2026-01-16 05:29');
  });

  it('labels the offset at an instant', () => {
    expect(zoneOffsetLabel(at('2026-06-16T07:30:00Z'), 'Europe/Berlin')).toBe('UTC+02:00');
    expect(zoneOffsetLabel(at('2026-01-16T07:30:00Z'), 'Europe/Berlin')).toBe('UTC+01:00');
    expect(zoneOffsetLabel(at('2026-01-16T07:30:00Z'), 'America/St_Johns')).toBe('UTC-03:30');
    expect(zoneOffsetLabel(at('2026-01-16T07:30:00Z'), 'UTC')).toBe('UTC+00:00');
  });

  it('knows the zone names, in their canonical spelling', () => {
    expect(canonicalTimeZone('europe/berlin')).toBe('Europe/Berlin');
    expect(canonicalTimeZone('Mars/Olympus')).toBeUndefined();
    expect(isValidTimeZone('Asia/Kolkata')).toBe(true);
    expect(isValidTimeZone('')).toBe(false);
    expect(isValidTimeZone('Berlin')).toBe(false);
  });
});
