/** The value kinds the settings are made of, with their error messages (one line per problem at start). */
import { z } from 'zod';
import { canonicalTimeZone } from '../core/index.ts';

/**
 * The parsed values of a group of settings (one file's shape here): a module declares the settings it reads as a
 * Pick of these, app/ passes the parsed configuration, and the defaults stay documented at each field.
 */
export type SettingValues<S extends z.ZodRawShape> = z.output<z.ZodObject<S>>;

export const bool = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off'])])
  .transform((v) => v === true || v === 'true' || v === '1' || v === 'yes' || v === 'on');
export const int = (min: number, max: number) =>
  z.coerce
    .number({ error: `must be a whole number from ${min} to ${max}` })
    .int(`must be a whole number from ${min} to ${max}`)
    .min(min, `must be at least ${min}`)
    .max(max, `must be at most ${max}`);
export const url = (protocols: string[]) =>
  z.string().refine(
    (s) => {
      try {
        return protocols.includes(new URL(s).protocol);
      } catch {
        return false;
      }
    },
    `must be a URL starting with ${protocols.map((p) => `${p}//`).join(' or ')}`,
  );
/** An IANA time zone name as Intl knows it, in its canonical spelling (`europe/berlin` -> `Europe/Berlin`). */
export const timeZone = z
  .string()
  .trim()
  .transform((tz, c) => {
    const canonical = canonicalTimeZone(tz);
    if (canonical !== undefined) return canonical;
    c.addIssue({ code: 'custom', message: 'must be an IANA time zone name such as Europe/Berlin or UTC' });
    return z.NEVER;
  });
export const cron = z.string().regex(/^(\S+\s+){4,5}\S+$/, 'must be a cron expression with 5 or 6 fields');
