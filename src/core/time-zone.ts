/**
 * Time zones, in one place: an instant's wall clock in an IANA zone and back, the zone's offset, and the zone names
 * the settings and mapping profiles accept. Built on Intl (the zone data of Node's ICU), one cached formatter per
 * zone: what the ingest of a million dates calls, so it allocates little. Parsing the ERP's date texts is
 * src/ingest/date-format.ts; writing dates into Excel cells is src/comparison/sheets/dates.ts.
 */

/** A wall-clock time, fields as written (month 1-12). */
export interface WallClock {
  y: number;
  mo: number;
  d: number;
  h: number;
  mi: number;
  s: number;
}

const DAY_MS = 86_400_000;
const formatters = new Map<string, Intl.DateTimeFormat>();

/** Throws a RangeError for a zone Intl does not know. */
function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** The zone's name as Intl spells it (`europe/berlin` -> `Europe/Berlin`); undefined when it is no zone. */
export function canonicalTimeZone(timeZone: string): string | undefined {
  try {
    return new Intl.DateTimeFormat('en', { timeZone }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

export function isValidTimeZone(timeZone: string): boolean {
  return canonicalTimeZone(timeZone) !== undefined;
}

/** The wall clock in `timeZone` at instant `ms`, to the second. */
export function wallClockAt(ms: number, timeZone: string): WallClock {
  const p: Record<string, number> = {};
  for (const part of formatter(timeZone).formatToParts(new Date(ms))) {
    if (part.type !== 'literal') p[part.type] = Number(part.value);
  }
  return { y: p.year!, mo: p.month!, d: p.day!, h: p.hour!, mi: p.minute!, s: p.second! };
}

/** The wall clock as the UTC fields of a number: Date.UTC's arithmetic (a day 32 is the next month's first). */
function asUtc(w: WallClock): number {
  return Date.UTC(w.y, w.mo - 1, w.d, w.h, w.mi, w.s);
}

/** Offset of `timeZone` from UTC at instant `ms`, in ms (+02:00 is 7,200,000). */
export function zoneOffset(ms: number, timeZone: string): number {
  return asUtc(wallClockAt(ms, timeZone)) - Math.floor(ms / 1000) * 1000;
}

/**
 * Wall-clock time in `timeZone` to Unix ms. Fields past their range carry over as in Date.UTC (day 32 of January is
 * 1 February). A time a DST change skips resolves forward, one it repeats to the first occurrence.
 */
export function wallToUtc(w: WallClock, timeZone: string): number {
  const naive = asUtc(w);
  if (timeZone === 'UTC' || timeZone === 'Etc/UTC') return naive;
  // The instants the wall clock would be under the offsets a day before and a day after: one instant far from a
  // change. Near one, it is either time the zone shows that wall clock (both: a repeated hour, the first is taken)
  // or neither (a skipped hour: the later one, which is the wall clock moved forward by the change).
  const before = naive - zoneOffset(naive - DAY_MS, timeZone);
  const after = naive - zoneOffset(naive + DAY_MS, timeZone);
  if (before === after) return before;
  const shows = (ms: number): boolean => ms + zoneOffset(ms, timeZone) === naive;
  if (shows(before) && shows(after)) return Math.min(before, after);
  if (shows(before)) return before;
  if (shows(after)) return after;
  return Math.max(before, after);
}

/** The wall clock of `ms` in `timeZone` as the UTC fields of a Date, with the instant's milliseconds. */
export function wallDate(ms: number, timeZone: string): Date {
  return new Date(asUtc(wallClockAt(ms, timeZone)) + (((ms % 1000) + 1000) % 1000));
}

/** `days` calendar days after the day of `ms` in `timeZone`, at `hhmm` (`HH:mm`) there. */
export function daysLaterAt(ms: number, days: number, hhmm: string, timeZone: string): number {
  const [h, mi] = hhmm.split(':').map(Number) as [number, number];
  const today = wallClockAt(ms, timeZone);
  return wallToUtc({ ...today, d: today.d + days, h, mi, s: 0 }, timeZone);
}

/** "UTC+02:00" style offset of `timeZone` at `ms`. */
export function zoneOffsetLabel(ms: number, timeZone: string): string {
  const minutes = Math.round(zoneOffset(ms, timeZone) / 60000);
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `UTC${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

/** `2026-06-16 09:30`: the wall clock of `ms` in `timeZone` (UTC unless given), to the minute. */
export function minuteText(ms: number, timeZone = 'UTC'): string {
  return wallDate(ms, timeZone).toISOString().slice(0, 16).replace('T', ' ');
}
