/**
 * What the ERP gets back from a service in the dialect of the real service's documentation, which shows no
 * external_id on listed lines: every award line and every workbook row carries the ERP's external_id (the one posted
 * at the line's position), and a re-export's report names the changed line by it. When the listed lines no longer
 * match what was posted (the sandbox lists one RFQ's lines reordered, another's one short), no award file is written
 * for them: the workbook's Notes, `status` and the log say why; once the lines match again, the next version writes
 * the award file. The whole loop runs for real: ingest, create, poll, quotations, comparison (sandbox autopilot).
 */
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterEach, describe, expect, it } from 'vitest';
import { startWorker, type RunningWorker } from '../../jobs/worker.ts';
import { collectStatus } from '../../app/commands/status.ts';
import { trackingFacts } from '../../app/commands/status-command.ts';
import { OVERVIEW_COLS, OVERVIEW_ROWS } from '../../src/comparison/overview.ts';
import { ingestOneFile } from '../../src/intake/inbox-intake.ts';
import type { WorkerContext } from '../../jobs/worker.ts';
import type { StoredRfq } from '../../src/sandbox/store.ts';
import { enqueuePollNow } from '../../src/queues/poll.ts';
import { GENERIC_HEADER } from '../helpers/generic-template.ts';
import { jobCounts } from '../helpers/job-counts.ts';
import { ls, readAwardCsv } from '../helpers/files.ts';
import { usePipeline } from '../helpers/pipeline.ts';
import { waitFor } from '../helpers/wait.ts';
import { captureLogs } from '../sourcing/fake-service.ts';
import { trackingStore } from '../../src/rfqs/store.ts';
import { COMPARISON_COLS as C, COMPARISON_ROWS as R } from '../../src/comparison/sheets/comparison/index.ts';

const pipeline = usePipeline({
  sandbox: {
    dialect: 'docs',
    autopilot: { closeAfterMs: 300, completeAfterMs: 300, suppliersPerRfq: 3 },
  },
});
let worker: RunningWorker | undefined;
afterEach(async () => {
  await worker?.close(5_000);
  worker = undefined;
});

/** Requisitions of the generic template, each line with its own product (so a position is checkable). */
function exportCsv(prs: Array<[pr: string, lines: number]>, qtyOf = (pr: string, i: number) => i * 3): string {
  const rows = prs.flatMap(([pr, n]) =>
    Array.from(
      { length: n },
      (_, k) =>
        `${pr},${k + 1},Part ${pr}/${k + 1},Spec ${k + 1},pc,${qtyOf(pr, k + 1)},${(k + 1) * 150},Requisition ${pr},Test,2031-01-15,2031-02-15,Public,Office supplies,Plant 1`,
    ),
  );
  return `${GENERIC_HEADER}\n${rows.join('\n')}\n`;
}

async function start(logger = captureLogs()): Promise<{ ctx: WorkerContext; logs: ReturnType<typeof captureLogs> }> {
  const ctx = await pipeline.context(
    {
      redisUrl: pipeline.redisUrl,
      baseUrl: pipeline.sandboxUrl,
      token: pipeline.token,
      prefix: pipeline.prefix,
      dir: pipeline.data.root,
      extra: { OVERVIEW_REFRESH_MS: '100', LOG_LEVEL: 'info' },
    },
    logger.logger,
  );
  worker = startWorker(ctx);
  return { ctx, logs: logger };
}

async function ingest(ctx: WorkerContext, name: string, content: string): Promise<void> {
  const path = join(pipeline.data.jail, name);
  writeFileSync(path, content);
  await ingestOneFile(ctx, path);
}

/** Our RFQs at the sandbox (created by this test's requisitions), by requisition key. */
function rfqsOf(prs: string[]): Map<string, StoredRfq> {
  const out = new Map<string, StoredRfq>();
  for (const r of pipeline.sandbox.control.listAll())
    for (const pr of prs) if (r.lines[0]?.external_id?.startsWith(`${pr}-`)) out.set(pr, r);
  return out;
}

/** Polls until `done` (each poll and what it caused settled); on time-out says where each RFQ and queue stands. */
async function pollUntil(ctx: WorkerContext, what: string, done: () => Promise<boolean>): Promise<void> {
  const state = async () => {
    const store = trackingStore(ctx);
    const rfqs = pipeline.sandbox.control.listAll();
    const recs = await store.getMany(rfqs.map((r) => r._id));
    const { ingest, createRfq, poll, quotations, comparison } = ctx.queues;
    const named = { ingest, createRfq, poll, quotations, comparison };
    const counts = Object.fromEntries(
      await Promise.all(Object.entries(named).map(async ([n, q]) => [n, await jobCounts(q)] as const)),
    );
    return JSON.stringify({
      rfqs: rfqs.map((r, i) => ({
        id: r._id,
        state: r.state,
        tracked: recs[i]?.state,
        comparison: recs[i]?.comparison,
      })),
      queues: counts,
    });
  };
  await waitFor(
    what,
    async () => {
      await enqueuePollNow(ctx);
      await new Promise((r) => setTimeout(r, 250)); // sleep: paces the polls asked for inside a waitFor
      return done();
    },
    40_000,
    50,
    state,
  );
}

/** The External ID and Product columns of a workbook's Comparison sheet, one pair per line row. */
async function workbookLines(path: string): Promise<Array<{ ext: string; product: string }>> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(path);
  const ws = wb.getWorksheet('Comparison')!;
  const out: Array<{ ext: string; product: string }> = [];
  for (let r = R.firstLine; ; r++) {
    const product = ws.getCell(r, C.product).text;
    if (!product) break;
    out.push({ ext: ws.getCell(r, C.externalId).text, product });
  }
  return out;
}

async function notesOf(path: string): Promise<string[]> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(path);
  const out: string[] = [];
  wb.getWorksheet('Notes')!.eachRow((row, n) => {
    if (n > 2) out.push(`${row.getCell(1).text}: ${row.getCell(2).text}`);
  });
  return out;
}

describe('ERP ids in the dialect of the real service (no external_id on listed lines)', () => {
  it(
    'every award line and every workbook row carries the external_id the ERP file gave; a re-export names its changed line by it',
    { timeout: 90_000 },
    async () => {
      const { ctx } = await start();
      const prs: Array<[string, number]> = [
        ['ERP-A', 3],
        ['ERP-B', 2],
        ['ERP-C', 4],
      ];
      await ingest(ctx, 'erp-ids.csv', exportCsv(prs));
      const keys = prs.map(([pr]) => pr);
      const store = trackingStore(ctx);
      await pollUntil(ctx, 'every RFQ with its final award file', async () => {
        const rfqs = rfqsOf(keys);
        if (rfqs.size < keys.length) return false;
        const recs = await store.getMany([...rfqs.values()].map((r) => r._id));
        return recs.every((rec) => rec?.comparison?.awardCsv !== undefined);
      });
      // the service really did not echo them: what the poll stored has no external_id on any line
      for (const rfq of rfqsOf(keys).values()) {
        const listed = await store.getListed(rfq._id);
        expect(listed!.lines.every((l) => l.external_id === undefined)).toBe(true);
      }

      for (const [pr, n] of prs) {
        const rfq = rfqsOf(keys).get(pr)!;
        const rec = (await store.get(rfq._id))!;
        // the ERP's own ids, by product, as the file gave them
        const erpIdOf = new Map(Array.from({ length: n }, (_, k) => [`Part ${pr}/${k + 1}`, `${pr}-${k + 1}`]));
        const award = readAwardCsv(join(ctx.config.folders.awards, rec.comparison!.awardCsv!));
        expect(award.length).toBeGreaterThan(0);
        for (const row of award) {
          const line = rfq.lines.find((l) => l.line_id === row.line_id)!;
          expect(row.external_id, `${pr} line ${row.line_id}`).toBe(erpIdOf.get(line.product_name));
        }
        const lines = await workbookLines(join(ctx.config.folders.comparisons, rec.comparison!.workbook));
        expect(lines).toHaveLength(n);
        for (const l of lines) expect(l.ext, l.product).toBe(erpIdOf.get(l.product));
        const notes = await notesOf(join(ctx.config.folders.comparisons, rec.comparison!.workbook));
        expect(notes.some((t) => t.startsWith('ERP ids:') && t.includes('posted at its position'))).toBe(true);
      }

      // a re-export changing one line's quantity: the report names the line by its ERP id
      await ingest(
        ctx,
        'erp-ids-again.csv',
        exportCsv(prs, (pr, i) => (pr === 'ERP-B' && i === 2 ? 99 : i * 3)),
      );
      const report = () => readdirSync(pipeline.data.reports).find((f) => f.startsWith('erp-ids-again'));
      await waitFor('the re-export report', async () => report() !== undefined, 20_000, 100);
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.readFile(join(pipeline.data.reports, report()!));
      const changes = wb.getWorksheet('Changes')!;
      expect(changes.getRow(2).getCell(3).text).toBe('ERP-B-2');
      expect(changes.getRow(2).getCell(4).text).toBe('qty');
    },
  );

  it(
    'lines listed in another order or one short: no award file; the reason in the workbook, status and the log; the file follows once they match again',
    { timeout: 90_000 },
    async () => {
      const { ctx, logs } = await start();
      const prs: Array<[string, number]> = [
        ['ERP-R', 3],
        ['ERP-D', 3],
      ];
      await ingest(ctx, 'erp-guard.csv', exportCsv(prs));
      const keys = prs.map(([pr]) => pr);
      await waitFor('both RFQs created', async () => rfqsOf(keys).size === 2, 20_000, 50);
      const reordered = rfqsOf(keys).get('ERP-R')!._id;
      const dropped = rfqsOf(keys).get('ERP-D')!._id;
      pipeline.sandbox.control.setListedLines(reordered, 'reorder');
      pipeline.sandbox.control.setListedLines(dropped, 'drop');

      const store = trackingStore(ctx);
      const awarded = async (id: number) => (await store.get(id))?.comparison?.award === true;
      await pollUntil(
        ctx,
        'both RFQs completed and compared',
        async () => (await awarded(reordered)) && (await awarded(dropped)),
      );

      for (const [id, why] of [
        [reordered, /line 1 \(line_id \S+\) is "Part ERP-R\/3" at the service, "Part ERP-R\/1" was posted there/],
        [dropped, /lists 2 line\(s\), 3 were posted/],
      ] as const) {
        const rec = (await store.get(id))!;
        expect(rec.comparison!.awardCsv, `RFQ ${id}: no award file`).toBeUndefined();
        expect(ls(ctx.config.folders.awards).filter((f) => f.includes(`-${id}-`) || f.includes(`-${id}.`))).toEqual([]);
        const book = join(ctx.config.folders.comparisons, rec.comparison!.workbook);
        const notes = await notesOf(book);
        expect(notes[0]).toMatch(/^ERP ids WARNING: WITHHELD: no award file is written/);
        expect(notes[0]).toMatch(why);
        // never a mislabelled line: without the award file, the workbook shows no id taken from a position
        expect((await workbookLines(book)).every((l) => l.ext === '')).toBe(true);
      }

      const status = await collectStatus(ctx, () => trackingFacts(ctx));
      expect(status.awardsWithheld.map((w) => w.rfqId).sort()).toEqual([reordered, dropped].sort());
      expect(status.awardsWithheld.find((w) => w.rfqId === dropped)!.reason).toMatch(
        /lists 2 line\(s\), 3 were posted/,
      );
      const withheldLogs = logs.lines().filter((l) => l.event === 'comparison.award_withheld');
      expect(new Set(withheldLogs.map((l) => l.rfqId))).toEqual(new Set([reordered, dropped]));
      expect(String(withheldLogs[0]!.msg)).toContain("the ERP's ids of its lines are not certain");

      // the overview says it too
      const overview = new ExcelJS.Workbook();
      await overview.xlsx.readFile(join(ctx.config.folders.outbox, 'overview.xlsx'));
      const ws = overview.getWorksheet('Overview')!;
      const finals = new Map<number, string>();
      for (let r = OVERVIEW_ROWS.first; ws.getCell(r, OVERVIEW_COLS.rfqId).text; r++)
        finals.set(Number(ws.getCell(r, OVERVIEW_COLS.rfqId).text), ws.getCell(r, OVERVIEW_COLS.final).text);
      expect(finals.get(reordered)).toBe('no: withheld');

      // the service lists the lines as posted again: the next poll asks for another version, which writes the file
      pipeline.sandbox.control.setListedLines(reordered, null);
      await pollUntil(ctx, 'the award file of the RFQ whose lines match again', async () => {
        const csv = (await store.get(reordered))?.comparison?.awardCsv;
        return csv !== undefined && existsSync(join(ctx.config.folders.awards, csv));
      });
      const rec = (await store.get(reordered))!;
      const rfq = rfqsOf(keys).get('ERP-R')!;
      for (const row of readAwardCsv(join(ctx.config.folders.awards, rec.comparison!.awardCsv!))) {
        const line = rfq.lines.find((l) => l.line_id === row.line_id)!;
        expect(row.external_id).toBe(line.external_id); // as posted: the sandbox keeps what it was sent
      }
      const after = await collectStatus(ctx, () => trackingFacts(ctx));
      expect(after.awardsWithheld.map((w) => w.rfqId)).toEqual([dropped]);
    },
  );
});
