/**
 * A requisition whose RFQ exists (recorded now, or earlier) arrives again: what it holds now against what the RFQ
 * holds (the lines as posted, or as adopted from the body posted). Its own file so the creator (rfq-creator.ts) stays
 * about the protocol.
 */
import type { Logger, Requisition, RequisitionLine } from '../core/index.ts';
import { requisitionId } from '../redis/index.ts';
import { type IdempotencyStore } from './idempotency-store.ts';
import { type HeaderOutcome, type LineChange, lineChanges } from '../requisitions/index.ts';
import { settleHeader, type HeaderSettleDeps } from './settle-header.ts';
import { hashOf } from './hash.ts';

export interface CreateOutcome {
  requisitionId: string;
  /**
   * created: posted now; adopted: found at the service after a lost answer; existing: created earlier;
   * undecided: after a lost answer the match is ambiguous: parked for a person (`rfq-sync resolve`).
   */
  status: 'created' | 'adopted' | 'existing' | 'rejected' | 'undecided';
  rfqId?: number;
  /** undecided: the RFQs that matched. */
  rfqIds?: number[];
  reason?: string;
  changes?: LineChange[];
  /** A re-export changed the title, dates or description: pushed with the edit call, or only reported. */
  header?: HeaderOutcome;
  supplements?: CreateOutcome[];
}

/** What comparing a re-export needs of the creator's deps. */
export interface SettleDeps extends HeaderSettleDeps {
  store: Pick<
    IdempotencyStore,
    'get' | 'holders' | 'addSupplement' | 'saveChanges' | 'saveHeader' | 'saveHeaderChanges'
  >;
  logger: Logger;
}

/**
 * The requisition already has its RFQ: compare the lines it arrives with now against the RFQ's. Changed lines are
 * reported (the service cannot update an RFQ); lines with new external_ids become a supplementary RFQ, itself a
 * requisition `${key}#supp-<hash of its external_ids>` going through the same protocol.
 */
export async function settleExisting(
  deps: SettleDeps,
  r: Requisition,
  rfqId: number,
  status: 'existing' | 'adopted',
  createOnce: (r: Requisition) => Promise<CreateOutcome>,
): Promise<CreateOutcome> {
  const id = requisitionId(r);
  const rec = await deps.store.get(id);
  const inRfq = rec?.lines ?? {};
  const changes: LineChange[] = lineChanges(inRfq, r.lines).map((c) => ({
    externalId: c.externalId,
    kind: 'changed' as const,
    fields: c.fields,
  }));
  const others: RequisitionLine[] = r.lines.filter((line) => !inRfq[line.external_id]);

  const supplements: CreateOutcome[] = [];
  if (others.length > 0) {
    const holders = await deps.store.holders(others.map((l) => l.external_id));
    const suppPrefix = `${id}#supp-`;
    const bySupplement = new Map<string, RequisitionLine[]>();
    const fresh: RequisitionLine[] = [];
    others.forEach((line, i) => {
      const holder = holders[i];
      if (holder === undefined || holder === id) fresh.push(line);
      else if (holder.startsWith(suppPrefix)) bySupplement.set(holder, [...(bySupplement.get(holder) ?? []), line]);
      else changes.push({ externalId: line.external_id, kind: 'conflict', heldBy: holder });
    });
    const groups: Array<{ key: string; lines: RequisitionLine[] }> = [];
    for (const [holder, lines] of bySupplement) groups.push({ key: holder.slice(`${r.profile}/`.length), lines });
    if (fresh.length > 0) {
      const ids = fresh.map((l) => l.external_id).sort();
      groups.push({ key: `${r.key}#supp-${hashOf(ids, 10)}`, lines: fresh });
    }
    for (const g of groups) {
      const supp: Requisition = { ...r, key: g.key, lines: g.lines };
      await deps.store.addSupplement(id, requisitionId(supp));
      supplements.push(await createOnce(supp));
    }
  }

  const header = await settleHeader(deps, r, rfqId, rec?.header);

  if (changes.length > 0) {
    await deps.store.saveChanges(id, changes);
    deps.logger.warn(
      { event: 'requisition.changed', requisition: id, rfqId, changes },
      `requisition ${id} was exported again with ${changes.length} changed line(s) after RFQ ${rfqId} was created; ` +
        'the service cannot update an RFQ: change it there by hand if needed',
    );
  }
  return {
    requisitionId: id,
    status,
    rfqId,
    ...(changes.length ? { changes } : {}),
    ...(header ? { header } : {}),
    ...(supplements.length ? { supplements } : {}),
  };
}
