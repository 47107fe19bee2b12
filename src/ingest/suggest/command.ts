/**
 * `rfq-sync check --suggest FILE [--name NAME]`: the drafted profile (suggest/profile.ts) on standard output, the
 * evidence and what `check` makes of the file with it on standard error. Kept apart from check-command.ts so a CSV
 * never loads the xlsx reader: the answer on a 1M-line file is mostly start-up time.
 */
import { lstat } from 'node:fs/promises';
import { basename } from 'node:path';
import {
  writeFileAtomically,
  writeNewFileAtomically,
  formatRowProblem,
  RfqSyncError,
  type RowProblem,
} from '../../core/index.ts';
import type { IngestLimits } from '../formats/index.ts';
import { bindMapping, type Cell } from '../mapping-engine.ts';
import { suggestProfile, type Suggestion } from './profile.ts';
import type { FollowedCategories } from './categories.ts';
import { RequisitionGrouper } from '../requisition-grouper.ts';

/** Row problems printed for the sample (as `check` prints its requisitions: a readable screen). */
const MAX_SHOWN = 200;

export interface SuggestCheckOptions {
  limits: IngestLimits;
  name?: string;
  now?: Date;
  /** Write the draft to this file (atomically, only once drafted) instead of standard output. */
  outFile?: string;
  /** With outFile: replace a file that exists. */
  force?: boolean;
  /** Reads the categories the account's suppliers follow (the service's vendor directory), when one is configured. */
  followedCategories?: () => Promise<FollowedCategories | undefined>;
}

/**
 * `rfq-sync check --suggest FILE [--name NAME]`: the drafted profile on `out` (stdout: redirect it into
 * mappings/NAME.yaml), the evidence of each choice and then what `check` makes of the file with that profile on
 * `err` (stderr). Nothing is written, nothing is sent. Only a bounded sample is read: when the file is longer, the
 * summary covers the sample. Exit code as `check`: 0 clean, 1 rows rejected, 2 the file cannot be read.
 */
export async function runSuggest(
  path: string,
  opts: SuggestCheckOptions,
  out: (text: string) => void,
  err: (line: string) => void,
): Promise<0 | 1 | 2> {
  if (opts.outFile !== undefined && !opts.force && (await exists(opts.outFile))) {
    err(`${opts.outFile} exists: nothing drafted or written (--force replaces it)`);
    return 2;
  }
  let s;
  try {
    const followed = await opts.followedCategories?.();
    s = await suggestProfile(path, { limits: opts.limits, name: opts.name, now: opts.now, followed });
  } catch (e) {
    // Nothing on standard output: `check --suggest FILE > mappings/x.yaml` must not leave a profile behind.
    err(e instanceof RfqSyncError && e.kind === 'data' ? `cannot read: ${e.message}` : `cannot draft: ${String(e)}`);
    return 2;
  }
  if (opts.outFile === undefined) out(s.yaml);
  else if (!(await saveDraft(opts.outFile, s.yaml, opts.force === true, err))) return 2;
  err(`evidence for the profile "${s.name}" (confidence in brackets):`);
  for (const e of s.evidence) err(`  ${e.what}: ${e.choice} [${e.confidence}] ${e.why}`);
  err(
    s.reviews.length === 0
      ? 'review points: none'
      : `review points (${s.reviews.length}, marked "# REVIEW:" in the profile):`,
  );
  for (const r of s.reviews) err(`  ${r.path}: ${r.text}`);
  err('');
  if (s.sample.complete) {
    err(`check ${basename(path)} with this profile:`);
    const { runCheck } = await import('../check-command.ts');
    return runCheck(path, { profiles: [s.profile], mappingName: s.name, limits: opts.limits, now: opts.now }, err);
  }
  err(`check of the sample (the first ${s.sample.rows.length} data rows; a full check reads the whole file):`);
  return checkSample(s, opts.now ?? new Date(), err);
}

/** The draft into `file`, whole or not at all; false (said on `err`) when it could not be written. */
async function saveDraft(file: string, yaml: string, force: boolean, err: (line: string) => void): Promise<boolean> {
  try {
    if (force) await writeFileAtomically(file, yaml);
    else if ((await writeNewFileAtomically(file, yaml)) === 'exists') {
      err(`${file} exists: not replaced (--force replaces it)`);
      return false;
    }
  } catch (e) {
    err(`cannot write ${file}: ${(e as Error).message}`);
    return false;
  }
  err(`profile "${basename(file)}" written to ${file}`);
  return true;
}

async function exists(file: string): Promise<boolean> {
  return lstat(file).then(
    () => true,
    () => false,
  );
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
    const skip = m.skipReason(r.cells);
    if (skip !== undefined) {
      grouper.skip(r.row, skip);
      err(`row ${r.row}: ${skip}`);
      continue;
    }
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
