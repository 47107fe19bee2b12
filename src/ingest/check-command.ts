/**
 * `rfq-sync check FILE [--mapping NAME]`: a dry run of ingestion with no side effects. Prints the profile and why,
 * the requisitions and lines it would create, and every row problem. Exit code: 0 clean (warnings allowed), 1 some
 * rows rejected, 2 the file (or the mapping) cannot be read. `check --suggest` drafts a profile (runSuggest).
 */
import { basename } from 'node:path';
import { formatRowProblem, RfqSyncError, type RowProblem } from '../errors.ts';
import type { Requisition } from '../requisition.ts';
import { ingestFile, type IngestOptions } from './ingest-file.ts';
import { bindMapping, type Cell } from './mapping-engine.ts';
import { suggestProfile, type Suggestion } from './profile-suggest.ts';
import { RequisitionGrouper } from './requisition-grouper.ts';

/** Requisitions printed in full; beyond this only counted (a check of a huge file stays readable). */
const MAX_SHOWN = 200;

function day(ms: number): string {
  return new Date(ms).toISOString().replace('T', ' ').slice(0, 16) + ' UTC';
}

export async function runCheck(path: string, opts: IngestOptions, out: (line: string) => void): Promise<0 | 1 | 2> {
  let shown = 0;
  const show = async (r: Requisition): Promise<void> => {
    if (shown++ >= MAX_SHOWN) return;
    const extra = [r.rfq_type, r.rfq_category, r.rfq_location].filter(Boolean).join(', ');
    out(`requisition ${r.key}: "${r.title}" (${r.lines.length} line${r.lines.length === 1 ? '' : 's'}; due ${day(r.due_date)}${r.required_date ? `; required ${day(r.required_date)}` : ''}; ${extra})`);
    for (const l of r.lines) {
      const price = l.estimated_price === undefined ? '' : `, estimated ${l.estimated_price}`;
      out(`  row ${l.row}: ${l.external_id}  ${l.product_name}  qty ${l.qty}${l.uom ? ` ${l.uom}` : ''}${price}`);
    }
  };
  let summary;
  try {
    summary = await ingestFile(path, { ...opts, onProfile: (name, reason) => out(`mapping profile "${name}" (${reason})`) }, show);
  } catch (err) {
    if (err instanceof RfqSyncError && err.kind === 'data') {
      out(`cannot read: ${err.message}`);
      return 2;
    }
    throw err;
  }
  if (shown > MAX_SHOWN) out(`... and ${shown - MAX_SHOWN} more requisitions`);
  for (const p of summary.problems) out(`${p.severity === 'error' ? 'error' : 'warning'}: ${formatRowProblem(p)}`);
  if (summary.truncated) out('... more problems not shown');
  out(
    `would create ${summary.requisitions} requisition(s) with ${summary.lines} line(s); ` +
      `${summary.heldRequisitions} requisition(s) held back, ${summary.rejectedRows} row(s) rejected, ${summary.warnings} warning(s)`,
  );
  return summary.rejectedRows > 0 || summary.heldRequisitions > 0 ? 1 : 0;
}

export interface SuggestCheckOptions {
  limits: IngestOptions['limits'];
  name?: string;
  now?: Date;
}

/**
 * `rfq-sync check --suggest FILE [--name NAME]`: the drafted profile on `out` (stdout: redirect it into
 * mappings/NAME.yaml), the evidence of each choice and then what `check` makes of the file with that profile on
 * `err` (stderr). Nothing is written, nothing is sent. Only a bounded sample is read: when the file is longer, the
 * summary covers the sample. Exit code as `check`: 0 clean, 1 rows rejected, 2 the file cannot be read.
 */
export async function runSuggest(path: string, opts: SuggestCheckOptions, out: (text: string) => void, err: (line: string) => void): Promise<0 | 1 | 2> {
  let s;
  try {
    s = await suggestProfile(path, { limits: opts.limits, name: opts.name, now: opts.now });
  } catch (e) {
    if (e instanceof RfqSyncError && e.kind === 'data') {
      err(`cannot read: ${e.message}`);
      return 2;
    }
    throw e;
  }
  out(s.yaml);
  err(`evidence for the profile "${s.name}" (confidence in brackets):`);
  for (const e of s.evidence) err(`  ${e.what}: ${e.choice} [${e.confidence}] ${e.why}`);
  err(s.reviews.length === 0 ? 'review points: none' : `review points (${s.reviews.length}, marked "# REVIEW:" in the profile):`);
  for (const r of s.reviews) err(`  ${r.path}: ${r.text}`);
  err('');
  if (s.sample.complete) {
    err(`check ${basename(path)} with this profile:`);
    return runCheck(path, { profiles: [s.profile], mappingName: s.name, limits: opts.limits, now: opts.now }, err);
  }
  err(`check of the sample (the first ${s.sample.rows.length} data rows; a full check reads the whole file):`);
  return checkSample(s, opts.now ?? new Date(), err);
}

/** `check` over the sampled rows only: the same mapping, validation and grouping, no second read of the file. */
function checkSample(s: Suggestion, now: Date, err: (line: string) => void): 0 | 1 {
  const file = s.sample.file;
  const m = bindMapping(s.profile, s.sample.headers, s.sample.headerRow);
  const problems: RowProblem[] = [];
  const grouper = new RequisitionGrouper(m, file, file, now, {
    row(r) {
      for (const p of r.problems) if (problems.length < MAX_SHOWN) problems.push(p);
    },
  });
  let above: Cell[] | undefined;
  for (const r of s.sample.rows) {
    const filled = m.fillFromAbove(r.cells, above);
    above = filled;
    grouper.push(filled, r.row);
  }
  grouper.flush();
  for (const p of problems) err(`${p.severity === 'error' ? 'error' : 'warning'}: ${formatRowProblem(p)}`);
  const c = grouper.counts;
  err(
    `the sample would create ${c.requisitions} requisition(s) with ${c.lines} line(s) (the last may continue past the sample); ` +
      `${c.heldRequisitions} requisition(s) held back, ${c.rejectedRows} row(s) rejected, ${c.warnings} warning(s)`,
  );
  return c.rejectedRows > 0 || c.heldRequisitions > 0 ? 1 : 0;
}
