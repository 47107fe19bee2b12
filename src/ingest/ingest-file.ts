/**
 * ingestFile: sniff (refusals before any parser), pick the profile on the first rows, then stream the rest through
 * mapping, validation and grouping; valid requisitions go to `onRequisition` as soon as they are complete.
 */
import { basename } from 'node:path';
import { FileRefusedError, RfqSyncError, type RowProblem } from '../errors.ts';
import type { Requisition } from '../requisition.ts';
import { readCsvRows } from './csv-reader.ts';
import { sniffFile, type IngestLimits } from './file-sniffer.ts';
import { bindMapping, isBlankRow, type Cell } from './mapping-engine.ts';
import type { MappingProfile } from './mapping-profile.ts';
import { chooseProfile, HEADER_SEARCH_ROWS, type HeadRow } from './profile-selection.ts';
import { RequisitionGrouper, type RowStatus } from './requisition-grouper.ts';
import { readXlsxRows, SheetNotFoundError } from './xlsx-reader.ts';

export interface IngestOptions {
  profiles: MappingProfile[];
  mappingName?: string;
  limits: IngestLimits;
  /** For due_date defaults and the "in the future" check. */
  now?: Date;
  /** File name shown in messages (the path may be processing/<x>). */
  displayName?: string;
}

export interface IngestSummary {
  file: string;
  profile: string;
  profileReason: string;
  requisitions: number;
  lines: number;
  heldRequisitions: number;
  rejectedRows: number;
  warnings: number;
  /** The first MAX_REPORTED problems (errors and warnings), in the order found. */
  problems: RowProblem[];
  /** Status of the first MAX_REPORTED data rows. */
  rows: RowStatus[];
  /** True when problems or rows were cut at MAX_REPORTED. */
  truncated: boolean;
}

export const MAX_REPORTED = 10_000;

/** The caller's own failure (e.g. its queue is down) passes through untouched, never as a refused file. */
class CallbackFailure extends Error {
  constructor(cause: unknown) {
    super('onRequisition failed', { cause });
  }
}

type RowSource = AsyncGenerator<{ row: number; cells: Cell[]; sheet?: string }>;

export async function ingestFile(path: string, opts: IngestOptions, onRequisition: (r: Requisition) => Promise<void>): Promise<IngestSummary> {
  const file = opts.displayName ?? basename(path);
  const now = opts.now ?? new Date();
  const sniff = await sniffFile(path, file, opts.limits);

  const open = (sheet?: string): RowSource =>
    sniff.kind === 'csv' ? readCsvRows(path, sniff.encoding, sniff.bomBytes, 'auto') : readXlsxRows(path, sheet);
  const forced = opts.mappingName === undefined ? undefined : opts.profiles.find((p) => p.name.toLowerCase() === opts.mappingName!.toLowerCase());

  const readHead = async (src: RowSource): Promise<HeadRow[]> => {
    const head: HeadRow[] = [];
    while (head.length < HEADER_SEARCH_ROWS) {
      const n = await src.next();
      if (n.done) break;
      head.push(n.value);
    }
    return head;
  };

  let src: RowSource;
  let head: HeadRow[];
  try {
    // A CSV profile may fix the delimiter; it is only known after choosing, so the first pass detects it.
    // An xlsx profile may name its sheet: try the sheet of the profile the file name points to first.
    const byName = opts.profiles.find((p) => p.sheet !== undefined && p.filenamePatterns.some((re) => re.test(file)));
    const firstSheet = sniff.kind === 'xlsx' ? (forced ? forced.sheet : byName?.sheet) : undefined;
    src = open(firstSheet);
    try {
      head = await readHead(src);
    } catch (err) {
      if (!(err instanceof SheetNotFoundError) || forced) throw err;
      src = open(undefined);
      head = await readHead(src);
    }
    if (head.every((h) => isBlankRow(h.cells))) throw new FileRefusedError(file, 'is empty (no rows)');
    const choice = chooseProfile(opts.profiles, file, head, opts.mappingName);
    const profile = choice.profile;
    const reopen =
      (sniff.kind === 'xlsx' && profile.sheet !== undefined && head[0] !== undefined && head[0].sheet?.toLowerCase() !== profile.sheet.toLowerCase()) ||
      (sniff.kind === 'csv' && profile.delimiter !== 'auto');
    let headerAt = choice.headerAt;
    if (reopen) {
      await src.return(undefined);
      src = sniff.kind === 'csv' ? readCsvRows(path, sniff.encoding, sniff.bomBytes, profile.delimiter) : readXlsxRows(path, profile.sheet);
      head = await readHead(src);
      const again = chooseProfile([profile], file, head, profile.name);
      headerAt = again.headerAt;
    }
    return await run(src, head, headerAt, profile, choice.reason);
  } catch (err) {
    if (err instanceof CallbackFailure) throw err.cause;
    if (err instanceof SheetNotFoundError) throw new FileRefusedError(file, err.message);
    if (err instanceof RfqSyncError) throw err;
    throw new FileRefusedError(file, `cannot be read: ${(err as Error).message}`, { cause: err });
  }

  async function run(src: RowSource, head: HeadRow[], headerAt: number, profile: MappingProfile, reason: string): Promise<IngestSummary> {
    const summary: IngestSummary = {
      file, profile: profile.name, profileReason: reason,
      requisitions: 0, lines: 0, heldRequisitions: 0, rejectedRows: 0, warnings: 0,
      problems: [], rows: [], truncated: false,
    };
    const header = head[headerAt]!;
    const m = bindMapping(profile, header.cells, header.row);
    const grouper = new RequisitionGrouper(m, file, file, now, {
      async emit(r) {
        try {
          await onRequisition(r);
        } catch (err) {
          throw new CallbackFailure(err);
        }
      },
      row(s) {
        if (summary.rows.length < MAX_REPORTED) summary.rows.push(s);
        else summary.truncated = true;
        for (const p of s.problems) {
          if (summary.problems.length < MAX_REPORTED) summary.problems.push(p);
          else summary.truncated = true;
        }
      },
    });
    let above: Cell[] | undefined;
    const feed = async (cells: Cell[], row: number): Promise<void> => {
      if (isBlankRow(cells)) return;
      const filled = m.fillFromAbove(cells, above);
      above = filled;
      await grouper.push(filled, row);
    };
    try {
      for (const h of head.slice(headerAt + 1)) await feed(h.cells, h.row);
      for await (const r of src) await feed(r.cells, r.row);
      await grouper.flush();
    } finally {
      await src.return(undefined);
    }
    Object.assign(summary, grouper.counts);
    return summary;
  }
}
