/**
 * CATEGORY_CHECK end to end: a file with one requisition in a category the account's vendors follow and one in a
 * category nobody follows, ingested by a worker against the sandbox's vendor directory. `hold` keeps the second back
 * (its reason in the file report and `status`), `warn` sends it and says so (report, log, `status`); a service
 * without a directory blocks nothing. Before the first read, `hold` reads the directory first (a bounded wait) and,
 * when it cannot be read, holds the file in the inbox until it is (never sending unchecked); `warn` never waits. The
 * directory is read by a poll, in the sandbox's docs dialect too ("0"-keyed categories at /v1/vendor/).
 */
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterEach, describe, expect, it } from 'vitest';
import { startWorker, type RunningWorker } from '../../jobs/worker.ts';
import { collectStatus, formatStatus } from '../../app/commands/status.ts';
import { trackingFacts } from '../../app/commands/status-command.ts';
import { ingestOneFile } from '../../src/intake/inbox-intake.ts';
import type { WorkerContext } from '../../jobs/worker.ts';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.ts';
import { runPoll } from '../../src/tracking/poll/poll-runner.ts';
import { GENERIC_HEADER } from '../helpers/generic-template.ts';
import { reportNotes } from '../helpers/files.ts';
import { usePipeline } from '../helpers/pipeline.ts';
import { waitFor } from '../helpers/wait.ts';
import { waitForQueue } from '../helpers/job-counts.ts';
import { captureLogs } from '../sourcing/fake-service.ts';
import { startInboxWatcher, type InboxWatcher } from '../../src/intake/inbox-watcher.ts';
import { vendorStore } from '../../src/vendors/vendor-store.ts';

const pipeline = usePipeline({ sandbox: false });
let worker: RunningWorker | undefined;
let sandbox: Sandbox | undefined;
let watcher: InboxWatcher | undefined;
afterEach(async () => {
  await watcher?.close();
  watcher = undefined;
  await worker?.close(5_000);
  await sandbox?.stop();
  worker = sandbox = undefined;
});

const FILE = `${GENERIC_HEADER}
CAT-1,1,Copy paper,A4,ream,10,50,Paper,Test,2031-01-15,2031-02-15,Public,Office supplies,Plant 1
CAT-2,1,Widget,,pc,4,400,Widgets,Test,2031-01-15,2031-02-15,Public,Widgets nobody makes,Plant 1
`;

async function run(
  mode: 'hold' | 'warn',
  sandboxOptions: Parameters<typeof startSandbox>[0],
  o: { poll?: boolean; file?: string } = {},
): Promise<{ ctx: WorkerContext; report: string; logs: ReturnType<typeof captureLogs>; created: string[] }> {
  sandbox ??= await startSandbox({ seed: 5, ...sandboxOptions });
  const logs = captureLogs();
  const ctx = await pipeline.context(
    {
      redisUrl: pipeline.redisUrl,
      baseUrl: sandbox.url,
      token: 'sandbox-token',
      prefix: pipeline.prefix,
      dir: pipeline.data.root,
      extra: { CATEGORY_CHECK: mode, LOG_LEVEL: 'info' },
    },
    logs.logger,
  );
  // the poll reads the account's vendor directory (at most hourly)
  if (o.poll !== false) await runPoll(ctx, { slot: `now~${Date.now()}`, scheduledAt: Date.now() });
  worker = startWorker(ctx, { queues: ['ingest', 'createRfq'] });
  const name = o.file ?? `categories-${mode}`;
  const path = join(pipeline.data.jail, `${name}.csv`);
  writeFileSync(path, FILE);
  await ingestOneFile(ctx, path);
  const expected = mode === 'hold' && sandboxOptions?.vendors !== false ? 1 : 2;
  await waitFor(`${expected} RFQ(s)`, async () => sandbox!.control.listAll().length === expected, 20_000, 50);
  const report = () => readdirSync(pipeline.data.reports).find((f) => f.startsWith(name));
  await waitFor('the report', async () => report() !== undefined, 20_000, 50);
  // and the job done: the report comes before the move and the ledger's entry that status reads (read in between
  // under load: status.files empty)
  await waitForQueue([ctx.queues.ingest]);
  const created = sandbox.control.listAll().map((r) => r.title);
  return { ctx, report: join(pipeline.data.reports, report()!), logs, created };
}

/** Rows sheet of a report: [row, requisition, status, severity, column, value, reason]. */
async function reportRows(path: string): Promise<string[][]> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(path);
  const out: string[][] = [];
  wb.getWorksheet('Rows')!.eachRow((row, n) => {
    if (n > 1) out.push(Array.from({ length: 7 }, (_, i) => row.getCell(i + 1).text));
  });
  return out;
}

describe('CATEGORY_CHECK', () => {
  it('hold (directory in the docs shape): the requisition no vendor follows is held, its reason in the report and status', async () => {
    const { ctx, report, created } = await run('hold', { dialect: 'docs' });
    expect(created).toEqual(['Paper']);
    const rows = await reportRows(report);
    const held = rows.find((r) => r[1] === 'CAT-2')!;
    expect(held[2]).toBe('rejected');
    expect(held.slice(3, 6)).toEqual(['error', 'Category', 'Widgets nobody makes']);
    expect(held[6]).toMatch(
      /^no vendor of the account follows rfq_category "Widgets nobody makes" \(vendor directory of/,
    );
    expect(held[6]).toContain('Held (CATEGORY_CHECK=hold)');
    expect(rows.find((r) => r[1] === 'CAT-1')![2]).toBe('ok');
    expect(await reportNotes(report)).toContain(
      '1 requisition(s) held back: no vendor follows their category (CATEGORY_CHECK=hold).',
    );
    const status = await collectStatus(ctx, () => trackingFacts(ctx));
    expect(status.files).toEqual([
      expect.objectContaining({
        outcome: 'rows rejected',
        reason: expect.stringContaining('no vendor of the account follows rfq_category'),
      }),
    ]);
    expect(status.vendorDirectory).toMatchObject({ outcome: 'ok', path: '/v1/vendor/', vendors: 20 });
  });

  it('warn: both are sent; the warning is in the report, the log and status', async () => {
    const { ctx, report, logs, created } = await run('warn', {});
    expect(created.sort()).toEqual(['Paper', 'Widgets']);
    const rows = await reportRows(report);
    const warned = rows.find((r) => r[1] === 'CAT-2')!;
    expect(warned.slice(2, 5)).toEqual(['ok, with warning', 'warning', 'Category']);
    expect(warned[6]).toContain('Sent anyway (CATEGORY_CHECK=warn)');
    expect(
      (await reportNotes(report)).some((n) =>
        n.startsWith('1 requisition(s) were sent with a category no vendor follows'),
      ),
    ).toBe(true);
    expect(logs.lines().find((l) => l.event === 'ingest.category')).toMatchObject({ level: 40, warned: 1 });
    const status = await collectStatus(ctx, () => trackingFacts(ctx));
    expect(status.files).toEqual([
      expect.objectContaining({
        outcome: 'category not followed',
        reason: expect.stringContaining('requisition CAT-2'),
      }),
    ]);
  });

  it('hold on a fresh Redis: the first ingest reads the directory first and sends nothing no vendor follows', async () => {
    const { ctx, report, created } = await run('hold', {}, { poll: false, file: 'categories-first' });
    expect(created).toEqual(['Paper']);
    const rows = await reportRows(report);
    expect(rows.find((r) => r[1] === 'CAT-2')!.slice(2, 4)).toEqual(['rejected', 'error']);
    expect(await reportNotes(report)).toContain(
      '1 requisition(s) held back: no vendor follows their category (CATEGORY_CHECK=hold).',
    );
    expect(await vendorStore(ctx).stored()).toMatchObject({ outcome: 'ok', vendors: expect.any(Array) });
  });

  it('warn on a fresh Redis does not wait for the directory: nothing checked, the report says so', async () => {
    const { ctx, report, created } = await run('warn', {}, { poll: false, file: 'categories-first-warn' });
    expect(created.sort()).toEqual(['Paper', 'Widgets']);
    expect(await reportNotes(report)).toContain(
      'CATEGORY_CHECK=warn: categories were not checked: the vendor directory has not been read yet (it is being read now; the poll reads it too).',
    );
    // the read it started in the background lands for the next file
    await waitFor(
      'the vendor directory',
      async () => (await ctx.redis.get(ctx.keys.key('vendors'))) !== null,
      10_000,
      50,
    );
  });

  it('hold with the directory unreadable: the file is held (report, status), never sent, and taken once it is read', async () => {
    // every GET answered with a broken body: the directory cannot be read, while RFQs could be created
    sandbox = await startSandbox({ seed: 5, faults: { invalidJsonRate: 1 } });
    const ctx = await pipeline.context({
      redisUrl: pipeline.redisUrl,
      baseUrl: sandbox.url,
      token: 'sandbox-token',
      prefix: pipeline.prefix,
      dir: pipeline.data.root,
      extra: { CATEGORY_CHECK: 'hold', CATEGORY_CHECK_WAIT_MS: '1000', FILE_STABLE_MS: '100' },
    });
    worker = startWorker(ctx, { queues: ['ingest', 'createRfq'] });
    const path = join(pipeline.data.jail, 'categories-held.csv');
    writeFileSync(path, FILE);
    await ingestOneFile(ctx, path);
    const reports = () => readdirSync(pipeline.data.reports).filter((f) => f.startsWith('categories-held'));
    await waitFor('the held report', async () => reports().length === 1, 20_000, 50);
    await waitFor('back in the inbox', async () => readdirSync(pipeline.data.inbox).includes('categories-held.csv'));
    // the file is settled (held): none of its requisitions was queued, so none can reach the service
    expect(sandbox.control.listAll()).toEqual([]);
    const heldReport = reports()[0]!;
    const notes = await reportNotes(join(pipeline.data.reports, heldReport));
    expect(notes[0]).toMatch(
      /^Held in the inbox \(CATEGORY_CHECK=hold\): the vendor directory could not be read \(.*\), so the categories of its 2 requisition\(s\) could not be checked; none was sent\. The file is read again once the directory is read/,
    );
    const held = await collectStatus(ctx, () => trackingFacts(ctx));
    expect(held.categoryHeldFiles).toEqual([
      expect.objectContaining({ inboxName: 'categories-held.csv', file: 'categories-held.csv', requisitions: 2 }),
    ]);
    expect(formatStatus(held)).toMatch(
      /HELD IN THE INBOX until the vendor directory is read[^\n]*\n {2}\S+ {2}categories-held\.csv: 2 requisition\(s\); it could not be read: /,
    );
    // the inbox leaves it alone while the directory stays unreadable
    watcher = await startInboxWatcher(ctx, { watch: false, schedule: false });
    await watcher.sweep();
    expect(readdirSync(pipeline.data.inbox)).toEqual(['categories-held.csv']);

    // the service is back; the directory is read (the poll, or `rfq-sync doctor`), and the next sweep takes the file
    sandbox.control.setFaults({});
    await vendorStore(ctx).refresh(ctx.client);
    await watcher.sweep();
    await waitFor('Paper created', async () => sandbox!.control.listAll().length === 1, 20_000, 50);
    await waitFor('the second report', async () => reports().length === 2, 20_000, 50);
    expect(sandbox.control.listAll().map((r) => r.title)).toEqual(['Paper']);
    const second = reports().find((f) => f !== heldReport)!;
    const rows = await reportRows(join(pipeline.data.reports, second));
    expect(rows.find((r) => r[1] === 'CAT-2')!.slice(2, 4)).toEqual(['rejected', 'error']);
    const after = await collectStatus(ctx, () => trackingFacts(ctx));
    expect(after.categoryHeldFiles).toEqual([]);
  });

  it('a service without a directory blocks nothing, even with hold (the report says the check was not made)', async () => {
    const { ctx, report, created } = await run('hold', { vendors: false });
    expect(created.sort()).toEqual(['Paper', 'Widgets']);
    expect(await reportNotes(report)).toContain(
      'CATEGORY_CHECK=hold: categories were not checked: the sourcing service has no vendor directory.',
    );
    const status = await collectStatus(ctx, () => trackingFacts(ctx));
    expect(status.files).toEqual([]);
    expect(status.vendorDirectory).toMatchObject({ outcome: 'absent' });
  });
});
