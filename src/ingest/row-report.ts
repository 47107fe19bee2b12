/**
 * The row statuses and problems an ingest reports (the first MAX_REPORTED of each), collected from the grouper as
 * rows settle and turned into IngestSummary's objects at the end.
 */
import type { RowProblem } from '../core/index.ts';
import type { GrouperSink, RowStatus } from './requisition-grouper.ts';

export const MAX_REPORTED = 10_000;

/**
 * Row statuses and problems are kept column-wise (numbers and strings) and become objects at the end: keeping the
 * per-row objects themselves makes V8 promote (and pretenure) them, and a 1M-line run's heap balloons.
 */
export class RowReport implements GrouperSink {
  /** True when problems or rows were cut at MAX_REPORTED. */
  truncated = false;
  /** Problems found beyond the first MAX_REPORTED (counted, not kept). */
  problemsNotKept = 0;
  private readonly rowNo: number[] = [];
  private readonly rowStatus: RowStatus['status'][] = [];
  private readonly rowReq: (string | undefined)[] = [];
  private readonly rowFirstProblem: number[] = [];
  private readonly rowEndProblem: number[] = [];
  private readonly rowNote = new Map<number, string>();
  private readonly pRow: number[] = [];
  private readonly pColumn: string[] = [];
  private readonly pValue: string[] = [];
  private readonly pReason: string[] = [];
  private readonly pWarning: boolean[] = [];

  /** One settled row (GrouperSink). */
  row(s: RowStatus): void {
    const first = this.pRow.length;
    for (const p of s.problems) {
      if (this.pRow.length >= MAX_REPORTED) {
        this.truncated = true;
        this.problemsNotKept++;
        continue;
      }
      this.pRow.push(p.row);
      this.pColumn.push(p.column);
      this.pValue.push(p.value);
      this.pReason.push(p.reason);
      this.pWarning.push(p.severity === 'warning');
    }
    if (this.rowNo.length < MAX_REPORTED) {
      if (s.note !== undefined) this.rowNote.set(this.rowNo.length, s.note);
      this.rowNo.push(s.row);
      this.rowStatus.push(s.status);
      this.rowReq.push(s.requisition);
      this.rowFirstProblem.push(first);
      this.rowEndProblem.push(this.pRow.length);
    } else this.truncated = true;
  }

  /** The problems kept, in the order found. */
  problems(file: string): RowProblem[] {
    return this.pRow.map((row, i) => ({
      file,
      row,
      column: this.pColumn[i]!,
      value: this.pValue[i]!,
      reason: this.pReason[i]!,
      severity: this.pWarning[i] ? 'warning' : 'error',
    }));
  }

  /** The row statuses kept, each with its slice of `problems` (what problems() returned). */
  rows(problems: RowProblem[]): RowStatus[] {
    return this.rowNo.map((row, i) => {
      const r: RowStatus = {
        row,
        status: this.rowStatus[i]!,
        problems: problems.slice(this.rowFirstProblem[i]!, this.rowEndProblem[i]!),
      };
      if (this.rowReq[i] !== undefined) r.requisition = this.rowReq[i];
      const note = this.rowNote.get(i);
      if (note !== undefined) r.note = note;
      return r;
    });
  }
}
