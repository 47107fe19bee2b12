/**
 * The polls: one walk of the RFQ lists per slot (lock, listing, the records and follow-up jobs, the results kept),
 * the poll schedule, and the webhook path (its hints checked first, a poll woken at most once per interval).
 */
export { actOnWebhook, hintIds, type HintOutcome } from './hint-check.ts';
export { lastPoll, lastSuccessfulPollAt, pollHistory } from './poll-history.ts';
export type { PollResult } from './poll-result.ts';
export { type PollOverview, runPoll } from './poll-runner.ts';
export { type PollSchedule, startPollSchedule } from './poll-schedule.ts';
