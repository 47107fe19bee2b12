/**
 * A re-export that changes a requisition whose RFQ exists: the changed lines and header fields are in the file's
 * report (a Changes sheet: requisition, RFQ, line or header, field, was, now, what happens) and in `status`, not
 * only in the log.
 */
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, describe, expect, it } from 'vitest';
import { startWorker, type RunningWorker } from '../../jobs/worker.ts';
import { closeWorkerContext, type AppContext } from '../../app/runtime/worker-context.ts';
import { ingestOneFile } from '../../src/intake/inbox-intake.ts';
import { freshPrefix } from '../helpers/redis.ts';
import { spawnCli } from '../helpers/cli.ts';
import { pipelineContext } from '../helpers/worker-env.ts';
import { waitFor } from '../helpers/wait.ts';
import { usePipeline } from '../helpers/pipeline.ts';
import { GENERIC_HEADER } from '../helpers/generic-template.ts';
import { genericRows } from '../helpers/fixtures.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const pipeline = usePipeline();
const dir = tempDir('rfq-reexport-');
let ctx: AppContext | undefined;
let worker: RunningWorker | undefined;
afterAll(async () => {
  await worker?.close(5_000);
  if (ctx) await closeWorkerContext(ctx);
});

describe('a re-export that changes an existing RFQ', () => {
  it('lists every changed line and header field in the file report and in status', { timeout: 60_000 }, async () => {
    const prefix = freshPrefix();
    ctx = await pipelineContext({
      redisUrl: pipeline.redisUrl,
      baseUrl: pipeline.sandboxUrl,
      token: pipeline.token,
      prefix,
      account: 'reexport',
      extra: { RFQ_SYNC_DIR: dir },
    });
    worker = startWorker(ctx);
    const c = ctx;
    const done = async (n: number) =>
      waitFor(`${n} create jobs done`, async () => (await c.queues.createRfq.getCompletedCount()) >= n, 20_000, 100);

    const first = join(dir, 'export-1.csv');
    writeFileSync(first, `${GENERIC_HEADER}\n${genericRows('PR-8001', 2)}`);
    await ingestOneFile(ctx, first);
    await done(1);

    // the same requisition again: line 2's quantity and the title changed
    const again = `${GENERIC_HEADER}\n${genericRows('PR-8001', 2, 'Requisition PR-8001 (revised)').replace(/^(PR-8001,2,[^,]*,[^,]*,pc,)4,/m, '$17,')}`;
    const second = join(dir, 'export-2.csv');
    writeFileSync(second, again);
    await ingestOneFile(ctx, second);
    await done(2);
    // a report is written to a hidden temporary name and renamed: wait for the renamed one
    const secondReport = () =>
      readdirSync(join(dir, 'outbox', 'reports')).find((n) => n.startsWith('export-2') && n.endsWith('.xlsx'));
    await waitFor("the second file's report", async () => secondReport() !== undefined, 10_000, 100);

    const report = secondReport()!;
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(join(dir, 'outbox', 'reports', report));
    const sheet = wb.getWorksheet('Changes');
    expect(sheet, 'a Changes sheet').toBeDefined();
    const rows = sheet!
      .getSheetValues()
      .slice(2)
      .map((v) => (v as unknown[]).slice(1, 8));
    const rfqId = pipeline.sandbox.control
      .listAll()
      .find((x) => x.lines.some((l) => l.external_id === 'PR-8001-1'))!._id;
    expect(rows).toContainEqual([
      'generic/PR-8001',
      rfqId,
      'PR-8001-2',
      'qty',
      4,
      7,
      expect.stringMatching(/cannot change a line/),
    ]);
    expect(rows).toContainEqual([
      'generic/PR-8001',
      rfqId,
      'header',
      'title',
      'Requisition PR-8001',
      'Requisition PR-8001 (revised)',
      expect.stringMatching(/PUSH_HEADER_CHANGES is off/),
    ]);
    const notes = wb
      .getWorksheet('Summary')!
      .getSheetValues()
      .map((v) => (v as unknown[])?.[2])
      .join(' ');
    expect(notes).toMatch(
      /1 requisition\(s\) of this file already have their RFQ and changed since: see the Changes sheet/,
    );

    const status = spawnCli(['status'], {
      REDIS_URL: pipeline.redisUrl,
      REDIS_PREFIX: prefix,
      SOURCING_ACCOUNT: 'reexport',
    });
    expect((await status.exited).code, status.output()).toBe(0);
    expect(status.output()).toMatch(/Re-exports that changed an existing RFQ/);
    expect(status.output()).toMatch(
      new RegExp(`generic/PR-8001 \\(RFQ ${rfqId}\\): 1 line\\(s\\) changed \\(qty\\).*title not pushed`),
    );
    expect(
      pipeline.sandbox.control.listAll().filter((x) => x.lines.some((l) => l.external_id?.startsWith('PR-8001'))),
    ).toHaveLength(1);
  });
});
