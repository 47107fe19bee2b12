/**
 * Lines -> requisitions, streamed. Exports are sorted by requisition, so a requisition is complete when the group
 * key changes (or the file ends); it is then validated as a whole and either emitted or held back whole (any invalid
 * line holds it). Memory: one requisition's lines, the keys already seen (one short string per requisition), and
 * the external_id index (a few bytes per line).
 * A key that reappears after its requisition ended would silently become a second RFQ: its rows are rejected instead,
 * each saying where the requisition first ended, and the already-emitted part is left as it was.
 */
import { MAX_LINES_PER_RFQ } from '../sourcing/index.ts';
import type { RowProblem, Requisition, RequisitionLine } from '../core/index.ts';
import { ExternalIdIndex } from './external-id-index.ts';
import type { BoundMapping, Cell } from './mapping-engine.ts';
import type { FieldName } from './mapping-profile.ts';
import { hasError, mapLine, mapRequisitionHeader, type RequisitionHeader } from './line-validation.ts';

export type RowStatusKind = 'ok' | 'rejected' | 'held' | 'warning' | 'skipped';
export interface RowStatus {
  row: number;
  requisition?: string;
  status: RowStatusKind;
  problems: RowProblem[];
  /** Why a skipped row was left out. */
  note?: string;
}

/** A problem of a row itself, not of its values (it is hidden in the sheet; the sheet may be cut after it). */
export interface RowFlag {
  reason: string;
  severity: 'error' | 'warning';
}

export interface GrouperSink {
  row(s: RowStatus): void;
}

/**
 * A check of a whole requisition once its lines are valid (e.g. CATEGORY_CHECK against the vendor directory): an
 * error holds it back, a warning is reported; either on the requisition's first row, under `field`'s column.
 */
export type RequisitionCheck = (
  r: Requisition,
) => { field: FieldName; value: string; severity: 'error' | 'warning'; reason: string } | undefined;

export interface GrouperCounts {
  requisitions: number;
  lines: number;
  heldRequisitions: number;
  rejectedRows: number;
  warnings: number;
  /** Rows left out by the profile's skip_rows (totals rows). */
  skippedRows: number;
}

interface PendingRow {
  row: number;
  problems: RowProblem[];
}

interface Group {
  key: string;
  ordinal: number;
  firstRow: number;
  header?: RequisitionHeader;
  /** From the profile's currency column, on the requisition's first row. */
  currency?: string;
  failed: boolean;
  lines: RequisitionLine[];
  rows: PendingRow[];
  /** The external_ids of its rows, each with the row it is on. */
  ids: string[];
  idRows: number[];
}

/** The row of `id` among the group's ids, or undefined. */
function rowOf(g: Group, id: string): number | undefined {
  const i = g.ids.indexOf(id);
  return i < 0 ? undefined : g.idRows[i];
}

/** Counts before any row. */
export function noCounts(): GrouperCounts {
  return { requisitions: 0, lines: 0, heldRequisitions: 0, rejectedRows: 0, warnings: 0, skippedRows: 0 };
}

export class RequisitionGrouper {
  readonly counts: GrouperCounts = noCounts();
  readonly ids = new ExternalIdIndex(4096);
  /** Key -> last row of a finished requisition (to name it when the key reappears). */
  private readonly finished = new Map<string, number>();
  private readonly keyByOrdinal: string[] = [];
  private group: Group | undefined;
  private readonly m: BoundMapping;
  private readonly file: string;
  private readonly sourceFile: string;
  private readonly now: Date;
  private readonly sink: GrouperSink;
  private readonly check: RequisitionCheck | undefined;

  constructor(
    m: BoundMapping,
    file: string,
    sourceFile: string,
    now: Date,
    sink: GrouperSink,
    check?: RequisitionCheck,
  ) {
    this.m = m;
    this.file = file;
    this.sourceFile = sourceFile;
    this.now = now;
    this.sink = sink;
    this.check = check;
  }

  /**
   * Add one data row (`flag`: a problem of the row itself, such as being hidden in the sheet); returns the previous
   * requisition when this row completed it and it is valid.
   */
  push(cells: readonly Cell[], row: number, flag?: RowFlag): Requisition | undefined {
    const r = mapLine(this.m, cells, row, this.file);
    if (flag) r.problems.push(this.rowProblem(row, r.key, flag));
    if (r.key === '') {
      this.settle({ row, problems: r.problems }, undefined, 'rejected');
      return undefined;
    }
    let done: Requisition | undefined;
    if (!this.group || this.group.key !== r.key) {
      done = this.flush();
      const endedAt = this.finished.get(r.key);
      if (endedAt !== undefined) {
        const problems = [
          ...r.problems.filter((p) => p.severity === 'error'),
          {
            file: this.file,
            row,
            column: this.m.label('requisition'),
            value: r.key,
            severity: 'error' as const,
            reason: `requisition ${r.key} already ended at row ${endedAt}; its rows must be contiguous (sort the export by requisition): this row was not ingested`,
          },
        ];
        this.settle({ row, problems }, r.key, 'rejected');
        return done;
      }
      const ordinal = this.keyByOrdinal.length;
      this.keyByOrdinal.push(r.key);
      const h = mapRequisitionHeader(this.m, cells, row, this.file, r.key, this.now);
      const currency = this.currencyOf(cells, row, r.problems);
      this.group = {
        key: r.key,
        ordinal,
        firstRow: row,
        header: h.header,
        ...(currency ? { currency } : {}),
        failed: !h.header,
        lines: [],
        rows: [],
        ids: [],
        idRows: [],
      };
      r.problems.unshift(...h.problems);
    }
    const g = this.group;
    const id =
      r.line?.external_id ??
      (this.m.emptyColumns('external_id', cells).length === 0 ? this.m.text('external_id', cells) : '');
    if (id !== '') {
      // The file's index answers for most rows: an id seen before is then looked for in this requisition's own.
      const owner = this.ids.record(id, g.ordinal);
      const dupRow = owner === undefined ? undefined : rowOf(g, id);
      if (dupRow !== undefined) {
        r.problems.push(
          this.idProblem(
            row,
            id,
            `external_id ${id} appears twice in requisition ${g.key} (rows ${dupRow} and ${row})`,
          ),
        );
      } else {
        g.ids.push(id);
        g.idRows.push(row);
        if (owner !== undefined && owner !== g.ordinal) {
          r.problems.push(
            this.idProblem(
              row,
              id,
              `external_id ${id} is already used by requisition ${this.keyByOrdinal[owner]} in this file`,
            ),
          );
        }
      }
    }
    if (r.line && g.lines.length === MAX_LINES_PER_RFQ) {
      // the same limit as the client's request schema: said here, at validation, not as a refusal at send time
      r.problems.push({
        file: this.file,
        row,
        column: this.m.label('external_id'),
        value: id,
        severity: 'error',
        reason: `requisition ${g.key} has more than ${MAX_LINES_PER_RFQ} lines, the most one RFQ may have (field lines): it is held whole; split it in the ERP`,
      });
    }
    const bad = hasError(r.problems, 0);
    if (bad) g.failed = true;
    else if (r.line) g.lines.push(r.line);
    g.rows.push({ row, problems: r.problems });
    return done;
  }

  /**
   * The currency a requisition's first row names in the profile's currency column: an ISO 4217 code, else a problem
   * (none when the cell is empty: the requisition then names none, or REQUISITION_CURRENCY).
   */
  private currencyOf(cells: readonly Cell[], row: number, problems: RowProblem[]): string | undefined {
    if (!this.m.has('currency')) return undefined;
    const text = this.m.text('currency', cells);
    const code = text.toUpperCase();
    if (text === '' || /^[A-Z]{3}$/.test(code)) return code || undefined;
    problems.push({
      file: this.file,
      row,
      column: this.m.label('currency'),
      value: text,
      severity: 'error',
      reason: 'is not an ISO 4217 currency code (three letters, e.g. EUR): the requisition is held',
    });
    return undefined;
  }

  /** A row the profile leaves out (skip_rows): reported, not a line of any requisition. */
  skip(row: number, note: string): void {
    this.counts.skippedRows++;
    this.sink.row({ row, status: 'skipped', problems: [], note });
  }

  /** A problem of the row itself, under the requisition column. */
  private rowProblem(row: number, key: string, flag: RowFlag): RowProblem {
    return { file: this.file, row, column: this.m.label('requisition'), value: key, ...flag };
  }

  private idProblem(row: number, value: string, reason: string): RowProblem {
    return { file: this.file, row, column: this.m.label('external_id'), value, reason, severity: 'error' };
  }

  private settle(p: PendingRow, requisition: string | undefined, status: RowStatusKind): void {
    const errors = hasError(p.problems, 0);
    if (errors) this.counts.rejectedRows++;
    for (const x of p.problems) if (x.severity === 'warning') this.counts.warnings++;
    const s: RowStatus = { row: p.row, status: errors ? 'rejected' : status, problems: p.problems };
    if (requisition !== undefined) s.requisition = requisition;
    this.sink.row(s);
  }

  /**
   * Finish the current requisition: return it when valid, else hold it back whole (and return nothing). `cut`: an
   * error of its last row that holds it (the file may end inside it).
   */
  flush(cut?: string): Requisition | undefined {
    const g = this.group;
    if (!g) return undefined;
    this.group = undefined;
    if (cut !== undefined) {
      const last = g.rows[g.rows.length - 1]!;
      last.problems.push(this.rowProblem(last.row, g.key, { reason: cut, severity: 'error' }));
      g.failed = true;
    }
    this.finished.set(g.key, g.rows[g.rows.length - 1]!.row);
    const currency = g.currency ?? this.m.profile.currency;
    const r: Requisition | undefined =
      g.failed || !g.header || g.lines.length === 0
        ? undefined
        : {
            key: g.key,
            sourceFile: this.sourceFile,
            profile: this.m.profile.name,
            ...(currency ? { currency } : {}),
            ...g.header,
            lines: g.lines,
          };
    const verdict = r && this.check?.(r);
    if (verdict) {
      const { field, value, severity, reason } = verdict;
      g.rows[0]!.problems.push({
        file: this.file,
        row: g.firstRow,
        column: this.m.label(field),
        value,
        severity,
        reason,
      });
    }
    if (!r || verdict?.severity === 'error') {
      this.counts.heldRequisitions++;
      for (const row of g.rows) this.settle(row, g.key, 'held');
      return undefined;
    }
    for (const row of g.rows) this.settle(row, g.key, row.problems.length > 0 ? 'warning' : 'ok');
    this.counts.requisitions++;
    this.counts.lines += g.lines.length;
    return r;
  }
}
