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

/** Whether a number format code shows a time of day; undefined when it shows nothing of a date (`General`). */
export function showsTime(numFmt: string | undefined): boolean | undefined {
  if (numFmt === undefined) return undefined;
  const tokens = numFmt.replace(NOT_TOKENS, '');
  if (/[hs]|am\/pm|a\/p/i.test(tokens)) return true;
  return /[dmy]/i.test(tokens) ? false : undefined;
}

/**
 * A date cell as it is shown: by its number format, or by the text the writer stored as shown (an .ods' `<text:p>`,
 * which also holds the format LibreOffice gives a whole column); a format that says nothing of dates leaves it as it
 * is.
 */
export function dateAsShown(d: Date, shown: { numFmt?: string; text?: string }): Date {
  const time = shown.text !== undefined ? /\d:\d\d/.test(shown.text) : showsTime(shown.numFmt);
  if (time === undefined) return d;
  // to the second first: a reader may give x:59:59.999 for a whole minute (a day's end would fall on the day before)
  const t = new Date(Math.round(d.getTime() / 1000) * 1000);
  return time ? new DateTime(t.getTime()) : new Date(Date.UTC(t.getUTCFullYear(), t.getUTCMonth(), t.getUTCDate()));
}
