/**
 * Dates as ERP exports write them (`dd.MM.yyyy`, `dd-MMM-yyyy`, `M/d/yyyy`, ISO, Excel serial numbers, real xlsx
 * dates) turned into Unix milliseconds, explicit about the time zone: a wall-clock date in the profile's IANA zone.
 * Impossible dates (31.02.) are errors, never rolled over the way `new Date()` does. The zone arithmetic is
 * src/core/time-zone.ts.
 */
import { wallToUtc, type WallClock } from '../core/index.ts';
import { DateTime } from './formats/index.ts';

export interface DateFormat {
  /** Patterns tried in order: tokens yyyy yy MMM MM M dd d HH H mm ss, or `iso`, or `excel_serial`. */
  formats: string[];
  /** IANA time zone the export's wall-clock dates are in. */
  timeZone: string;
  /** Time of day given to a date without a time, `HH:mm`. */
  defaultTime: string;
}

/**
 * `day` (YYYY-MM-DD, the calendar day as written) is set when the value carried no time of day: the ERP gave a date
 * only, so the workbooks show it without the profile's default time.
 */
export type DateResult = { ok: true; ms: number; day?: string } | { ok: false; reason: string };

const dayOf = (w: WallClock): string =>
  `${String(w.y).padStart(4, '0')}-${String(w.mo).padStart(2, '0')}-${String(w.d).padStart(2, '0')}`;

const MONTHS: Record<string, number> = {};
// English and German abbreviations and full names (Oracle writes JAN, SAP in German may write Mär/Okt/Dez).
[
  ['jan', 'january', 'januar', 'jän', 'jänner'],
  ['feb', 'february', 'februar'],
  ['mar', 'march', 'mär', 'märz', 'mrz'],
  ['apr', 'april'],
  ['may', 'mai'],
  ['jun', 'june', 'juni'],
  ['jul', 'july', 'juli'],
  ['aug', 'august'],
  ['sep', 'sept', 'september'],
  ['oct', 'october', 'okt', 'oktober'],
  ['nov', 'november'],
  ['dec', 'december', 'dez', 'dezember'],
].forEach((names, i) => names.forEach((n) => (MONTHS[n] = i + 1)));

interface CompiledPattern {
  re: RegExp;
  groups: string[];
}
const patternCache = new Map<string, CompiledPattern>();

function compile(pattern: string): CompiledPattern {
  const cached = patternCache.get(pattern);
  if (cached) return cached;
  const groups: string[] = [];
  let src = '';
  const tokens = /yyyy|yy|MMMM|MMM|MM|M|dd|d|HH|H|mm|ss/y;
  for (let i = 0; i < pattern.length;) {
    tokens.lastIndex = i;
    const m = tokens.exec(pattern);
    if (m) {
      const t = m[0];
      groups.push(t);
      src +=
        t === 'yyyy'
          ? '(\\d{4})'
          : t === 'MMM' || t === 'MMMM'
            ? '(\\p{L}{3,9})\\.?'
            : t.length === 1
              ? '(\\d{1,2})'
              : '(\\d{2})';
      i += t.length;
    } else {
      const ch = pattern[i]!;
      src += ch === ' ' ? '\\s+' : ch.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
      i++;
    }
  }
  const compiled = { re: new RegExp(`^${src}$`, 'iu'), groups };
  patternCache.set(pattern, compiled);
  return compiled;
}

function daysInMonth(y: number, mo: number): number {
  return new Date(Date.UTC(y, mo, 0)).getUTCDate();
}

function validWall(w: WallClock): string | undefined {
  if (w.mo < 1 || w.mo > 12) return 'is not a real date (month out of range)';
  if (w.d < 1 || w.d > daysInMonth(w.y, w.mo)) return 'is not a real date (day out of range)';
  if (w.h > 23 || w.mi > 59 || w.s > 59) return 'is not a real time';
  if (w.y < 1900 || w.y > 9999) return 'has an implausible year';
  return undefined;
}

function parseTime(hhmm: string): { h: number; mi: number } {
  const m = /^(\d{1,2}):(\d{2})$/.exec(hhmm);
  return m ? { h: Number(m[1]), mi: Number(m[2]) } : { h: 0, mi: 0 };
}

/** Excel serial day number (1900 system, with its phantom 29 Feb 1900) to wall clock. */
export function excelSerialToWall(serial: number): WallClock {
  // Serial 25569 = 1970-01-01. Round to the second: Excel stores times as binary fractions of a day.
  const ms = Math.round((serial - 25569) * 86400) * 1000;
  const d = new Date(ms);
  return {
    y: d.getUTCFullYear(),
    mo: d.getUTCMonth() + 1,
    d: d.getUTCDate(),
    h: d.getUTCHours(),
    mi: d.getUTCMinutes(),
    s: d.getUTCSeconds(),
  };
}

/** Parse text by the profile's patterns. */
export function parseDateText(text: string, fmt: DateFormat): DateResult {
  const s = text.trim();
  if (s === '') return { ok: false, reason: 'is empty' };
  const def = parseTime(fmt.defaultTime);
  for (const pattern of fmt.formats) {
    let wall: WallClock | undefined;
    if (pattern === 'iso') {
      const m = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/.exec(s);
      if (!m) continue;
      wall = {
        y: +m[1]!,
        mo: +m[2]!,
        d: +m[3]!,
        h: m[4] ? +m[4] : def.h,
        mi: m[5] ? +m[5] : def.mi,
        s: m[6] ? +m[6] : 0,
      };
      const bad = validWall(wall);
      if (bad) return { ok: false, reason: bad };
      if (m[7]) {
        // An explicit offset wins over the profile's zone.
        const naive = Date.UTC(wall.y, wall.mo - 1, wall.d, wall.h, wall.mi, wall.s);
        if (m[7] === 'Z') return { ok: true, ms: naive };
        const om = /^([+-])(\d{2}):?(\d{2})$/.exec(m[7])!;
        const off = (Number(om[2]) * 60 + Number(om[3])) * 60000 * (om[1] === '-' ? -1 : 1);
        return { ok: true, ms: naive - off };
      }
      return { ok: true, ms: wallToUtc(wall, fmt.timeZone), ...(m[4] ? {} : { day: dayOf(wall) }) };
    }
    if (pattern === 'excel_serial') {
      if (!/^\d{4,6}(?:\.\d+)?$/.test(s)) continue;
      return fromSerial(Number(s), fmt);
    }
    const { re, groups } = compile(pattern);
    const m = re.exec(s);
    if (!m) continue;
    const w: WallClock = { y: 0, mo: 0, d: 0, h: def.h, mi: def.mi, s: 0 };
    let hasTime = false;
    let monthName: string | undefined;
    groups.forEach((g, i) => {
      const v = m[i + 1]!;
      if (g === 'yyyy') w.y = +v;
      else if (g === 'yy') w.y = 2000 + +v;
      else if (g === 'MMM' || g === 'MMMM') monthName = v;
      else if (g === 'MM' || g === 'M') w.mo = +v;
      else if (g === 'dd' || g === 'd') w.d = +v;
      else if (g === 'HH' || g === 'H') {
        w.h = +v;
        hasTime = true;
      } else if (g === 'mm') {
        w.mi = +v;
        hasTime = true;
      } else if (g === 'ss') w.s = +v;
    });
    if (hasTime && !groups.includes('mm')) w.mi = 0;
    if (monthName !== undefined) {
      const mo = MONTHS[monthName.toLowerCase()];
      if (mo === undefined) return { ok: false, reason: `has an unknown month name "${monthName}"` };
      w.mo = mo;
    }
    wall = w;
    const bad = validWall(wall);
    if (bad) return { ok: false, reason: bad };
    return { ok: true, ms: wallToUtc(wall, fmt.timeZone), ...(hasTime ? {} : { day: dayOf(wall) }) };
  }
  return { ok: false, reason: `is not a date in the expected format (${fmt.formats.join(' or ')})` };
}

function fromSerial(serial: number, fmt: DateFormat): DateResult {
  if (!(serial >= 1 && serial < 2958466)) return { ok: false, reason: 'is not a plausible Excel date serial number' };
  return fromWall(excelSerialToWall(serial), fmt, Number.isInteger(serial));
}

/** A wall clock in the profile's zone to UTC ms; a date without time of day gets the profile's default time. */
function fromWall(w: WallClock, fmt: DateFormat, dateOnly: boolean): DateResult {
  if (dateOnly) {
    const def = parseTime(fmt.defaultTime);
    w.h = def.h;
    w.mi = def.mi;
  }
  const bad = validWall(w);
  if (bad) return { ok: false, reason: bad };
  return { ok: true, ms: wallToUtc(w, fmt.timeZone), ...(dateOnly ? { day: dayOf(w) } : {}) };
}

/**
 * Parse a cell: a JS Date from exceljs carries the workbook's wall clock in its UTC fields (exceljs converts serials
 * as if they were UTC), so its UTC fields are read back as wall clock in the profile's zone. A number is an Excel
 * serial (a date typed in a cell without date format, or a formula's cached result).
 */
export function parseDateCell(value: string | number | Date, fmt: DateFormat): DateResult {
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) return { ok: false, reason: 'is not a real date' };
    // exceljs may return x:59:59.999 for a whole minute: round to the second first.
    const t = new Date(Math.round(value.getTime() / 1000) * 1000);
    const w: WallClock = {
      y: t.getUTCFullYear(),
      mo: t.getUTCMonth() + 1,
      d: t.getUTCDate(),
      h: t.getUTCHours(),
      mi: t.getUTCMinutes(),
      s: t.getUTCSeconds(),
    };
    // a cell whose format shows a time of day means its time, 00:00 too (formats/cell-time.ts)
    return fromWall(w, fmt, !(value instanceof DateTime) && w.h === 0 && w.mi === 0 && w.s === 0);
  }
  if (typeof value === 'number') return fromSerial(value, fmt);
  // An export repeats its dates (a run's requisitions share due and required dates): each text is read once.
  let seen = recent.get(fmt);
  if (!seen) recent.set(fmt, (seen = new Map()));
  let result = seen.get(value);
  if (result === undefined) {
    if (seen.size >= RECENT_TEXTS) seen.clear();
    seen.set(value, (result = parseDateText(value, fmt)));
  }
  return result;
}

/** Date texts read lately and what they were, per profile's formats (a result is never changed by its reader). */
const recent = new WeakMap<DateFormat, Map<string, DateResult>>();
const RECENT_TEXTS = 256;
