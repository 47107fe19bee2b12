/**
 * Does the comparison workbook of an RFQ need a new version? Pure logic over revision numbers per quotation_key.
 *
 * A new version is written when none exists yet, when a quotation's revision_no rose (or a quotation appeared or
 * disappeared) since the last version, when the winner is known and the last version does not carry it, or when
 * the award was asked for and not yet written. A missing revision_no counts as 0.
 */
import type { Quotation } from '../sourcing/types.ts';
import type { WrittenComparison } from './transitions.ts';

export type VersionReason = 'first' | 'revision' | 'new-quotation' | 'withdrawn-quotation' | 'award' | 'winner-changed';

export interface VersionDecision {
  needed: boolean;
  reasons: VersionReason[];
  /** quotation_keys whose revision rose, for the log line. */
  revised: string[];
}

export function revisionsOf(quotations: readonly Pick<Quotation, 'quotation_key' | 'revision_no'>[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const q of quotations) out[q.quotation_key] = Math.max(out[q.quotation_key] ?? 0, q.revision_no ?? 0);
  return out;
}

export function decideNewVersion(
  written: Pick<WrittenComparison, 'revisions' | 'winnerKey' | 'award'> | undefined,
  current: { revisions: Record<string, number>; winnerKey?: string; award: boolean },
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
  else if (current.award && current.winnerKey !== undefined && current.winnerKey !== written.winnerKey) reasons.add('winner-changed');
  revised.sort();
  return { needed: reasons.size > 0, reasons: [...reasons], revised };
}
