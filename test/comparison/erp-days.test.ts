/**
 * Dates the ERP gave without a time of day: the parser says so, ingestion keeps the day with the requisition,
 * create-rfq accepts it, the tracked RFQ keeps it with the instant sent, and the comparison shows the day as a date
 * (real Redis for the tracked record; the rendering itself is in buyer-view.test.ts).
 */
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { requisitionSchema } from '../../src/queues/create-rfq.ts';
import { writeComparisonWorkbook } from '../../src/comparison/index.ts';
import { parseDateCell, parseDateText } from '../../src/ingest/index.ts';
import { redisKeys } from '../../src/redis/redis-keys.ts';
import type { Requisition } from '../../src/core/requisition.ts';
import { comparisonInputFromRecord } from '../../src/awarding/comparison-input.ts';
import { trackRfq } from '../../src/tracking/rfq-tracker.ts';
import { trackedRfq } from '../../src/tracking/status.ts';
import { freshPrefix, useRedis } from '../helpers/redis.ts';
import { demoInput, ingestSample } from './fixtures.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { COMPARISON_ROWS as R } from '../../src/comparison/sheets/comparison/index.ts';

const srv = useRedis();
let dir: string;
beforeAll(async () => {
  dir = tempDir('rfq-erp-days-');
});

describe('a date without a time of day', () => {
  const fmt = {
    formats: ['iso', 'dd.MM.yyyy', 'dd.MM.yyyy HH:mm', 'excel_serial'],
    timeZone: 'Europe/Berlin',
    defaultTime: '00:00',
  };

  it('is told apart from a date with a time, in text, serial numbers and cell dates', () => {
    expect(parseDateText('2027-03-15', fmt)).toMatchObject({ ok: true, day: '2027-03-15' });
    expect(parseDateText('15.03.2027', fmt)).toMatchObject({ ok: true, day: '2027-03-15' });
    expect(parseDateText('15.03.2027 14:30', fmt)).not.toHaveProperty('day');
    expect(parseDateText('2027-03-15T14:30:00Z', fmt)).not.toHaveProperty('day');
    expect(parseDateCell(46461, fmt)).toMatchObject({ ok: true, day: '2027-03-15' });
    expect(parseDateCell(46461.5, fmt)).not.toHaveProperty('day');
    expect(parseDateCell(new Date(Date.UTC(2027, 2, 15)), fmt)).toMatchObject({ ok: true, day: '2027-03-15' });
    expect(parseDateCell(new Date(Date.UTC(2027, 2, 15, 9, 0)), fmt)).not.toHaveProperty('day');
  });

  it('travels from the ME5A export to the tracked RFQ, and the comparison shows it as that day', async () => {
    const req = (await ingestSample(dir, 'ME5A_export_EN.csv')).find((r) => r.key === '10012345')!;
    // Delivery Date 15.03.2027 is a day; the due date comes from the profile's rule at 17:00, so it is not one
    expect(req.erp_days).toEqual({ required_date: '2027-03-15' });
    const payload = requisitionSchema.parse(JSON.parse(JSON.stringify(req))) as Requisition;
    expect(payload.erp_days).toEqual({ required_date: '2027-03-15' });
    expect(() => requisitionSchema.parse({ ...payload, erp_days: { required_date: '15.03.2027' } })).toThrow();

    const { Redis } = await import('ioredis');
    const redis = new Redis(srv.url);
    try {
      const ctx = { redis, keys: redisKeys(freshPrefix(), 'test') };
      await trackRfq(ctx, { rfqId: 78, requisition: payload });
      const rec = await trackedRfq(ctx, 78);
      expect(rec?.requisition?.erpDays).toEqual({ required_date: { day: '2027-03-15', at: payload.required_date } });

      const fromRecord = comparisonInputFromRecord(rec, {
        TIME_ZONE: 'America/New_York',
        QUOTATION_PRICE_BASIS: 'unit',
      });
      const input = {
        ...demoInput(),
        ...fromRecord,
        rfq: { ...demoInput().rfq, required_date: payload.required_date },
      };
      const path = join(dir, 'days.xlsx');
      await writeComparisonWorkbook(input, path);
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.readFile(path);
      const ws = wb.getWorksheet('Comparison')!;
      const required = [0, 1, 2, 3, 4]
        .map((i) => ws.getRow(R.metaFirst + i))
        .find((r) => r.getCell(1).value === 'Required date')!
        .getCell(2);
      // the ERP's day, although in New York the instant sent for it (the profile's midnight) is still the 14th
      expect(required.value).toEqual(new Date(Date.UTC(2027, 2, 15)));
      expect(required.numFmt).toBe('yyyy-mm-dd');
    } finally {
      redis.disconnect();
    }
  });
});
