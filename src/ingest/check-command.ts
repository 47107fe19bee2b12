/**
 * `rfq-sync check FILE [--mapping NAME]`: a dry run of ingestion with no side effects. Prints the profile and why,
 * the requisitions and lines it would create, and every row problem. Exit code: 0 clean (warnings allowed), 1 some
 * rows rejected, 2 the file (or the mapping) cannot be read. `check --suggest` drafts a profile instead (suggest/command.ts).
 */
import { formatRowProblem, ProfileBrokenError, RfqSyncError, minuteText, type Requisition } from '../core/index.ts';
import { ingestFile, type IngestOptions } from './ingest-file.ts';

/** Requisitions printed in full; beyond this only counted (a check of a huge file stays readable). */
const MAX_SHOWN = 200;

function day(ms: number): string {
  return `${minuteText(ms)} UTC`;
}

export async function runCheck(path: string, opts: IngestOptions, out: (line: string) => void): Promise<0 | 1 | 2> {
  let shown = 0;
  const show = async (r: Requisition): Promise<void> => {
    if (shown++ >= MAX_SHOWN) return;
    const extra = [r.rfq_type, r.rfq_category, r.rfq_location].filter(Boolean).join(', ');
    out(
      `requisition ${r.key}: "${r.title}" (${r.lines.length} line${r.lines.length === 1 ? '' : 's'}; due ${day(r.due_date)}${r.required_date ? `; required ${day(r.required_date)}` : ''}; ${extra})`,
    );
    for (const l of r.lines) {
      const price = l.estimated_price === undefined ? '' : `, estimated ${l.estimated_price}`;
      out(`  row ${l.row}: ${l.external_id}  ${l.product_name}  qty ${l.qty}${l.uom ? ` ${l.uom}` : ''}${price}`);
    }
  };
  let summary;
  try {
    summary = await ingestFile(
      path,
      { ...opts, onProfile: (name, reason) => out(`mapping profile "${name}" (${reason})`) },
      show,
    );
  } catch (err) {
    if (err instanceof RfqSyncError && err.kind === 'data') {
      out(`${err instanceof ProfileBrokenError ? 'held' : 'cannot read'}: ${err.message}`);
      return 2;
    }
    throw err;
  }
  if (shown > MAX_SHOWN) out(`... and ${shown - MAX_SHOWN} more requisitions`);
  for (const n of summary.notes) out(`note: ${n}`);
  for (const p of summary.problems) out(`${p.severity === 'error' ? 'error' : 'warning'}: ${formatRowProblem(p)}`);
  // only when problems were cut: a clean file longer than the report's row list has none to hide
  if (summary.problemsNotShown > 0)
    out(`... ${summary.problemsNotShown} more problem(s) not shown (the first ${summary.problems.length} are above)`);
  for (const r of summary.rows) if (r.status === 'skipped') out(`row ${r.row}: ${r.note ?? 'skipped'}`);
  out(
    `would create ${summary.requisitions} requisition(s) with ${summary.lines} line(s); ` +
      `${summary.heldRequisitions} requisition(s) held back, ${summary.rejectedRows} row(s) rejected, ${summary.warnings} warning(s)` +
      (summary.skippedRows > 0 ? `, ${summary.skippedRows} row(s) skipped` : ''),
  );
  return summary.rejectedRows > 0 || summary.heldRequisitions > 0 ? 1 : 0;
}
