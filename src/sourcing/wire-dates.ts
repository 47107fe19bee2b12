/**
 * A date as the service writes it: each form below is a dialect of the same field, read to Unix ms (UTC)
 * (docs/architecture.md#where-the-interface-is-silent):
 *   - Unix ms as a number or a string of digits (the interface);
 *   - MongoDB extended JSON (older revisions of the real service's documentation): `{"$date": {"$numberLong":
 *     "1492668000613"}}`, `{"$date": "2017-04-20T06:00:00.613Z"}`, `{"$date": 1492668000613}`;
 *   - the JavaScript date text of the older quotation example, `Fri May 05 2017 17:26:41 GMT+0700 (SE Asia Standard
 *     Time)`: its `GMT+hhmm` offset says the zone (the name in brackets is only a label and is not read), and its
 *     weekday must agree with the date.
 * Nothing else is read: an ISO text without an offset or a bare day would need a time zone to be guessed, and is
 * refused with the form it has, so the field is reported, never silently shifted.
 */
import { z } from 'zod';

const DIGITS = /^\d{1,16}$/;
const ISO = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}(?::\d{2})?)(\.\d+)?(Z|[+-]\d{2}:?\d{2})$/i;
const JS_TEXT =
  /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) (\d{2}) (\d{4}) (\d{2}):(\d{2}):(\d{2}) GMT([+-])(\d{2})(\d{2})(?: \([^()]*\))?$/;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

/** Latest instant read (year 9999): anything beyond is not a date in ms (seconds or microseconds, say). */
const MAX_MS = 253_402_300_799_999;

export const WIRE_DATE_FORMS =
  'Unix ms (digits), {"$date": {"$numberLong": "<ms>"}}, {"$date": "<ISO time with Z or offset>"} or a date text with its GMT offset';

type Read = { ms: number } | { error: string };

const ok = (ms: number): Read =>
  Number.isSafeInteger(ms) && ms >= 0 && ms <= MAX_MS ? { ms } : { error: `${ms} is not a date in Unix ms` };

function fromDigits(s: string): Read {
  return DIGITS.test(s) ? ok(Number(s)) : { error: `expected ${WIRE_DATE_FORMS}` };
}

/** An ISO 8601 time that names its zone (Z or an offset); the fraction is cut to ms. */
function fromIso(s: string): Read {
  const m = ISO.exec(s);
  if (!m) return { error: `"$date" must be an ISO time with Z or an offset (the zone is never guessed)` };
  const [, day, time, fraction = '', zone] = m;
  const offset = zone!.toUpperCase() === 'Z' ? 'Z' : `${zone!.slice(0, 3)}:${zone!.slice(-2)}`;
  const ms = Date.parse(`${day}T${time!.length === 5 ? `${time}:00` : time}${fraction.slice(0, 4)}${offset}`);
  return Number.isNaN(ms) ? { error: `"$date" ${JSON.stringify(s)} is not a valid time` } : ok(ms);
}

/** `Fri May 05 2017 17:26:41 GMT+0700 (...)`: the wall time at that offset. */
function fromJsText(s: string): Read | undefined {
  const m = JS_TEXT.exec(s);
  if (!m) return undefined;
  const [, dow, mon, dd, yyyy, hh, mi, ss, sign, oh, om] = m;
  const month = MONTHS.indexOf(mon!);
  const wall = Date.UTC(Number(yyyy), month, Number(dd), Number(hh), Number(mi), Number(ss));
  const check = new Date(wall);
  if (
    check.getUTCDate() !== Number(dd) ||
    check.getUTCMonth() !== month ||
    Number(hh) > 23 ||
    Number(mi) > 59 ||
    Number(ss) > 59
  )
    return { error: `date text ${JSON.stringify(s)} names no real time` };
  if (DAYS[check.getUTCDay()] !== dow)
    return { error: `date text ${JSON.stringify(s)}: ${mon} ${dd} ${yyyy} is no ${dow}` };
  const offsetMs = (sign === '-' ? -1 : 1) * (Number(oh) * 60 + Number(om)) * 60_000;
  return ok(wall - offsetMs);
}

/** One date value in any of the forms above; `undefined` and `null` are an absent date. */
export function readWireDate(v: unknown): Read | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'number') return Number.isInteger(v) ? ok(v) : { error: `expected ${WIRE_DATE_FORMS}` };
  if (typeof v === 'string') return fromJsText(v.trim()) ?? fromDigits(v.trim());
  if (typeof v === 'object' && !Array.isArray(v)) {
    const o = v as Record<string, unknown>;
    if (!('$date' in o)) return { error: `expected ${WIRE_DATE_FORMS}` };
    const d = o.$date;
    if (typeof d === 'number') return Number.isInteger(d) ? ok(d) : { error: '"$date" must be whole ms' };
    if (typeof d === 'string') return fromIso(d.trim());
    if (d && typeof d === 'object' && typeof (d as { $numberLong?: unknown }).$numberLong === 'string')
      return fromDigits((d as { $numberLong: string }).$numberLong.trim());
    return { error: '"$date" must hold {"$numberLong": "<ms>"}, an ISO time or ms' };
  }
  return { error: `expected ${WIRE_DATE_FORMS}` };
}

/** The zod form of readWireDate: Unix ms, or undefined when absent (`null` included). */
export const wireDate = z
  .unknown()
  .transform((v, ctx): number | undefined => {
    const r = readWireDate(v);
    if (r === undefined) return undefined;
    if ('ms' in r) return r.ms;
    ctx.addIssue({ code: 'custom', message: r.error });
    return z.NEVER;
  })
  .optional();
