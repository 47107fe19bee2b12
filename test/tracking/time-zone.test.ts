/**
 * TIME_ZONE reaches the comparison workbooks: the tracked version (jobs/comparison.ts via runComparison) and the
 * on-demand one (`rfq-sync compare`) show wall-clock times of the configured zone and name it.
 */
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterEach, describe, expect, it } from 'vitest';
import { writeComparisonNow } from '../../src/awarding/compare-now.ts';
import { runComparison } from '../../src/awarding/comparison-runner.ts';
import { pollingHarness, type PollingHarness } from '../helpers/polling.ts';
import { usePipeline } from '../helpers/pipeline.ts';

const pipeline = usePipeline();
let h: PollingHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** Label in column A of the header block -> the cell beside it. */
async function header(path: string): Promise<{ legend: string; value: (label: string) => ExcelJS.CellValue }> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(path);
  const ws = wb.getWorksheet('Comparison')!;
  let legend = '';
  const values = new Map<string, ExcelJS.CellValue>();
  ws.eachRow((row) => {
    const a = row.getCell(1).text;
    if (a.includes('Times in ')) legend = a;
    values.set(a, row.getCell(2).value);
  });
  return { legend, value: (label) => values.get(label) };
}

describe('TIME_ZONE in comparison workbooks', () => {
  it('TIME_ZONE=Europe/Berlin: due date and generation time in Berlin wall-clock time, the zone named', async () => {
    h = await pollingHarness({
      redisUrl: pipeline.redisUrl,
      sandbox: pipeline.sandbox,
      env: { TIME_ZONE: 'Europe/Berlin' },
      workers: false,
    });
    const id = await h.createTrackedRfq('Berlin'); // due 2031-01-15 00:00 UTC = 01:00 in Berlin (CET, +01:00)
    const summer = new Date(Date.UTC(2031, 6, 1, 10, 30)); // 12:30 in Berlin (CEST, +02:00)
    const { workbook } = await writeComparisonNow(h.ctx, id, { out: join(h.dir, 'now.xlsx'), now: summer });
    const now = await header(workbook);
    expect(now.legend).toContain('Times in Europe/Berlin (UTC+02:00 when generated)');
    // Excel dates carry no zone: the cell holds the wall-clock time (written as if it were UTC).
    expect(now.value('Generated')).toEqual(new Date(Date.UTC(2031, 6, 1, 12, 30)));
    expect(now.value('Due date')).toEqual(new Date(Date.UTC(2031, 0, 15, 1, 0)));

    const result = await runComparison(h.ctx, { rfqId: id, version: 1 });
    const tracked = await header(result.workbook!);
    expect(tracked.legend).toMatch(/Times in Europe\/Berlin \(UTC\+0[12]:00 when generated\)/);
    expect(tracked.value('Due date')).toEqual(new Date(Date.UTC(2031, 0, 15, 1, 0)));
  });

  it('by default (UTC) the same RFQ shows UTC times', async () => {
    h = await pollingHarness({ redisUrl: pipeline.redisUrl, sandbox: pipeline.sandbox, workers: false });
    const id = await h.createTrackedRfq('Utc');
    const { workbook } = await writeComparisonNow(h.ctx, id, {
      out: join(h.dir, 'now.xlsx'),
      now: new Date(Date.UTC(2031, 6, 1, 10, 30)),
    });
    const now = await header(workbook);
    expect(now.legend).toContain('Times in UTC (UTC+00:00 when generated)');
    expect(now.value('Generated')).toEqual(new Date(Date.UTC(2031, 6, 1, 10, 30)));
    expect(now.value('Due date')).toEqual(new Date(Date.UTC(2031, 0, 15, 0, 0)));
  });
});
