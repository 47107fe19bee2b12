/**
 * The poll slot's spelling is part of the poll queue's contract: it is the job id (`poll~now~<ms>`, `poll~hook~<ms>`,
 * test/queues/job-contracts.test.ts) and the audit log's "how a poll came to run". Built and read in one place only
 * (src/queues/poll.ts). Pure.
 */
import { describe, expect, it } from 'vitest';
import { pollJobId, pollSlot, pollSlotKind } from '../../src/queues/poll.ts';
import { pollPath } from '../../src/audit/steps.ts';

describe('the poll slot', () => {
  it('is spelled now~<ms> by hand and hook~<ms> for a webhook, and read back as such', () => {
    expect(pollSlot('manual', 1700000000002)).toBe('now~1700000000002');
    expect(pollSlot('webhook', 1700000000001)).toBe('hook~1700000000001');
    expect(pollJobId(pollSlot('webhook', 5))).toBe('poll~hook~5');
    expect(pollSlotKind('now~1700000000002')).toBe('manual');
    expect(pollSlotKind('hook~1700000000001')).toBe('webhook');
    expect(pollSlotKind('1700000000')).toBe('cron');
    expect(pollSlotKind('nowhere~1')).toBe('cron');
  });

  it('tells the audit log how the poll came to run', () => {
    expect(pollPath(pollSlot('webhook', 1))).toBe('webhook');
    expect(pollPath(pollSlot('manual', 1))).toBe('manual poll');
    expect(pollPath('1700000000')).toBe('poll');
  });
});
