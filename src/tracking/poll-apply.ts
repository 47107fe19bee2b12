/**
 * A poll's second step: apply what the lists showed to every tracked RFQ's record (state, missing count, listed
 * version), then follow up: log the transition or flag, enqueue the quotations, revision check or award job.
 * The record is written first, the follow-up job enqueued second (a crash in between: the next poll does the work).
 */
import type { TrackingContext } from './context.ts';
import { enqueueQuotations } from './enqueue.ts';
import type { PollResult } from './poll-result.ts';
import type { PollState } from './poll-state.ts';
import { finalFollowUp, isFinal, observe, unreadableOf, type Observation, type TrackedRfq } from './transitions.ts';
import { retryWithheld } from './withheld-awards.ts';
import { transitionSeen } from '../audit/steps.ts';

const BATCH = 500;

/** Every tracked RFQ, in batches of records read at once. */
export async function applyToTracked(s: PollState): Promise<void> {
  const now = Date.now();
  for (let i = 0; i < s.trackedIds.length; i += BATCH) {
    const ids = s.trackedIds.slice(i, i + BATCH);
    const records = await s.store.getMany(ids);
    for (const [j, id] of ids.entries()) await applyToRecord(s, id, records[j], now);
  }
}

/** One RFQ: its record updated (compare-and-set, read again on a race), then followed up. */
async function applyToRecord(s: PollState, id: number, first: TrackedRfq | undefined, now: number): Promise<void> {
  const { store, slot, result } = s;
  const threshold = s.ctx.config.MISSING_POLLS_BEFORE_FLAG;
  const found = s.seen.get(id);
  // completed and cancelled are final: not looked for, so not missing; an award never written is asked for again
  if (!found && first && isFinal(first.state)) {
    const actions = finalFollowUp(first);
    if (actions.length > 0) await follow(s.ctx, { record: first, actions, changed: false }, slot, result, s.log);
    return;
  }
  let obs: Observation | undefined;
  const decide = (cur: TrackedRfq | undefined) => {
    const base = cur ?? store.fresh(id, now);
    if (!found && cur?.missingSlot === slot) {
      obs = { record: cur, actions: [], changed: false };
      return undefined;
    }
    obs = observe(base, found?.state, now, threshold);
    if (!found) obs.record.missingSlot = slot;
    const rec = obs.record;
    // A record that broke the schema tells no version: the last one read stays.
    const unread = found?.rfq ? unreadableOf(found.rfq) : '';
    if (
      found?.rfq &&
      (obs.transition ||
        rec.listedVersion !== (found.rfq.version ?? -1) ||
        rec.dueDate !== found.rfq.due_date ||
        (rec.listedUnreadable ?? '') !== unread)
    ) {
      const { dueDate: _old, listedUnreadable: _was, ...rest } = rec;
      const due = found.rfq.due_date;
      obs = {
        ...obs,
        record: {
          ...rest,
          listedVersion: found.rfq.version ?? -1,
          ...(due !== undefined ? { dueDate: due } : {}),
          ...(unread ? { listedUnreadable: unread } : {}),
        },
        changed: true,
      };
    }
    return obs.changed || !cur ? obs.record : undefined;
  };
  const quick = decide(first);
  if (quick !== undefined) {
    if (obs?.transition)
      await s.ctx.audit?.write(transitionSeen(id, obs.transition, slot, found?.rfq, quick.requisition));
    // The RFQ as listed (header and lines for the workbook), refreshed whenever the record changes.
    if (found?.rfq) await store.putListed(found.rfq);
    if (!(await store.compareAndSet(first, quick))) await store.update(id, decide);
    // a new version of the record may hold the lines as posted again: a withheld award file gets another chance
    if (found?.rfq && first?.comparison && first.listedVersion !== (found.rfq.version ?? -1))
      await retryWithheld(s.ctx, id, first.comparison.version);
  }
  if (!obs) return;
  if (!found) result.missing++;
  await follow(s.ctx, obs, slot, result, s.log);
}

/** Say what changed for one RFQ (transition, flag) and enqueue its follow-up jobs. */
async function follow(
  ctx: TrackingContext,
  obs: Observation,
  slot: string,
  result: PollResult,
  log: TrackingContext['logger'],
): Promise<void> {
  const rfqId = obs.record.rfqId;
  const req = obs.record.requisition;
  const about = { rfqId, requisition: req?.key, sourceFile: req?.sourceFile };
  if (obs.transition) {
    result.transitions.push({ rfqId, ...obs.transition });
    log.info(
      { ...about, from: obs.transition.from, to: obs.transition.to, event: 'rfq.transition' },
      `RFQ ${rfqId}: ${obs.transition.from} -> ${obs.transition.to}`,
    );
  }
  if (obs.flag === 'flagged') {
    result.newlyFlagged.push(rfqId);
    log.warn(
      { ...about, missingPolls: obs.record.missingPolls, event: 'rfq.flagged' },
      `RFQ ${rfqId} is missing from every status list for ${obs.record.missingPolls} polls: flagged (still tracked)`,
    );
  } else if (obs.flag === 'reappeared') {
    result.reappeared.push(rfqId);
    log.info({ ...about, event: 'rfq.reappeared' }, `RFQ ${rfqId} is listed again (${obs.record.state}): flag cleared`);
  }
  for (const action of obs.actions) {
    switch (action) {
      case 'pull-quotations':
        await enqueueQuotations(ctx, { rfqId, reason: 'closed' });
        result.enqueued.quotations++;
        break;
      case 'check-revisions':
        await enqueueQuotations(ctx, { rfqId, reason: 'check' }, slot);
        result.enqueued.checks++;
        break;
      case 'pull-award':
        await enqueueQuotations(ctx, { rfqId, reason: 'award' });
        result.enqueued.award++;
        break;
      case 'report-cancelled':
        log.warn({ ...about, event: 'rfq.cancelled' }, `RFQ ${rfqId} was cancelled on the sourcing service`);
        break;
    }
  }
}
