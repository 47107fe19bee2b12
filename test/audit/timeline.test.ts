/**
 * The audit log's parts without a pipeline: where the writer puts lines and what it keeps out of them, the
 * retention of its files, a torn line skipped and reported, what `trace` matches, and what it says is pending.
 */
import { appendFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createAuditLog } from '../../src/audit/writer.ts';
import { buildTimeline } from '../../src/audit/trace-log.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { auditLogFiles as logFiles } from '../helpers/audit-files.ts';

let root: string | undefined;
afterEach(() => {
  if (root) rmSync(root, { recursive: true, force: true });
  root = undefined;
});
const DAY = 86_400_000;
const T0 = Date.UTC(2026, 10, 20, 9, 0, 0);

function clock(start = T0) {
  let t = start;
  return { now: () => t, set: (v: number) => (t = v), tick: (ms = 1_000) => (t += ms) };
}

async function loggedRun() {
  root = tempDir('rfq-audit-');
  const c = clock();
  const log = createAuditLog({ root, retentionDays: 400, host: 'erp-gw 01', account: 'acme', now: c.now });
  const req = { profile: 'generic', key: 'PR-1', external_ids: ['PR-1-1', 'PR-1-2'], file: 'export.csv' };
  await log.write({
    event: 'file-taken',
    summary: 'file export.csv taken',
    file: 'export.csv',
    file_sha256: 'ab'.repeat(32),
  });
  c.tick();
  await log.write({
    event: 'requisition-accepted',
    summary: 'accepted',
    ...req,
    file_sha256: 'ab'.repeat(32),
    due_date: Date.UTC(2026, 11, 7, 16),
  });
  c.tick();
  await log.write({
    event: 'create-sent',
    summary: 'RFQ 47 created',
    ...req,
    rfq_id: 47,
    outcome: 'created',
    token: 'must-not-be-kept',
    headers: { Authorization: 'Bearer x' },
    reason: 'the service answered 500 to Bearer abcdef123456',
  });
  c.tick();
  await log.write({
    event: 'requisition-accepted',
    summary: 'other',
    profile: 'generic',
    key: 'PR-2',
    external_ids: ['PR-2-1'],
    file_sha256: 'ab'.repeat(32),
  });
  return { root, log, c };
}

describe('the audit writer', () => {
  it('appends one line per event to the day file of its host, never a secret-like field', async () => {
    const { root } = await loggedRun();
    expect(logFiles(join(root, 'audit'))).toEqual(['2026-11-20.erp-gw_01.jsonl']);
    const lines = readFileSync(join(root, 'audit', '2026-11-20.erp-gw_01.jsonl'), 'utf8')
      .trimEnd()
      .split('\n');
    expect(lines).toHaveLength(4);
    const create = JSON.parse(lines[2]!) as Record<string, unknown>;
    expect(create).toMatchObject({
      at: '2026-11-20T09:00:02.000Z',
      host: 'erp-gw_01',
      event: 'create-sent',
      rfq_id: 47,
    });
    expect(create.token).toBeUndefined();
    expect(create.headers).toEqual({});
    expect(create.reason).toBe('the service answered 500 to Bearer [REDACTED]');
    expect(create.account).toBe('acme');
  });

  it('removes files older than AUDIT_RETENTION_DAYS on the first write of a day', async () => {
    root = tempDir('rfq-audit-');
    const c = clock();
    const log = createAuditLog({ root, retentionDays: 2, host: 'h', now: c.now });
    await log.write({ event: 'retention', summary: 'a' });
    c.set(T0 + DAY);
    await log.write({ event: 'retention', summary: 'b' });
    expect(logFiles(join(root, 'audit'))).toEqual(['2026-11-20.h.jsonl', '2026-11-21.h.jsonl']);
    c.set(T0 + 3 * DAY);
    await log.write({ event: 'retention', summary: 'c' });
    expect(logFiles(join(root, 'audit'))).toEqual(['2026-11-21.h.jsonl', '2026-11-23.h.jsonl']);
  });
});

describe('trace from the log', () => {
  it('finds a requisition by external_id, key, RFQ id, file name or sha256 prefix, without the other requisitions', async () => {
    const { root } = await loggedRun();
    for (const what of ['PR-1-2', 'generic/PR-1', '47']) {
      const t = await buildTimeline(root, what, { redis: 'down', reason: 'test' });
      expect(t.requisitions, what).toEqual(['generic/PR-1']);
      expect(
        t.steps.map((s) => s.event),
        what,
      ).toEqual(['file-taken', 'requisition-accepted', 'create-sent']);
    }
    for (const what of ['export.csv', 'abababab'])
      expect((await buildTimeline(root, what, { redis: 'up' })).requisitions, what).toEqual([
        'generic/PR-1',
        'generic/PR-2',
      ]);
    expect((await buildTimeline(root, 'nothing-like-it', { redis: 'up' })).steps).toEqual([]);
  });

  it('says what is pending: the close with its due date, a parked requisition; Redis state wins over the log', async () => {
    const { root } = await loggedRun();
    const fromLog = await buildTimeline(root, 'PR-1-1', { redis: 'down', reason: 'connection refused' });
    expect(fromLog.pending).toEqual(['RFQ 47: waiting for the service to close the RFQ (due 2026-12-07 16:00 UTC)']);
    const closed = await buildTimeline(root, 'PR-1-1', { redis: 'up' }, async () => ({
      requisitions: { 'generic/PR-1': { state: 'created', rfqId: 47 } },
      rfqs: { '47': { state: 'closed' } },
    }));
    expect(closed.pending).toEqual([
      'RFQ 47: closed; waiting for its quotations to be pulled and the comparison written',
    ]);
    const parked = await buildTimeline(root, 'PR-2', { redis: 'up' }, async () => ({
      requisitions: { 'generic/PR-2': { state: 'undecided', reason: 'two RFQs match' } },
      rfqs: {},
    }));
    expect(parked.pending).toEqual(['generic/PR-2: parked: needs `rfq-sync resolve` (two RFQs match)']);
  });

  it('merges the files of several hosts on one data folder, oldest first', async () => {
    const { root, c } = await loggedRun();
    const other = createAuditLog({ root, retentionDays: 400, host: 'worker-2', now: c.now });
    c.set(T0 + 1_500); // between the accepted line and the create of the first host
    await other.write({
      event: 'transition',
      summary: 'RFQ 47: created -> open',
      rfq_id: 47,
      from: 'created',
      to: 'open',
    });
    expect(logFiles(join(root, 'audit'))).toEqual(['2026-11-20.erp-gw_01.jsonl', '2026-11-20.worker-2.jsonl']);
    const t = await buildTimeline(root, 'PR-1-1', { redis: 'up' });
    expect(t.steps.map((s) => `${s.event}@${s.host}`)).toEqual([
      'file-taken@erp-gw_01',
      'requisition-accepted@erp-gw_01',
      'transition@worker-2',
      'create-sent@erp-gw_01',
    ]);
  });

  it('skips a line that is not whole and says so', async () => {
    const { root, log } = await loggedRun();
    const file = join(root, 'audit', '2026-11-20.erp-gw_01.jsonl');
    appendFileSync(file, '{"event":"create-sent","summ');
    writeFileSync(file, `${readFileSync(file, 'utf8')}\n`);
    await log.write({
      event: 'transition',
      summary: 'RFQ 47: created -> open',
      rfq_id: 47,
      from: 'created',
      to: 'open',
    });
    const t = await buildTimeline(root, 'PR-1-1', { redis: 'up' });
    expect(t.log.unreadableAt).toEqual([`${file}:5`]);
    expect(t.log.unreadable).toBe(1);
    expect(t.steps.map((s) => s.event)).toEqual(['file-taken', 'requisition-accepted', 'create-sent', 'transition']);
  });
});
