/**
 * `rfq-sync check FILE [--mapping NAME] [--json]`: a dry run of ingestion with no side effects. Prints the profile
 * and why, the requisitions and lines it would create, every row problem and the rows set aside; with `--json` the
 * same facts as one JSON document (check-json.ts). Exit code: 0 clean (warnings allowed), 1 some rows rejected, 2
 * the file (or the mapping) cannot be read. `check --suggest` drafts a profile instead (suggest/command.ts).
 */
import { basename } from 'node:path';
import { formatRowProblem, ProfileBrokenError, RfqSyncError, minuteText, type Requisition } from '../core/index.ts';
import { emptyCheckJson, jsonRequisition, readInto } from './check-json.ts';
import { ingestFile, type IngestOptions, type IngestSummary } from './ingest-file.ts';

/** Requisitions printed in full; beyond this only counted (a check of a huge file stays readable). */
const MAX_SHOWN = 200;

function day(ms: number): string {
  return `${minuteText(ms)} UTC`;
}

/** What `check` says, as it learns it: the text prints each fact at once, the JSON document once at the end. */
interface CheckOutput {
  profile(name: string, reason: string): void;
  /** One of the first MAX_SHOWN requisitions. */
  requisition(r: Requisition): void;
  refused(held: boolean, message: string): void;
  read(s: IngestSummary, notShown: number, code: 0 | 1): void;
  end(): void;
}

export async function runCheck(
  path: string,
  opts: IngestOptions,
  out: (line: string) => void,
  format: 'text' | 'json' = 'text',
): Promise<0 | 1 | 2> {
  const o = format === 'json' ? jsonOutput(path, opts, out) : textOutput(out);
  let shown = 0;
  const show = async (r: Requisition): Promise<void> => {
    if (shown++ < MAX_SHOWN) o.requisition(r);
  };
  let summary;
  try {
    summary = await ingestFile(path, { ...opts, onProfile: (name, reason) => o.profile(name, reason) }, show);
  } catch (err) {
    if (err instanceof RfqSyncError && err.kind === 'data') {
      o.refused(err instanceof ProfileBrokenError, err.message);
      o.end();
      return 2;
    }
    throw err;
  }
  const code = summary.rejectedRows > 0 || summary.heldRequisitions > 0 ? 1 : 0;
  o.read(summary, Math.max(0, shown - MAX_SHOWN), code);
  o.end();
  return code;
}

function textOutput(out: (line: string) => void): CheckOutput {
  return {
    profile: (name, reason) => out(`mapping profile "${name}" (${reason})`),
    requisition(r) {
      const extra = [r.rfq_type, r.rfq_category, r.rfq_location].filter(Boolean).join(', ');
      out(
        `requisition ${r.key}: "${r.title}" (${r.lines.length} line${r.lines.length === 1 ? '' : 's'}; due ${day(r.due_date)}${r.required_date ? `; required ${day(r.required_date)}` : ''}; ${extra})`,
      );
      for (const l of r.lines) {
        const price = l.estimated_price === undefined ? '' : `, estimated ${l.estimated_price}`;
        out(`  row ${l.row}: ${l.external_id}  ${l.product_name}  qty ${l.qty}${l.uom ? ` ${l.uom}` : ''}${price}`);
      }
    },
    refused: (held, message) => out(`${held ? 'held' : 'cannot read'}: ${message}`),
    read(s, notShown) {
      if (notShown > 0) out(`... and ${notShown} more requisitions`);
      for (const n of s.notes) out(`note: ${n}`);
      for (const p of s.problems) out(`${p.severity === 'error' ? 'error' : 'warning'}: ${formatRowProblem(p)}`);
      // only when problems were cut: a clean file longer than the report's row list has none to hide
      if (s.problemsNotShown > 0)
        out(`... ${s.problemsNotShown} more problem(s) not shown (the first ${s.problems.length} are above)`);
      for (const r of s.rows) if (r.status === 'skipped') out(`row ${r.row}: ${r.note ?? 'skipped'}`);
      out(
        `would create ${s.requisitions} requisition(s) with ${s.lines} line(s); ` +
          `${s.heldRequisitions} requisition(s) held back, ${s.rejectedRows} row(s) rejected, ${s.warnings} warning(s)` +
          (s.skippedRows > 0 ? `, ${s.skippedRows} row(s) skipped` : ''),
      );
    },
    end() {},
  };
}

function jsonOutput(path: string, opts: IngestOptions, out: (line: string) => void): CheckOutput {
  const doc = emptyCheckJson(
    opts.displayName ?? basename(path),
    (opts.broken ?? []).map((b) => b.reason),
  );
  return {
    profile: (name, reason) => void (doc.profile = { name, reason }),
    requisition: (r) => void doc.requisitions.push(jsonRequisition(r)),
    refused(held, message) {
      doc.outcome = held ? 'held' : 'unreadable';
      doc.refusal = message;
    },
    read(s, notShown, code) {
      doc.requisitions_not_shown = notShown;
      readInto(doc, s, code);
    },
    end: () => out(JSON.stringify(doc, null, 2)),
  };
}
