/**
 * `rfq-sync check --json FILE`: the facts the text of `check` gives, as one JSON document for scripts. Its field
 * names are a contract (docs/mapping.md#check---json): add fields, never rename or drop one. Dates are ISO 8601 in
 * UTC; what the text cuts (requisitions past the first MAX_SHOWN, problems past the report's first ones) is cut here
 * too, and counted.
 */
import type { Requisition, RowProblem } from '../core/index.ts';
import type { IngestSummary } from './ingest-file.ts';

export interface CheckJsonLine {
  row: number;
  external_id: string;
  product_name: string;
  qty: number;
  uom: string | null;
  estimated_price: number | null;
}

export interface CheckJsonRequisition {
  key: string;
  title: string;
  due_date: string;
  required_date: string | null;
  rfq_type: string;
  rfq_category: string | null;
  rfq_location: string | null;
  currency: string | null;
  lines: CheckJsonLine[];
}

export interface CheckJson {
  file: string;
  /** The exit code of `check`: 0 clean (warnings allowed), 1 rows rejected or requisitions held, 2 not read. */
  exit_code: 0 | 1 | 2;
  /** clean (0), rejected (1), unreadable (2: the file or its mapping cannot be read), held (2: for a broken profile). */
  outcome: 'clean' | 'rejected' | 'unreadable' | 'held';
  /** Why the file was not read (outcome unreadable or held); null when it was. */
  refusal: string | null;
  profile: { name: string; reason: string } | null;
  requisitions: CheckJsonRequisition[];
  requisitions_not_shown: number;
  /** What the file said of itself: a sheet full to its format's last row, hidden rows, a guessed encoding. */
  notes: string[];
  problems: Array<Omit<RowProblem, 'file'>>;
  problems_not_shown: number;
  skipped_rows: Array<{ row: number; note: string }>;
  /** null when the file was not read. */
  counts: {
    requisitions: number;
    lines: number;
    held_requisitions: number;
    rejected_rows: number;
    warnings: number;
    skipped_rows: number;
  } | null;
  /** Profiles of the mapping folder that do not load (skipped; a file only they fit is held). */
  broken_profiles: string[];
}

const iso = (ms: number | undefined): string | null => (ms === undefined ? null : new Date(ms).toISOString());

export function jsonRequisition(r: Requisition): CheckJsonRequisition {
  return {
    key: r.key,
    title: r.title,
    due_date: iso(r.due_date)!,
    required_date: iso(r.required_date),
    rfq_type: r.rfq_type,
    rfq_category: r.rfq_category ?? null,
    rfq_location: r.rfq_location ?? null,
    currency: r.currency ?? null,
    lines: r.lines.map((l) => ({
      row: l.row,
      external_id: l.external_id,
      product_name: l.product_name,
      qty: l.qty,
      uom: l.uom ?? null,
      estimated_price: l.estimated_price ?? null,
    })),
  };
}

/** The document's start: a file not read yet (or never: refusal set by the caller). */
export function emptyCheckJson(file: string, brokenProfiles: string[]): CheckJson {
  return {
    file,
    exit_code: 2,
    outcome: 'unreadable',
    refusal: null,
    profile: null,
    requisitions: [],
    requisitions_not_shown: 0,
    notes: [],
    problems: [],
    problems_not_shown: 0,
    skipped_rows: [],
    counts: null,
    broken_profiles: brokenProfiles,
  };
}

/** The summary of a file read to its end into the document. */
export function readInto(doc: CheckJson, s: IngestSummary, code: 0 | 1): void {
  doc.exit_code = code;
  doc.outcome = code === 0 ? 'clean' : 'rejected';
  doc.notes = s.notes;
  doc.problems = s.problems.map(({ file: _file, ...p }) => p);
  doc.problems_not_shown = s.problemsNotShown;
  doc.skipped_rows = s.rows.flatMap((r) => (r.status === 'skipped' ? [{ row: r.row, note: r.note ?? 'skipped' }] : []));
  doc.counts = {
    requisitions: s.requisitions,
    lines: s.lines,
    held_requisitions: s.heldRequisitions,
    rejected_rows: s.rejectedRows,
    warnings: s.warnings,
    skipped_rows: s.skippedRows,
  };
}
