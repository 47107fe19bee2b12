/**
 * Dates as an ERP's file wants them: a pattern of yyyy yy MM dd HH mm ss and literal separators (`dd.MM.yyyy`,
 * `yyyy/MM/dd`, `MM/dd/yyyy`), written from a day the ERP gave (`yyyy-mm-dd`, as it was) or from an instant as its
 * wall clock in the award's time zone (core/time-zone.ts), never the host's.
 */
import { wallClockAt, type WallClock } from '../core/index.ts';

const TOKEN = /yyyy|yy|MM|dd|HH|mm|ss/g;

/** Why `pattern` is no date pattern, or undefined. */
export function checkDatePattern(pattern: string): string | undefined {
  if (!/yyyy|yy/.test(pattern) || !pattern.includes('MM') || !pattern.includes('dd'))
    return `"${pattern}" must hold a year (yyyy or yy), a month (MM) and a day (dd)`;
  const rest = pattern.replace(TOKEN, '');
  if (/[A-Za-z]/.test(rest)) return `"${pattern}" holds letters that are no token (yyyy yy MM dd HH mm ss)`;
  return undefined;
}

const two = (n: number) => String(n).padStart(2, '0');

function render(w: WallClock, pattern: string): string {
  return pattern.replace(TOKEN, (t) => {
    switch (t) {
      case 'yyyy':
        return String(w.y).padStart(4, '0');
      case 'yy':
        return two(w.y % 100);
      case 'MM':
        return two(w.mo);
      case 'dd':
        return two(w.d);
      case 'HH':
        return two(w.h);
      case 'mm':
        return two(w.mi);
      default:
        return two(w.s);
    }
  });
}

/** A day as given (`2026-07-01`) or an instant's wall clock in `timeZone`, in `pattern`. */
export function dateText(value: { day: string } | { at: number }, pattern: string, timeZone: string): string {
  if ('day' in value) {
    const [y, mo, d] = value.day.split('-').map(Number) as [number, number, number];
    return render({ y, mo, d, h: 0, mi: 0, s: 0 }, pattern);
  }
  return render(wallClockAt(value.at, timeZone), pattern);
}
