/**
 * Excel dates carry no time zone: a cell shows the wall-clock time it was given. exceljs turns a JS Date into a
 * serial from its UTC fields, so a cell is given the Date whose UTC fields are the wall-clock time in the chosen
 * zone, and the sheet header names that zone (src/core/time-zone.ts does the zone arithmetic).
 */
import { wallDate } from '../../core/index.ts';

/** A Date to write into a cell so that it shows the wall-clock time of `ms` in `timeZone`. */
export const excelDateInZone: (ms: number, timeZone: string) => Date = wallDate;
