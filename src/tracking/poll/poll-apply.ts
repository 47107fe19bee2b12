/**
 * A poll's second step: apply what the lists showed to every tracked RFQ's record (state, missing count, listed
 * version), then follow up: log the transition or flag, enqueue the quotations, revision check or award job.
 * The record is written first, the follow-up job enqueued second (a crash in between: the next poll does the work).
 * A webhook's targeted check (hint-check.ts) applies what it read through the same steps (applySeen), so a
 * transition is recorded once, by whichever reading sees it first (compare-and-set on the record), and a reading
 * older than the record's last change does not move its state back.
 */
import type { TrackingContext } from '../context.ts';
import { enqueueQuotations } from '../../queues/index.ts';
import type { PollResult } from './poll-result.ts';
import type { PollState, TransitionVia } from './poll-state.ts';
import { finalFollowUp, isFinal, observe, type Observation } from '../transitions.ts';
import { retryWithheld, unreadableOf, type TrackedRfq } from '../../rfqs/index.ts';
import { transitionSeen } from '../../audit/index.ts';

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

/**
 * Only the RFQs the reading found (a webhook's targeted check): nothing is counted missing, and a closed RFQ
 * still closed asks for no revision check (the poll does that).
 */
export async function applySeen(s: PollState): Promise<void> {
  const now = Date.now();
  const ids = [...s.seen.keys()];
  const records = await s.store.getMany(ids);
  for (const [j, id] of ids.entries()) if (records[j]) await applyToRecord(s, id, records[j], now);
}

/** True when `cur` was changed by a reading that started after this one: this one's state is older than its. */
function newerThan(s: PollState, cur: TrackedRfq | undefined, seen: string | undefined): boolean {
  return seen !== undefined && cur !== undefined && seen !== cur.state && (cur.lastSeenAt ?? 0) > s.readAt;
}

/** One RFQ: its record updated (compare-and-set, read again on a race), then followed up. */
async function applyToRecord(s: PollState, id: number, first: TrackedRfq | undefined, now: number): Promise<void> {
  const { store, slot, result } = s;
  const threshold = s.ctx.config.MISSING_POLLS_BEFORE_FLAG;
  const found = s.seen.get(id);
  // completed and cancelled are final: not looked for, so not missing; an award never written is asked for again
  if (!found && first && isFinal(first.state)) {
    const actions = finalFollowUp(first);
    if (actions.length > 0) await follow(s.ctx, { record: first, actions, changed: false }, slot, result, s.log, s.via);
    return;
  }
  if (!found && s.unreadableIds.has(id)) return;
  let obs: Observation | undefined;
  const decide = (cur: TrackedRfq | undefined) => {
    const base = cur ?? store.fresh(id, now);
    if ((!found && cur?.missingSlot === slot) || newerThan(s, cur, found?.state)) {
      obs = cur ? { record: cur, actions: [], changed: false } : undefined;
      return undefined;
    }
    obs = observe(base, found?.state, now, threshold);
    if (s.via === 'webhook') obs.actions = obs.actions.filter((a) => a !== 'check-revisions');
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
      await s.ctx.audit?.write(transitionSeen(id, obs.transition, slot, found?.rfq, quick.requisition, s.via));
    // The RFQ as listed (header and lines for the workbook), refreshed whenever the record changes.
    if (found?.rfq) await store.putListed(found.rfq);
    if (!(await store.compareAndSet(first, quick))) await store.update(id, decide);
    // a new version of the record may hold the lines as posted again: a withheld award file gets another chance
    if (found?.rfq && first?.comparison && first.listedVersion !== (found.rfq.version ?? -1))
      await retryWithheld(s.ctx, id, first.comparison.version);
  }
  if (!obs) return;
  if (!found) result.missing++;
  await follow(s.ctx, obs, slot, result, s.log, s.via);
}

/**
 * Say what changed for one RFQ (transition, flag) and enqueue its follow-up jobs. The one place a transition is
 * recorded in the result and logged, with the path that saw it (`via`: the poll, or a webhook's targeted check).
 */
async function follow(
  ctx: TrackingContext,
  obs: Observation,
  slot: string,
  result: PollResult,
  log: TrackingContext['logger'],
  via: TransitionVia,
): Promise<void> {
  const rfqId = obs.record.rfqId;
  const req = obs.record.requisition;
  const about = { rfqId, requisition: req?.key, sourceFile: req?.sourceFile };
  if (obs.transition) {
    result.transitions.push({ rfqId, ...obs.transition });
    log.info(
      { ...about, from: obs.transition.from, to: obs.transition.to, via, event: 'rfq.transition' },
      `RFQ ${rfqId}: ${obs.transition.from} -> ${obs.transition.to}${via === 'webhook' ? ' (webhook)' : ''}`,
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
