/**
 * Done files for the ERP (OUTBOX_DONE_FILES, docs/notifications.md#done-files-for-the-erp): `marker` puts an empty `<award file>.done` beside
 * each award file, only once it is final and complete; `manifest` writes per RFQ version one JSON manifest naming its
 * workbook, its award file and the overview with their sha256 and size, after the files it names, under their final
 * names (no temporary file left). Real Redis, the sandbox, the project's poll, quotations and comparison jobs.
 */
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { trackedRfq } from '../../src/tracking/status.ts';
import { ls } from '../helpers/files.ts';
import { pollingHarness, type PollingHarness } from '../helpers/polling.ts';
import { usePipeline } from '../helpers/pipeline.ts';

const pipeline = usePipeline({ sandbox: { pageSize: 5 } });
let h: PollingHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** An RFQ closed with two quotations (a draft: v1), then both decided (final: v2). */
async function draftThenFinal(harness: PollingHarness): Promise<number> {
  const ctl = pipeline.sandbox.control;
  const id = await harness.createTrackedRfq('Done', 2);
  const [l1, l2] = ctl.getRfq(id)!.lines.map((l) => l.line_id);
  const a = ctl.submitQuotation(id, { sup_name: 'A', prices: { [l1!]: '5', [l2!]: '6' } });
  const b = ctl.submitQuotation(id, { sup_name: 'B', prices: { [l1!]: '7', [l2!]: '8' } });
  ctl.advance(id, 'closed');
  await harness.pollAndSettle();
  expect(ls(harness.ctx.config.folders.awards).filter((f) => !f.endsWith('.manifest.json'))).toEqual([]);
  ctl.decide(id, String(a.quotation_key), true);
  ctl.decide(id, String(b.quotation_key), true);
  await harness.pollAndSettle();
  return id;
}

const sha256 = (p: string) => createHash('sha256').update(readFileSync(p)).digest('hex');

describe('done files for the ERP', () => {
  it('marker: an empty <award>.done after the final award file, none for a draft', async () => {
    h = await pollingHarness({
      redisUrl: pipeline.redisUrl,
      sandbox: pipeline.sandbox,
      env: { OUTBOX_DONE_FILES: 'marker' },
    });
    const id = await draftThenFinal(h);
    const awards = h.ctx.config.folders.awards;
    const csv = (await trackedRfq(h.ctx, id))!.comparison!.awardCsv!;
    expect(ls(awards)).toEqual([csv, `${csv}.done`]);
    const marker = statSync(join(awards, `${csv}.done`));
    expect(marker.size).toBe(0);
    expect(marker.mtimeMs).toBeGreaterThanOrEqual(statSync(join(awards, csv)).mtimeMs);
  });

  it('manifest: per version its workbook, award file and overview with sha256 and size, after them', async () => {
    h = await pollingHarness({
      redisUrl: pipeline.redisUrl,
      sandbox: pipeline.sandbox,
      env: { OUTBOX_DONE_FILES: 'manifest' },
    });
    const id = await draftThenFinal(h);
    const { outbox, awards } = h.ctx.config.folders;
    const rec = (await trackedRfq(h.ctx, id))!;
    const stem = rec.comparison!.awardCsv!.replace(/-v2\.csv$/, '');
    expect(ls(awards)).toEqual([`${stem}-v1.manifest.json`, `${stem}-v2.csv`, `${stem}-v2.manifest.json`]);
    type Manifest = {
      rfq_id: number;
      version: number;
      files: Array<{ role: string; path: string; sha256: string; size: number }>;
    };
    const v1 = JSON.parse(readFileSync(join(awards, `${stem}-v1.manifest.json`), 'utf8')) as Manifest;
    expect(v1).toMatchObject({ rfq_id: id, version: 1 });
    expect(v1.files.map((f) => f.role)).not.toContain('award');
    const v2Path = join(awards, `${stem}-v2.manifest.json`);
    const v2 = JSON.parse(readFileSync(v2Path, 'utf8')) as Manifest;
    expect(v2.files.map((f) => [f.role, f.path])).toEqual([
      ['workbook', `comparisons/${rec.comparison!.workbook}`],
      ['award', `awards/${stem}-v2.csv`],
      ['overview', 'overview.xlsx'],
    ]);
    // the workbook and award file are as listed; each was there before the manifest
    for (const f of v2.files.filter((x) => x.role !== 'overview')) {
      const p = join(outbox, f.path);
      expect([f.sha256, f.size]).toEqual([sha256(p), statSync(p).size]);
      expect(statSync(v2Path).mtimeMs).toBeGreaterThanOrEqual(statSync(p).mtimeMs);
    }
    expect(ls(awards).some((f) => f.endsWith('.tmp'))).toBe(false);
  });
});
