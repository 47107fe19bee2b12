/**
 * Excel dates carry no time zone: a cell shows the wall-clock time it was given. exceljs turns a JS Date into a
 * serial from its UTC fields, so we hand it a Date whose UTC fields are the wall-clock time in the chosen zone,
 * and the sheet header names that zone.
 */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** A Date to write into a cell so that it shows the wall-clock time of `ms` in `timeZone`. */
export function excelDateInZone(ms: number, timeZone: string): Date {
  const parts: Record<string, number> = {};
  for (const p of formatter(timeZone).formatToParts(new Date(ms))) {
    if (p.type !== 'literal') parts[p.type] = Number(p.value);
  }
  const wall = Date.UTC(
    parts.year ?? 1970,
    (parts.month ?? 1) - 1,
    parts.day ?? 1,
    parts.hour ?? 0,
    parts.minute ?? 0,
    parts.second ?? 0,
  );
  // formatToParts has no milliseconds field: keep them from the instant itself.
  return new Date(wall + (((ms % 1000) + 1000) % 1000));
}

/** "UTC+02:00" style offset of `timeZone` at `ms`, for the header. */
export function zoneOffsetLabel(ms: number, timeZone: string): string {
  const minutes = Math.round((excelDateInZone(ms, timeZone).getTime() - ms) / 60000);
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `UTC${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}
