/**
 * Honest counts in `status` (issue 21): the last poll's number of changes was the length of the list kept in Redis
 * (cut at 200), so a poll of 18,390 transitions read "200 change(s)"; lists cut for the human view did not say so.
 */
import { describe, expect, it } from 'vitest';
import { formatStatus, type StatusReport } from '../../app/commands/status.ts';
import { trackingFacts } from '../../app/commands/status-command.ts';
import { runPoll } from '../../src/tracking/poll/poll-runner.ts';
import { trackRfq } from '../../src/tracking/rfq-tracker.ts';
import { pollingHarness } from '../helpers/polling.ts';
import { usePipeline } from '../helpers/pipeline.ts';

const SEEDED = 230;
const pipeline = usePipeline({
  sandbox: { accounts: { 'sandbox-token': 'Counting Buyer Ltd' }, existing: SEEDED, pageSize: 100 },
});

describe('status counts', () => {
  it('the last poll shows every change it found, not the 200 kept in its record', async () => {
    const h = await pollingHarness({
      redisUrl: pipeline.redisUrl,
      sandbox: pipeline.sandbox,
      env: { RATE_LIMIT_PER_SECOND: '1000' },
      workers: false, // the poll alone: the quotation pulls it queues are not the point
    });
    try {
      // Every seeded RFQ tracked as just created: the poll sees each one in its list, a transition each.
      for (const r of pipeline.sandbox.control.listAll())
        await trackRfq(h.ctx, {
          rfqId: r._id,
          requisition: { key: `K${r._id}`, sourceFile: 'seeded.csv', profile: 'generic', title: r.title },
        });
      const r = await runPoll(h.ctx, { slot: 'now~1', scheduledAt: Date.now() });
      expect(r.transitions).toHaveLength(SEEDED);
      const facts = await trackingFacts(h.ctx);
      expect(facts.lastPoll?.ok).toBe(true);
      expect(facts.lastPoll?.detail).toContain(`${SEEDED} tracked, ${SEEDED} change(s)`);
    } finally {
      await h.close();
    }
  });

  it('a list cut for the human view says how long it is and how much is shown', () => {
    const failure = (i: number) => ({
      queue: 'comparison',
      jobId: `comparison~${i}`,
      name: 'comparison',
      reason: 'outbox not writable (EACCES)',
      at: null,
      attempts: 1,
    });
    const file = (i: number) => ({
      file: `f${i}.csv`,
      outcome: 'refused' as const,
      reason: 'is empty',
      report: `f${i}.xlsx`,
      at: null,
    });
    const report: StatusReport = {
      generatedAt: '2026-11-22T10:00:00.000Z',
      queues: { comparison: { failed: 37 }, ingest: { failed: 3 } },
      rfqs: { open: 30 },
      lastPoll: null,
      flagged: Array.from({ length: 25 }, (_, i) => 100 + i),
      failures: Array.from({ length: 10 }, (_, i) => failure(i)),
      files: Array.from({ length: 12 }, (_, i) => file(i)),
      paused: { paused: false },
      tokenProblems: [],
      intake: null,
      dialect: null,
      undecided: Array.from({ length: 21 }, (_, i) => ({
        requisition: `p/PR-${i}`,
        reason: 'two candidates',
        rfqIds: [],
      })),
      reconcile: { pending: 0, gate: null },
      stateLost: null,
      retention: null,
      mappingSets: [],
      changes: [],
      brokenProfiles: [],
      heldFiles: [],
      awardsWithheld: [],
      erpFilesHeld: [],
      vendorDirectory: null,
    };
    const text = formatStatus(report);
    expect(text).toContain('Flagged (missing from every list; 25, showing 20): 100, 101,');
    expect(text).toContain('NEEDS A DECISION (21, showing 20;');
    expect(text).toContain('Recent failures (40, showing 10;');
    expect(text).toContain('Files refused or with rejected rows (last day, latest first; 12, showing 10;');
    expect(text.split('\n').filter((l) => / f\d+\.csv: REFUSED/.test(l))).toHaveLength(10);
  });
});
