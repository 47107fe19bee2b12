/**
 * ingestFile: sniff (refusals before any parser), pick the profile on the first rows, then stream the rest through
 * mapping, validation and grouping; valid requisitions go to `onRequisition` as soon as they are complete.
 */
import { basename } from 'node:path';
import {
  FileRefusedError,
  ProfileBrokenError,
  RfqSyncError,
  SheetNotFoundError,
  WorkbookPartError,
  type RowProblem,
  type Requisition,
} from '../core/index.ts';
import { heldFor } from './broken-profiles.ts';
import type { BrokenProfile } from './profile-catalog.ts';
import { delimiterRefusal } from './delimiter-mismatch.ts';
import {
  MAX_CSV_RECORD_CHARS,
  sniffFile,
  type Delimiter,
  type HeadRow,
  type IngestLimits,
  type RowSource,
  type SniffedFile,
} from './formats/index.ts';
import { bindMapping, isBlankRow, type BoundMapping, type Cell } from './mapping-engine.ts';
import type { MappingProfile } from './mapping-profile.ts';
import { chooseProfile, HEADER_SEARCH_ROWS, type ProfileChoice } from './profile-selection.ts';
import {
  noCounts,
  RequisitionGrouper,
  type GrouperCounts,
  type RequisitionCheck,
  type RowFlag,
  type RowStatus,
} from './requisition-grouper.ts';
import { RowReport } from './row-report.ts';

export interface IngestOptions {
  profiles: MappingProfile[];
  /** Profiles of the folder that do not load (profile-catalog.ts): a file only they could take is held for them. */
  broken?: readonly BrokenProfile[];
  mappingName?: string;
  limits: IngestLimits;
  /** For due_date defaults and the "in the future" check. */
  now?: Date;
  /** File name shown in messages (the path may be processing/<x>). */
  displayName?: string;
  /** Told the chosen profile and why, before any requisition (used by `check` to print it first). */
  onProfile?: (profile: string, reason: string) => void;
  /** A check of each valid requisition (CATEGORY_CHECK at ingest): an error holds it, a warning is reported. */
  checkRequisition?: RequisitionCheck;
}

/** The grouper's counts (skipped rows are each among `rows` with its note), and what the report lists. */
export interface IngestSummary extends GrouperCounts {
  file: string;
  profile: string;
  profileReason: string;
  /** The first MAX_REPORTED problems (errors and warnings), in the order found. */
  problems: RowProblem[];
  /** Status of the first MAX_REPORTED data rows. */
  rows: RowStatus[];
  /** True when problems or rows were cut at MAX_REPORTED. */
  truncated: boolean;
  /** Problems found beyond those in `problems` (0 when every problem is listed). */
  problemsNotShown: number;
  /**
   * What the file itself says that a person must know: its encoding when it was guessed, a sheet that ends on the
   * last row its format holds, rows hidden in the sheet.
   */
  notes: string[];
}

/** A summary before any row is counted: the start of every file's, and the whole of a refused file's. */
export function emptySummary(file: string, profile: string, profileReason: string): IngestSummary {
  return {
    file,
    profile,
    profileReason,
    ...noCounts(),
    problems: [],
    rows: [],
    truncated: false,
    problemsNotShown: 0,
    notes: [],
  };
}

/** The CSV parser's errors in words a person fixing the export understands (its own message follows in brackets). */
const CSV_ERROR_TEXT: Record<string, string> = {
  CSV_QUOTE_NOT_CLOSED: 'is not valid CSV: a quoted field is never closed (a " is missing, or the file was cut off)',
  CSV_INVALID_CLOSING_QUOTE: 'is not valid CSV: a " inside a quoted field is not doubled ("")',
  CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE: 'is not valid CSV: text follows the closing " of a quoted field',
  CSV_MAX_RECORD_SIZE: `has a row longer than ${MAX_CSV_RECORD_CHARS.toLocaleString('en')} characters (one huge cell, or a quote that is never closed)`,
};

/** The caller's own failure (e.g. its queue is down) passes through untouched, never as a refused file. */
class CallbackFailure extends Error {
  constructor(cause: unknown) {
    super('onRequisition failed', { cause });
  }
}

/**
 * Batches of rows from the file's reader (its format's RowSource), with the first rows peeked for profile choice.
 * Opened again (on another sheet or table, or with another delimiter) when the chosen profile says so; `close` ends
 * the reader last opened.
 */
class Rows {
  head: HeadRow[] = [];
  private rest: HeadRow[] = [];
  private src: AsyncGenerator<HeadRow[]> | undefined;
  readonly source: RowSource;
  constructor(source: RowSource) {
    this.source = source;
  }
  /** Start reading from the first row (close the previous reader first). */
  open(sheet: string | undefined, delimiter: Delimiter | 'auto'): void {
    this.src = this.source.open(sheet, delimiter);
    this.head = [];
    this.rest = [];
  }
  async readHead(): Promise<HeadRow[]> {
    while (this.head.length < HEADER_SEARCH_ROWS) {
      const n = await this.src!.next();
      if (n.done) break;
      const room = HEADER_SEARCH_ROWS - this.head.length;
      this.head.push(...n.value.slice(0, room));
      this.rest = n.value.slice(room);
    }
    return this.head;
  }
  /** Rows after the head, in batches. */
  async *after(): AsyncGenerator<HeadRow[]> {
    if (this.rest.length > 0) yield this.rest;
    this.rest = [];
    for await (const b of this.src!) yield b;
  }
  async close(): Promise<void> {
    await this.src?.return(undefined);
  }
}

/**
 * Refusals found before parsing (size, format, zip limits, encoding, no fitting profile) throw before any
 * requisition is passed on. A file that breaks further down (an unclosed quote, a corrupt sheet) throws
 * FileRefusedError after the requisitions completed before the break were passed to `onRequisition`: a caller
 * must hold them until this returns (jobs/ingest.ts spools them, src/intake/requisition-spool.ts).
 */
export async function ingestFile(
  path: string,
  opts: IngestOptions,
  onRequisition: (r: Requisition) => Promise<void>,
): Promise<IngestSummary> {
  const file = opts.displayName ?? basename(path);
  const now = opts.now ?? new Date();
  const sniff = await sniffFile(path, file, opts.limits);
  const rows = new Rows(sniff.format.open(sniff));
  try {
    const choice = await openAndChooseProfile(rows, file, sniff, opts);
    opts.onProfile?.(choice.profile.name, choice.reason);
    const summary = await readRequisitions(rows, choice, file, now, onRequisition, opts.checkRequisition);
    if (sniff.text?.guessed) summary.notes.unshift(`read as ${sniff.text.label}, ${sniff.text.how}`);
    return summary;
  } catch (err) {
    throw refusalFor(err, file, sniff);
  } finally {
    await rows.close();
  }
}

/**
 * Opens `rows` and chooses the profile on the first rows. Returns with `rows` open on the sheet / delimiter of the
 * chosen profile and its head read, `headerAt` indexing that head.
 */
async function openAndChooseProfile(
  rows: Rows,
  file: string,
  sniff: SniffedFile,
  opts: IngestOptions,
): Promise<ProfileChoice> {
  const forced =
    opts.mappingName === undefined
      ? undefined
      : opts.profiles.find((p) => p.name.toLowerCase() === opts.mappingName!.toLowerCase());
  // An xlsx profile may name its sheet: try the sheet of the profile the file name points to first.
  const byName = opts.profiles.find((p) => p.sheet !== undefined && p.filenamePatterns.some((re) => re.test(file)));
  const multi = rows.source.multiSheet;
  const firstSheet = multi ? (forced ? forced.sheet : byName?.sheet) : undefined;
  rows.open(firstSheet, forced?.delimiter ?? 'auto');
  let head: HeadRow[];
  /** The sheet the file name's profile names is not in the file: said, when no profile fits the file otherwise. */
  let missingSheet: SheetNotFoundError | undefined;
  try {
    head = await rows.readHead();
  } catch (err) {
    if (!(err instanceof SheetNotFoundError) || forced) throw err;
    missingSheet = err;
    await rows.close();
    rows.open(undefined, 'auto');
    head = await rows.readHead();
  }
  if (head.every((h) => isBlankRow(h.cells))) throw new FileRefusedError(file, 'is empty (no rows)');
  const held = heldFor(opts.broken ?? [], opts.profiles, file, head, opts.mappingName);
  if (held) throw new ProfileBrokenError(file, held);
  let choice: ProfileChoice;
  try {
    choice = chooseProfile(opts.profiles, file, head, opts.mappingName);
  } catch (err) {
    if (forced && err instanceof FileRefusedError && sniff.format.kind === 'csv')
      throw (await delimiterRefusal(rows.source, forced, file)) ?? err;
    const onNamed = multi && !forced ? await chooseOnOtherSheets(rows, file, opts.profiles, head) : undefined;
    if (!onNamed) throw missingSheet ?? err;
    return onNamed;
  }
  const profile = choice.profile;
  // The chosen profile may read another sheet, or fix a CSV delimiter other than the one detected: read again.
  const otherSheet =
    multi && profile.sheet !== undefined && head[0]?.sheet?.toLowerCase() !== profile.sheet.toLowerCase();
  const otherDelimiter = sniff.format.kind === 'csv' && profile !== forced && profile.delimiter !== 'auto';
  if (!otherSheet && !otherDelimiter) return choice;
  await rows.close();
  rows.open(profile.sheet, profile.delimiter);
  const head2 = await rows.readHead();
  try {
    const { headerAt, header } = chooseProfile([profile], file, head2, profile.name);
    return { ...choice, headerAt, header };
  } catch (err) {
    if (!otherDelimiter || !(err instanceof FileRefusedError)) throw err;
    throw (await delimiterRefusal(rows.source, profile, file)) ?? err;
  }
}

/**
 * No profile fits the sheet (or HTML table) read first (a cover sheet before the data, as D365 writes; a table of
 * report parameters above the data, as web reports write): the sheets the profiles name, then every other sheet in
 * order, each with the profiles that name it or name no sheet. Returns with `rows` open on the first sheet that
 * fits, or undefined (none does).
 */
async function chooseOnOtherSheets(
  rows: Rows,
  file: string,
  profiles: readonly MappingProfile[],
  head: readonly HeadRow[],
): Promise<ProfileChoice | undefined> {
  const read = head[0]?.sheet?.toLowerCase();
  const named = profiles.flatMap((p) => (p.sheet ? [p.sheet] : []));
  const all = await rows.source.sheets();
  const inFile = new Set(all.map((s) => s.toLowerCase()));
  const seen = new Set<string>([read ?? '']);
  for (const sheet of [...named, ...all]) {
    const key = sheet.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    const eligible = profiles.filter((p) => p.sheet === undefined || p.sheet.toLowerCase() === key);
    const naming = inFile.has(key) ? eligible : eligible.filter((p) => p.sheet);
    if (naming.length === 0) continue;
    await rows.close();
    rows.open(sheet, 'auto');
    try {
      const choice = chooseProfile(naming, file, await rows.readHead());
      return { ...choice, reason: `${choice.reason}, in sheet or table "${sheet}"` };
    } catch (err) {
      if (!(err instanceof SheetNotFoundError || err instanceof FileRefusedError)) throw err;
    }
  }
  return undefined;
}

/** What ingestFile throws for `err`: the caller's own failure as it was, anything unreadable as a refused file. */
function refusalFor(err: unknown, file: string, sniff: SniffedFile): unknown {
  if (err instanceof CallbackFailure) return err.cause;
  if (err instanceof SheetNotFoundError) return new FileRefusedError(file, err.message);
  if (err instanceof WorkbookPartError)
    return new FileRefusedError(file, `is a corrupt xlsx workbook (${err.message})`);
  if (err instanceof RfqSyncError) return err;
  const what =
    sniff.format.kind === 'csv'
      ? (CSV_ERROR_TEXT[(err as { code?: string }).code ?? ''] ?? 'cannot be read')
      : `is a corrupt ${sniff.format.name}`;
  return new FileRefusedError(file, `${what} (${(err as Error).message})`, { cause: err });
}

/** The data rows below the header through mapping, validation and grouping; the summary of it all. */
async function readRequisitions(
  rows: Rows,
  choice: ProfileChoice,
  file: string,
  now: Date,
  onRequisition: (r: Requisition) => Promise<void>,
  check: RequisitionCheck | undefined,
): Promise<IngestSummary> {
  const { profile, headerAt } = choice;
  const summary = emptySummary(file, profile.name, choice.reason);
  const m = bindMapping(profile, choice.header, rows.head[headerAt]!.row);
  const report = new RowReport();
  const grouper = new RequisitionGrouper(m, file, file, now, report, check);
  summary.notes = await feedRows(rows, headerAt, m, grouper, onRequisition);
  Object.assign(summary, grouper.counts);
  summary.truncated = report.truncated;
  summary.problemsNotShown = report.problemsNotKept;
  summary.problems = report.problems(file);
  summary.rows = report.rows(summary.problems);
  return summary;
}

/** What becomes of a row hidden in the sheet, by the profile's source.hidden_rows. */
const HIDDEN = 'is hidden in the sheet (filtered out or hidden by hand)';
const HIDDEN_ROW: Record<'hold' | 'read', RowFlag> = {
  hold: {
    severity: 'error',
    reason: `${HIDDEN}: its requisition is held, as the profile's source.hidden_rows is hold (skip leaves hidden rows out, read reads them)`,
  },
  read: { severity: 'warning', reason: `${HIDDEN}: read, as the profile's source.hidden_rows is read` },
};
const HIDDEN_SKIPPED = `${HIDDEN.replace(/^is /, '')}: left out, as the profile's source.hidden_rows is skip`;

/** Rows named in a note; the report's rows sheet lists them all. */
const NOTE_ROWS = 20;

/**
 * Each non-blank data row (filled from the row above where the profile says) into the grouper, in file order; rows
 * hidden in the sheet as the profile says. A sheet whose last used row is the last its format holds may have been
 * cut there: the requisition on that row is held. Returns the notes on what the sheet said.
 */
async function feedRows(
  rows: Rows,
  headerAt: number,
  m: BoundMapping,
  grouper: RequisitionGrouper,
  onRequisition: (r: Requisition) => Promise<void>,
): Promise<string[]> {
  const emit = async (r: Requisition): Promise<void> => {
    try {
      await onRequisition(r);
    } catch (err) {
      throw new CallbackFailure(err);
    }
  };
  const policy = m.profile.hiddenRows;
  const hidden: number[] = [];
  let hiddenCount = 0;
  let lastRow = 0;
  let width = rows.head[headerAt]!.cells.length;
  let above: Cell[] | undefined;
  const feed = async (batch: readonly HeadRow[]): Promise<void> => {
    for (const { cells, row, hidden: isHidden } of batch) {
      if (isBlankRow(cells)) continue;
      lastRow = row;
      if (cells.length > width) width = cells.length;
      const skip = m.skipReason(cells);
      if (skip !== undefined) {
        grouper.skip(row, skip);
        continue;
      }
      if (isHidden) {
        if (hiddenCount++ < NOTE_ROWS) hidden.push(row);
        if (policy === 'skip') {
          grouper.skip(row, HIDDEN_SKIPPED);
          continue;
        }
      }
      const filled = m.fillFromAbove(cells, above);
      above = filled;
      const done = grouper.push(filled, row, isHidden ? HIDDEN_ROW[policy as 'hold' | 'read'] : undefined);
      if (done) await emit(done);
    }
  };
  await feed(rows.head.slice(headerAt + 1));
  for await (const batch of rows.after()) await feed(batch);
  const notes: string[] = [];
  const limit = rows.source.limit();
  const atLimit = limit !== undefined && lastRow >= limit.rows;
  const last = grouper.flush(
    atLimit
      ? `the sheet ends on row ${fmt(limit.rows)}, the last row ${limit.what} holds: it may have been cut there by the program that wrote it, so this requisition may be missing lines; it is held (export the data as xlsx or CSV, or in parts)`
      : undefined,
  );
  if (last) await emit(last);
  if (atLimit)
    notes.push(
      `the sheet ends on row ${fmt(limit.rows)}, the last row ${limit.what} holds: rows after it may have been cut by the program that wrote the file; the requisition on that row is held`,
    );
  if (limit !== undefined && width >= limit.columns)
    notes.push(
      `the sheet fills column ${fmt(limit.columns)}, the last column ${limit.what} holds: columns after it may have been cut by the program that wrote the file`,
    );
  if (hiddenCount > 0)
    notes.push(
      `${hiddenCount} row(s) ${HIDDEN.replace(/^is /, 'are ')}: ${hidden.join(', ')}${hiddenCount > hidden.length ? ` and ${hiddenCount - hidden.length} more` : ''}; ${policy === 'hold' ? 'their requisitions are held' : policy === 'skip' ? 'left out' : 'read'} (the profile's source.hidden_rows: ${policy})`,
    );
  return notes;
}

function fmt(n: number): string {
  return n.toLocaleString('en-US');
}
