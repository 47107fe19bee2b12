/**
 * Does the comparison workbook of an RFQ need a new version? Pure logic over revision numbers per quotation_key.
 *
 * A new version is written when none exists yet, when a quotation's revision_no rose (or a quotation appeared or
 * disappeared) since the last version, when the winner is known and the last version does not carry it, or when
 * the award was asked for and not yet written. A missing revision_no counts as 0.
 */
import type { Quotation } from '../sourcing/index.ts';
import type { WrittenComparison } from '../rfqs/index.ts';

export type VersionReason =
  | 'first'
  | 'revision'
  | 'new-quotation'
  | 'withdrawn-quotation'
  | 'award'
  | 'winner-changed'
  | 'decided'
  | 'record-reread';

export interface VersionDecision {
  needed: boolean;
  reasons: VersionReason[];
  /** quotation_keys whose revision rose, for the log line. */
  revised: string[];
}

export function revisionsOf(
  quotations: readonly Pick<Quotation, 'quotation_key' | 'revision_no'>[],
): Record<string, number> {
  const out: Record<string, number> = {};
  for (const q of quotations) out[q.quotation_key] = Math.max(out[q.quotation_key] ?? 0, q.revision_no ?? 0);
  return out;
}

/**
 * The qualification decisions of an RFQ's quotations as one comparable text, when every quotation has one (the
 * award is then final: an award file is due); undefined while any is undecided or could not be read.
 */
export function decisionsOf(
  quotations: readonly Pick<Quotation, 'quotation_key' | 'status'>[],
  invalid = 0,
): string | undefined {
  if (quotations.length === 0 || invalid > 0) return undefined;
  const parts: string[] = [];
  for (const q of quotations) {
    if (q.status !== 'qualified' && q.status !== 'not qualified') return undefined;
    parts.push(`${q.quotation_key}=${q.status === 'qualified' ? 'q' : 'nq'}`);
  }
  return parts.sort().join(',');
}

export function decideNewVersion(
  written: Pick<WrittenComparison, 'revisions' | 'winnerKey' | 'award' | 'decisions' | 'listedUnreadable'> | undefined,
  current: {
    revisions: Record<string, number>;
    winnerKey?: string;
    award: boolean;
    decisions?: string;
    /** The fields of the RFQ record now left out unread ('' none); undefined: not known here (not compared). */
    listedUnreadable?: string;
  },
): VersionDecision {
  if (!written) return { needed: true, reasons: ['first'], revised: [] };
  const reasons = new Set<VersionReason>();
  const revised: string[] = [];
  for (const [key, rev] of Object.entries(current.revisions)) {
    const before = written.revisions[key];
    if (before === undefined) reasons.add('new-quotation');
    else if (rev > before) {
      reasons.add('revision');
      revised.push(key);
    }
  }
  for (const key of Object.keys(written.revisions)) if (!(key in current.revisions)) reasons.add('withdrawn-quotation');
  if (current.award && !written.award) reasons.add('award');
  else if (current.award && current.winnerKey !== undefined && current.winnerKey !== written.winnerKey)
    reasons.add('winner-changed');
  // Every quotation decided (or decided differently) since the last version: the award became final.
  if (!written.award && current.decisions !== undefined && current.decisions !== written.decisions)
    reasons.add('decided');
  // The RFQ record is read differently (a field readable again, or newly not): what was left out may change the award.
  if (current.listedUnreadable !== undefined && current.listedUnreadable !== (written.listedUnreadable ?? ''))
    reasons.add('record-reread');
  revised.sort();
  return { needed: reasons.size > 0, reasons: [...reasons], revised };
}
