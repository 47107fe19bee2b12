/**
 * One time of day per cell, whatever format carries it: a date cell's time is what its number format shows. A
 * format that shows a time of day (`dd.mm.yyyy hh:mm`) gives a DateTime, whose time is meant even at 00:00; one that
 * shows the date alone gives the day at 00:00, which date-format.ts gives the profile's default time. So a workbook
 * read as xlsx, .xls or .ods gives the times its CSV or HTML export writes (where 00:00 is written out as 00:00).
 */

/** A date cell whose number format shows a time of day: its time is meant, 00:00 included. */
export class DateTime extends Date {}

/** Quoted text, escaped characters, and bracketed sections other than elapsed time (`[h]`, `[mm]`, `[ss]`). */
const NOT_TOKENS = /"[^"]*"|\\.|\[(?![hms]+\])[^\]]*\]/gi;

/** showsTime by format code: a workbook uses a few formats on many cells. */
const timeShown = new Map<string, boolean | undefined>();

/** Whether a number format code shows a time of day; undefined when it shows nothing of a date (`General`). */
export function showsTime(numFmt: string | undefined): boolean | undefined {
  if (numFmt === undefined) return undefined;
  if (timeShown.has(numFmt)) return timeShown.get(numFmt);
  const tokens = numFmt.replace(NOT_TOKENS, '');
  const time = /[hs]|am\/pm|a\/p/i.test(tokens) ? true : /[dmy]/i.test(tokens) ? false : undefined;
  if (timeShown.size < 1000) timeShown.set(numFmt, time);
  return time;
}

const DAY_MS = 86_400_000;

/**
 * A date cell as it is shown: by its number format, or by the text the writer stored as shown (an .ods' `<text:p>`,
 * which also holds the format LibreOffice gives a whole column); a format that says nothing of dates leaves it as it
 * is.
 */
export function dateAsShown(d: Date, shown: { numFmt?: string; text?: string }): Date {
  const time = shown.text !== undefined ? /\d:\d\d/.test(shown.text) : showsTime(shown.numFmt);
  if (time === undefined) return d;
  // to the second first: a reader may give x:59:59.999 for a whole minute (a day's end would fall on the day before)
  const ms = Math.round(d.getTime() / 1000) * 1000;
  if (time) return new DateTime(ms);
  const day = ms - (((ms % DAY_MS) + DAY_MS) % DAY_MS);
  return day === d.getTime() ? d : new Date(day);
}
