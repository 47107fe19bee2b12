/**
 * The date formats of a column, read from its values: the patterns (date-format.ts tokens) that parse every value,
 * and whether the day/month order is settled. `05/03/2027` reads as 5 March or May 3; a column where no value has a
 * day above 12 cannot tell, and says so instead of guessing.
 */
import { parseDateText, type DateFormat } from '../date-format.ts';

interface Family {
  /** Patterns of one written form: date only, then with times. */
  patterns: string[];
  /** Day/month order group: families of one group read the same text differently. */
  order?: 'dm' | 'md';
  /** The other-order family (slash or dash). */
  twin?: string;
}

const withTimes = (p: string): string[] => [p, `${p} H:mm`, `${p} H:mm:ss`];

/** Written forms ERPs use; the zero-padded variant of each is preferred when every value is padded. */
const FAMILIES: Record<string, Family> = {
  iso: { patterns: ['iso'] },
  'd.M.yyyy': { patterns: withTimes('d.M.yyyy') },
  'd.M.yy': { patterns: withTimes('d.M.yy') },
  'd-MMM-yyyy': { patterns: withTimes('d-MMM-yyyy') },
  'd-MMM-yy': { patterns: withTimes('d-MMM-yy') },
  'd MMM yyyy': { patterns: withTimes('d MMM yyyy') },
  'MMM d, yyyy': { patterns: ['MMM d, yyyy'] },
  'yyyy/M/d': { patterns: withTimes('yyyy/M/d') },
  'd/M/yyyy': { patterns: withTimes('d/M/yyyy'), order: 'dm', twin: 'M/d/yyyy' },
  'M/d/yyyy': { patterns: withTimes('M/d/yyyy'), order: 'md', twin: 'd/M/yyyy' },
  'd/M/yy': { patterns: withTimes('d/M/yy'), order: 'dm', twin: 'M/d/yy' },
  'M/d/yy': { patterns: withTimes('M/d/yy'), order: 'md', twin: 'd/M/yy' },
  'd-M-yyyy': { patterns: withTimes('d-M-yyyy'), order: 'dm', twin: 'M-d-yyyy' },
  'M-d-yyyy': { patterns: withTimes('M-d-yyyy'), order: 'md', twin: 'd-M-yyyy' },
};

const PROBE: DateFormat = { formats: [], timeZone: 'UTC', defaultTime: '12:00' };

export interface ColumnDates {
  /** Patterns to list in dates.formats, in order (only those some value needs). */
  formats: string[];
  /** Values read: text, Excel date cells, serial numbers. */
  texts: number;
  cells: number;
  /** Set when d/M and M/d both read every text value. */
  orderUndecided?: { example: string; taken: 'dm' | 'md' };
  /** The value that settled the order, e.g. "15/03/2027". */
  orderEvidence?: string;
  /** Timestamps parsed (UTC, profile zone unknown: only for comparing columns). */
  ms: (number | undefined)[];
}

/**
 * Dates of one column, or undefined when some non-empty value is not a date in any known form. `values` holds per
 * row a text, a Date (xlsx date cell), or undefined (empty). `orderHint` is taken when the order is undecided.
 */
export function inferColumnDates(
  values: readonly (string | Date | undefined)[],
  orderHint: 'dm' | 'md',
): ColumnDates | undefined {
  const texts = values.filter((v): v is string => typeof v === 'string');
  const cells = values.filter((v) => v instanceof Date).length;
  if (texts.length === 0 && cells === 0) return undefined;
  const ms: (number | undefined)[] = values.map((v) => (v instanceof Date ? v.getTime() : undefined));
  if (texts.length === 0) return { formats: ['iso', 'excel_serial'], texts: 0, cells, ms };
  // Families that read every text value.
  const fits = Object.entries(FAMILIES).filter(([, f]) =>
    texts.every((t) => parseDateText(t, { ...PROBE, formats: f.patterns }).ok),
  );
  if (fits.length === 0) return undefined;
  let chosen = fits[0]!;
  let orderUndecided: ColumnDates['orderUndecided'];
  let orderEvidence: string | undefined;
  if (chosen[1].order) {
    const twin = fits.find(([name]) => name === chosen[1].twin);
    if (twin) {
      const pick =
        orderHint === 'md' ? (chosen[1].order === 'md' ? chosen : twin) : chosen[1].order === 'dm' ? chosen : twin;
      chosen = pick;
      orderUndecided = { example: texts[0]!, taken: pick[1].order! };
    } else {
      // The value that the other order cannot read settles it.
      const other = FAMILIES[chosen[1].twin!]!;
      orderEvidence = texts.find((t) => !parseDateText(t, { ...PROBE, formats: other.patterns }).ok);
    }
  }
  const fam = chosen[1];
  // The patterns some value needs: each text is read by the first pattern of the family that reads it.
  const neededIdx = new Set<number>();
  for (const t of texts) {
    if (neededIdx.size === fam.patterns.length) break;
    const i = fam.patterns.findIndex((p) => parseDateText(t, { ...PROBE, formats: [p] }).ok);
    if (i >= 0) neededIdx.add(i);
  }
  const needed = fam.patterns.filter((_, i) => neededIdx.has(i));
  const formats = needed.map((p) => (p === 'iso' ? p : padded(p, texts)));
  values.forEach((v, i) => {
    if (typeof v !== 'string') return;
    const r = parseDateText(v, { ...PROBE, formats });
    ms[i] = r.ok ? r.ms : undefined;
  });
  if (cells > 0) formats.push(...['iso', 'excel_serial'].filter((f) => !formats.includes(f)));
  const out: ColumnDates = { formats, texts: texts.length, cells, ms };
  if (orderUndecided) out.orderUndecided = orderUndecided;
  if (orderEvidence) out.orderEvidence = orderEvidence;
  return out;
}

/** `d.M.yyyy` -> `dd.MM.yyyy` when every value that this pattern reads writes day and month with two digits. */
function padded(pattern: string, texts: readonly string[]): string {
  const p2 = pattern
    .replace(/(^|[^d])d(?!d)/, '$1dd')
    .replace(/(^|[^M])M(?![Md])/, '$1MM')
    .replace(/\bH\b/, 'HH');
  if (p2 === pattern) return pattern;
  const reads = texts.filter((t) => parseDateText(t, { ...PROBE, formats: [pattern] }).ok);
  return reads.every((t) => parseDateText(t, { ...PROBE, formats: [p2] }).ok) ? p2 : pattern;
}
