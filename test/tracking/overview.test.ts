/**
 * The daily overview (issue 14 item 8): `outbox/overview.xlsx`, one row per tracked RFQ, rewritten atomically after
 * every poll and after the comparisons a poll caused (OVERVIEW_REFRESH_MS window). Real Redis, the sandbox over HTTP, the project's poll, quotations and comparison jobs; the file is
 * opened with exceljs as procurement's Excel would.
 */
import { readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterEach, describe, expect, it } from 'vitest';
import { excelDateInZone } from '../../src/comparison/sheets/dates.ts';
import { trackingFacts } from '../../app/commands/status-command.ts';
import { OVERVIEW_COLS as C, OVERVIEW_ROWS as R, OVERVIEW_SHEET } from '../../src/comparison/overview.ts';
import { writeAccountOverview } from '../../src/awarding/overview.ts';
import { enqueueOverview } from '../../src/queues/poll.ts';
import { lastPoll } from '../../src/tracking/poll/poll-history.ts';
import { trackRfq } from '../../src/tracking/rfq-tracker.ts';
import { trackedRfq } from '../../src/tracking/status.ts';
import { pollingHarness, type PollingHarness } from '../helpers/polling.ts';
import { usePipeline } from '../helpers/pipeline.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { trackingStore } from '../../src/rfqs/store.ts';

const pipeline = usePipeline({ sandbox: { pageSize: 5 } });
let h: PollingHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const TZ = 'Europe/Berlin';

/** An RFQ with its own due date (qty 2, 4, ...; estimated totals 100, 200, ...), tracked like create-rfq does. */
async function tracked(harness: PollingHarness, key: string, due: number, lines = 2): Promise<number> {
  const { _id } = await harness.ctx.client.createRfq({
    title: `Title ${key}`,
    due_date: String(due),
    rfq_type: 'Public',
    lines: Array.from({ length: lines }, (_, i) => ({
      product_name: `Item ${i + 1}`,
      qty: (i + 1) * 2,
      estimated_price: (i + 1) * 100,
      external_id: `${key}-${i + 1}`,
    })),
  });
  await trackRfq(harness.ctx, {
    rfqId: _id,
    requisition: { key, sourceFile: `${key}.csv`, profile: 'generic', title: `Title ${key}` },
  });
  return _id;
}

async function openOverview(harness: PollingHarness): Promise<ExcelJS.Worksheet> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(join(harness.ctx.config.folders.outbox, 'overview.xlsx'));
  return wb.getWorksheet(OVERVIEW_SHEET)!;
}

/** Data rows as objects keyed by OVERVIEW_COLS names. */
function rows(ws: ExcelJS.Worksheet): Array<Record<keyof typeof C, ExcelJS.CellValue>> {
  const out: Array<Record<keyof typeof C, ExcelJS.CellValue>> = [];
  for (let r = R.first; r <= ws.rowCount; r++) {
    const row = ws.getRow(r);
    out.push(
      Object.fromEntries(Object.entries(C).map(([k, c]) => [k, row.getCell(c).value])) as Record<
        keyof typeof C,
        ExcelJS.CellValue
      >,
    );
  }
  return out;
}

/** The Award sheet's "Total awarded" of a comparison workbook. */
async function awardedTotal(path: string): Promise<number> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(path);
  let total: number | undefined;
  wb.getWorksheet('Award')!.eachRow((row) => {
    if (String(row.getCell(6).value ?? '').startsWith('Total awarded')) total = row.getCell(9).value as number;
  });
  return total!;
}

describe('overview.xlsx', () => {
  it('one row per tracked RFQ, by due date, filters on, with the figures of the latest comparison; rewritten after the next poll', async () => {
    h = await pollingHarness({
      redisUrl: pipeline.redisUrl,
      sandbox: pipeline.sandbox,
      env: { REQUISITION_CURRENCY: 'EUR', TIME_ZONE: TZ, QUOTATION_PRICE_BASIS: 'line_total' },
    });
    const ctl = pipeline.sandbox.control;
    const dueOpen = Date.UTC(2031, 2, 1, 11, 0);
    const dueDraft = Date.UTC(2031, 0, 10, 9, 30);
    const dueFinal = Date.UTC(2031, 1, 1, 16, 0);
    const dueHostile = Date.UTC(2031, 3, 1, 8, 0);
    const open = await tracked(h, 'PR-OPEN', dueOpen);
    const draft = await tracked(h, 'PR-DRAFT', dueDraft);
    const final = await tracked(h, 'PR-FINAL', dueFinal);
    const hostile = await tracked(h, '=HYPERLINK("http://x","y")', dueHostile, 1);

    const [d1, d2] = ctl.getRfq(draft)!.lines.map((l) => l.line_id);
    ctl.submitQuotation(draft, { sup_name: 'Alpha', prices: { [d1!]: '95', [d2!]: '210' } });
    ctl.submitQuotation(draft, { sup_name: 'Beta', prices: { [d1!]: '99', [d2!]: '190' } });
    const [f1, f2] = ctl.getRfq(final)!.lines.map((l) => l.line_id);
    ctl.submitQuotation(final, { sup_name: 'Cheaper', prices: { [f1!]: '80', [f2!]: '170' } });
    const win = ctl.submitQuotation(final, { sup_name: 'Winner AG', prices: { [f1!]: '90', [f2!]: '190' } });
    await h.pollAndSettle();

    // First poll: every RFQ open, due dates known, no comparison yet.
    let ws = await openOverview(h);
    expect(rows(ws).map((r) => [r.requisition, r.state, r.final, r.comparison])).toEqual([
      ['PR-DRAFT', 'open', 'no', null],
      ['PR-FINAL', 'open', 'no', null],
      ['PR-OPEN', 'open', 'no', null],
      ['\'=HYPERLINK("http://x","y")', 'open', 'no', null],
    ]);

    ctl.advance(draft, 'closed');
    ctl.pickWinner(final, String(win.quotation_key));
    ctl.advance(final, 'completed');
    // One poll: the transitions, then the comparison jobs it caused, then the overview rewrite they asked for.
    await h.pollAndSettle();

    ws = await openOverview(h);
    const got = rows(ws);
    // Sorted by due date (the hostile key last: latest due date); the formula-like key stays text.
    expect(got.map((r) => r.rfqId)).toEqual([draft, final, open, hostile]);
    expect(got.map((r) => [r.requisition, r.sourceFile, r.title, r.state])).toEqual([
      ['PR-DRAFT', 'PR-DRAFT.csv', 'Title PR-DRAFT', 'closed'],
      ['PR-FINAL', 'PR-FINAL.csv', 'Title PR-FINAL', 'completed'],
      ['PR-OPEN', 'PR-OPEN.csv', 'Title PR-OPEN', 'open'],
      ['\'=HYPERLINK("http://x","y")', '\'=HYPERLINK("http://x","y").csv', 'Title =HYPERLINK("http://x","y")', 'open'],
    ]);
    expect(typeof ws.getCell(R.first + 3, C.requisition).value).toBe('string');
    // Due dates as wall-clock times of TIME_ZONE (Berlin is UTC+1 in winter).
    expect(got.map((r) => (r.dueDate as Date).toISOString())).toEqual(
      [dueDraft, dueFinal, dueOpen, dueHostile].map((ms) => excelDateInZone(ms, TZ).toISOString()),
    );
    expect((got[0]!.dueDate as Date).toISOString()).toBe('2031-01-10T10:30:00.000Z');
    expect(ws.getCell(R.legend, 1).text).toContain(TZ);

    // Filters on the header row over every data row.
    expect(ws.autoFilter).toBe(`A${R.header}:O${R.first + 3}`);

    // Closed with undecided quotations: a draft. Line totals (price basis line_total): Alpha 95 + Beta 190 split.
    const recDraft = await trackedRfq(h.ctx, draft);
    const recFinal = await trackedRfq(h.ctx, final);
    const [rd, rf, ro] = got;
    expect([rd!.quotations, rd!.bestTotal, rd!.currency, rd!.savings, rd!.recommended, rd!.final]).toEqual([
      2,
      285,
      'EUR',
      15,
      'split: Alpha, Beta',
      'no',
    ]);
    expect(rd!.comparison).toBe(`comparisons/${recDraft!.comparison!.workbook}`);
    // Completed with its winner: final; the winner's total, not the cheaper quotation's.
    expect([rf!.quotations, rf!.bestTotal, rf!.currency, rf!.savings, rf!.recommended, rf!.final]).toEqual([
      2,
      280,
      'EUR',
      20,
      'Winner AG',
      'yes',
    ]);
    expect(rf!.savingsPct).toBeCloseTo(20 / 300, 6);
    expect(rf!.comparison).toBe(`comparisons/${recFinal!.comparison!.workbook}`);
    // The same totals as the comparison workbooks the paths lead to.
    const outbox = h.ctx.config.folders.outbox;
    expect(await awardedTotal(join(outbox, rd!.comparison as string))).toBe(285);
    expect(await awardedTotal(join(outbox, rf!.comparison as string))).toBe(280);
    // Money carries the currency in its number format.
    expect(ws.getCell(R.first, C.bestTotal).numFmt).toContain('"EUR"');
    // Open, no comparison: the requisition's currency, nothing else.
    expect([ro!.quotations, ro!.bestTotal, ro!.currency, ro!.recommended, ro!.final, ro!.comparison]).toEqual([
      null,
      null,
      'EUR',
      null,
      'no',
      null,
    ]);

    // The next poll rewrites it: the state change shows.
    ctl.advance(open, 'cancelled');
    await h.pollAndSettle();
    ws = await openOverview(h);
    expect(rows(ws).find((r) => r.rfqId === open)?.state).toBe('cancelled');
    // Written through a temporary name: nothing is left beside it.
    expect(readdirSync(outbox).filter((f) => f.includes('overview'))).toEqual(['overview.xlsx']);
  });

  it('a reader never sees a half-written overview, whoever rewrites it', async () => {
    h = await pollingHarness({ redisUrl: pipeline.redisUrl, sandbox: pipeline.sandbox, workers: false });
    // Records alone (the overview reads nothing else): 300 RFQs without a round trip to the service each.
    for (let i = 0; i < 300; i++) {
      await trackRfq(h.ctx, {
        rfqId: 70_000 + i,
        requisition: { key: `PR-${i}`, sourceFile: 'many.csv', profile: 'generic', title: `RFQ ${i}` },
      });
      await trackingStore(h.ctx).update(
        70_000 + i,
        (cur) => cur && { ...cur, state: 'open', dueDate: Date.UTC(2031, 0, 1) + i * 3_600_000 },
      );
    }
    await writeAccountOverview(h.ctx);
    const ctx = h.ctx;
    let writing = true;
    const writers = (async () => {
      // Rewrites one after another, then two at once (two workers, or a poll and `rfq-sync poll`): the last rename wins.
      for (let i = 0; i < 6; i++) await writeAccountOverview(ctx);
      await Promise.all([writeAccountOverview(ctx), writeAccountOverview(ctx)]);
    })().finally(() => (writing = false));
    let reads = 0;
    const problems: string[] = [];
    while (writing) {
      reads++;
      try {
        // A read of a half file may fail or never end: either is a problem.
        const ws = await Promise.race([
          openOverview(h),
          new Promise<never>((_, reject) =>
            setTimeout(() => reject(new Error('read did not finish in 5 s')), 5000).unref(),
          ),
        ]);
        if (ws.rowCount !== R.first + 299) problems.push(`read ${reads}: ${ws.rowCount} rows`);
      } catch (err) {
        problems.push(`read ${reads}: ${(err as Error).message}`);
      }
    }
    await writers;
    expect(problems).toEqual([]);
    expect(reads).toBeGreaterThan(2);
  });

  it('an overview that cannot be written leaves the poll done (logged, in the poll result); the next poll writes it', async () => {
    const base = tempDir('rfq-overview-');
    const outbox = join(base, 'outbox');
    writeFileSync(outbox, 'a file where the outbox folder should be');
    try {
      h = await pollingHarness({ redisUrl: pipeline.redisUrl, sandbox: pipeline.sandbox, env: { OUTBOX_DIR: outbox } });
      const id = await tracked(h, 'PR-BLOCKED', Date.UTC(2031, 0, 1));
      await h.pollAndSettle();
      let last = await lastPoll(h.ctx);
      expect(last?.ok).toBe(true);
      expect(last?.overview).toMatchObject({ error: expect.stringMatching(/outbox/) });
      // `rfq-sync status` says so on the last poll's line.
      expect((await trackingFacts(h.ctx)).lastPoll?.detail).toMatch(/overview\.xlsx NOT written: .*outbox/);
      expect((await trackedRfq(h.ctx, id))?.state).toBe('open');

      rmSync(outbox);
      await h.pollAndSettle();
      last = await lastPoll(h.ctx);
      expect(last?.overview).toMatchObject({ rows: 1 });
      expect(rows(await openOverview(h)).map((r) => r.rfqId)).toEqual([id]);
    } finally {
    }
  });

  it('comparisons ask for one rewrite per OVERVIEW_REFRESH_MS window, run at its end; 0 asks for none', async () => {
    h = await pollingHarness({
      redisUrl: pipeline.redisUrl,
      sandbox: pipeline.sandbox,
      workers: false,
      env: { OVERVIEW_REFRESH_MS: '60000' },
    });
    const start = Math.ceil(Date.now() / 60_000) * 60_000;
    const ids = new Set<string | undefined>();
    for (let i = 0; i < 50; i++) ids.add(await enqueueOverview(h.ctx, start + i * 1000));
    ids.add(await enqueueOverview(h.ctx, start + 60_000));
    expect(ids.size).toBe(2);
    const jobs = await h.ctx.queues.poll.getJobs(['delayed']);
    // Each runs when its window ends (its delay counts from the first request of the window).
    expect(jobs.map((j) => [j.name, j.data.requestedAt, j.data.requestedAt + j.opts.delay!]).sort()).toEqual([
      ['overview', start, start + 60_000],
      ['overview', start + 60_000, start + 120_000],
    ]);
    expect(await enqueueOverview({ queues: h.ctx.queues, config: { OVERVIEW_REFRESH_MS: 0 } })).toBeUndefined();
  });
});
