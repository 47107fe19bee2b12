/**
 * The audit log under torn writes and on its own terms (no Redis): a file that ends mid-line (a crash, a disk that
 * filled) never costs the next line; the reader resynchronises at the next newline, counts the torn line as one
 * and, from the writers' line numbers, says how many lines are missing; a line of the wrong shape is skipped and
 * counted; files are 0640 whatever the umask; each pruning is said in the log; the index is made again when
 * missing, broken or behind, and always answers as the files say.
 * The full disk is a real tmpfs filled to its last page (skipped where one cannot be mounted: not root).
 */
import { spawnSync } from 'node:child_process';
import {
  appendFileSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/core/logger.ts';
import { DiskFullError } from '../../src/core/errors.ts';
import { createAuditLog } from '../../src/audit/writer.ts';
import { buildTimeline } from '../../src/audit/trace-log.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const T0 = Date.UTC(2026, 10, 20, 9, 0, 0);
const DAY = '2026-11-20';
const req = { profile: 'generic', key: 'PR-1', external_ids: ['PR-1-1'], file: 'export.csv' };

function clock() {
  let t = T0;
  return () => (t += 1_000);
}

/** A log with three steps of PR-1 by a first process; its file's path. */
async function firstRun(root: string, index = true) {
  const now = clock();
  const log = createAuditLog({ root, retentionDays: 0, host: 'h', account: 'acme', now, index });
  await log.write({ event: 'file-taken', summary: 'taken', file: 'export.csv', file_sha256: 'ab'.repeat(32) });
  await log.write({ event: 'requisition-accepted', summary: 'accepted', ...req, file_sha256: 'ab'.repeat(32) });
  await log.write({ event: 'create-sent', summary: 'RFQ 47 created', ...req, rfq_id: 47, outcome: 'created' });
  log.close();
  return { file: join(root, 'audit', `${DAY}.h.jsonl`), now };
}

/** Every line of the file that parses, and the count of those that do not. */
function parsed(file: string): { lines: Array<Record<string, unknown>>; bad: number } {
  const out = { lines: [] as Array<Record<string, unknown>>, bad: 0 };
  for (const text of readFileSync(file, 'utf8').split('\n')) {
    if (!text) continue;
    try {
      out.lines.push(JSON.parse(text) as Record<string, unknown>);
    } catch {
      out.bad++;
    }
  }
  return out;
}

const transition = {
  event: 'transition' as const,
  summary: 'RFQ 47: created -> open',
  rfq_id: 47,
  ...req,
  from: 'created',
  to: 'open',
};

describe('a torn last line', () => {
  it('followed by the next write: every other line readable, the torn one counted once, nothing missing', async () => {
    const root = tempDir('rfq-torn-');
    const { file, now } = await firstRun(root);
    appendFileSync(file, '{"at":"2026-11-20T09:00:04.000Z","event":"transition","summ'); // killed mid-line
    const next = createAuditLog({ root, retentionDays: 0, host: 'h', account: 'acme', now });
    await next.write(transition);
    next.close();
    expect(parsed(file)).toMatchObject({ bad: 1 });
    expect(parsed(file).lines.map((l) => l.event)).toEqual([
      'file-taken',
      'requisition-accepted',
      'create-sent',
      'transition',
    ]);
    const t = await buildTimeline(root, 'PR-1-1', { redis: 'down', reason: 'test' });
    expect(t.steps.map((s) => s.event)).toEqual(['file-taken', 'requisition-accepted', 'create-sent', 'transition']);
    expect(t.files).toEqual(['export.csv']);
    expect(t.pending).toEqual(['RFQ 47: waiting for the service to close the RFQ']);
    expect(t.log).toMatchObject({ unreadable: 1, unreadableAt: [`${file}:4`], missing: 0 });
  });

  it('a line lost between two is counted as missing, and a line of the wrong shape is skipped and counted', async () => {
    const root = tempDir('rfq-torn-');
    const { file } = await firstRun(root);
    const lines = readFileSync(file, 'utf8').split('\n');
    writeFileSync(file, [lines[0], lines[2], ''].join('\n')); // the accepted line gone
    appendFileSync(file, '{"at":5,"event":"transition","summary":"x","host":"h","rfq_id":47}\n');
    const t = await buildTimeline(root, '47', { redis: 'down', reason: 'test' });
    expect(t.steps.map((s) => s.event)).toEqual(['create-sent']);
    expect(t.log).toMatchObject({ unreadable: 1, missing: 1 });
  });

  it('a file that still ends mid-line is counted as one unreadable line', async () => {
    const root = tempDir('rfq-torn-');
    const { file } = await firstRun(root);
    appendFileSync(file, '{"at":"2026-11-20T09:00:04.000Z","ev');
    const t = await buildTimeline(root, 'PR-1', { redis: 'down', reason: 'test' });
    expect(t.steps).toHaveLength(3);
    expect(t.log.unreadable).toBe(1);
  });
});

const mnt = tempDir('rfq-audit-full-');
const canMount =
  process.getuid?.() === 0 && spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=512k', 'tmpfs', mnt]).status === 0;
const unmount = () => canMount && spawnSync('umount', ['-l', mnt]);

describe.skipIf(!canMount)('a full disk mid-line', () => {
  it('then space again: the line written after it is whole, the torn one counted once, nothing missing', async () => {
    try {
      const root = mnt;
      mkdirSync(join(root, 'audit'), { recursive: true });
      const { file, now } = await firstRun(root, false);
      const log = createAuditLog({ root, retentionDays: 0, host: 'h', account: 'acme', now, index: false });
      if (statSync(file).size % 4096 === 0) await log.write(transition); // leave room in the file's last page
      spawnSync('dd', ['if=/dev/zero', `of=${join(root, 'filler')}`, 'bs=4k'], { stdio: 'ignore' });
      const before = statSync(file).size;
      // a line longer than what is left of the file's last page: written in part, then ENOSPC
      await expect(log.write({ ...transition, summary: 'x'.repeat(8_000) })).rejects.toBeInstanceOf(DiskFullError);
      expect(statSync(file).size).toBeGreaterThan(before);
      expect(readFileSync(file, 'utf8').endsWith('\n')).toBe(false);
      rmSync(join(root, 'filler')); // space again
      await log.write({ ...transition, summary: 'RFQ 47: open -> closed', to: 'closed' });
      log.close();
      expect(parsed(file).bad).toBe(1);
      expect(parsed(file).lines.at(-1)).toMatchObject({ summary: 'RFQ 47: open -> closed' });
      const t = await buildTimeline(root, 'PR-1-1', { redis: 'down', reason: 'test' });
      expect(t.steps.at(-1)).toMatchObject({ event: 'transition', summary: 'RFQ 47: open -> closed' });
      expect(t.log).toMatchObject({ unreadable: 1, missing: 0 }); // the retry carried the torn line's number
    } finally {
      unmount();
    }
  });
});

describe('the files and the index', () => {
  it('are 0640 whatever the umask', async () => {
    for (const umask of [0, 0o077]) {
      const root = tempDir('rfq-mode-');
      const was = process.umask(umask);
      try {
        const { file } = await firstRun(root);
        expect(statSync(file).mode & 0o777).toBe(0o640);
        expect(statSync(join(root, 'audit', 'index.h.sqlite')).mode & 0o777).toBe(0o640);
      } finally {
        process.umask(was);
      }
    }
  });

  it('each pruning is a line of the log, naming the files removed', async () => {
    const root = tempDir('rfq-prune-');
    const logs: string[] = [];
    const logger = createLogger({
      level: 'info',
      pretty: false,
      destination: new Writable({ write: (c, _e, cb) => (logs.push(String(c)), cb()) }),
    });
    let t = T0;
    const log = createAuditLog({ root, retentionDays: 2, host: 'h', now: () => t, logger, index: false });
    await log.write({ event: 'retention', summary: 'a' });
    t += 3 * 86_400_000;
    await log.write({ event: 'retention', summary: 'b' });
    const said = logs.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.event === 'audit.pruned');
    expect(said).toMatchObject({ files: [`${DAY}.h.jsonl`], retentionDays: 2 });
    expect(String(said?.msg)).toContain(`removed 1 file(s) older than AUDIT_RETENTION_DAYS (2)`);
  });

  it('is made again when missing or broken, caught up when behind, and drops a file removed', async () => {
    const root = tempDir('rfq-index-');
    const { file, now } = await firstRun(root, false); // the writer left the index to the readers
    const index = () => readdirSync(join(root, 'audit')).filter((n) => n.startsWith('index.') && n.endsWith('.sqlite'));
    expect(index()).toEqual([]);
    const ask = () => buildTimeline(root, 'PR-1-1', { redis: 'down', reason: 'test' });
    expect((await ask()).steps).toHaveLength(3);
    expect(index()).toHaveLength(1);
    const idx = join(root, 'audit', index()[0]!);
    writeFileSync(idx, 'not a database at all, but long enough to be read as one'.repeat(100));
    for (const f of [`${idx}-wal`, `${idx}-shm`]) rmSync(f, { force: true });
    expect((await ask()).steps).toHaveLength(3);
    const later = createAuditLog({ root, retentionDays: 0, host: 'h2', account: 'acme', now, index: false });
    await later.write(transition);
    expect((await ask()).steps).toHaveLength(4); // another host's file, not in the index yet
    truncateSync(file, 0); // replaced (cut): read again from its start
    expect((await ask()).steps.map((s) => s.event)).toEqual(['transition']);
    rmSync(join(root, 'audit', `${DAY}.h2.jsonl`));
    expect((await ask()).answer).toBe('nothing');
  });
});
