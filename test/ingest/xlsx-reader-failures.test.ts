/**
 * The xlsx reader under failures exceljs does not handle itself, met while the caller is busy with each batch
 * (the ingest job writing requisitions away): each ends the read with an error the caller gets, never an uncaught
 * exception that ends the worker, never a read that hangs.
 */
import ExcelJS from 'exceljs';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { readXlsxRows } from '../../src/ingest/formats/xlsx-reader.ts';
import { tempDir } from '../helpers/temp-dir.ts';

let dir: string;
let workbook: Buffer;
beforeAll(async () => {
  dir = tempDir('rfq-xlsx-fail-');
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Lines');
  for (let i = 0; i < 4000; i++) ws.addRow([`PR-${i}`, i, `item ${i} ${(i * 7919) % 1000}`, 'x'.repeat(30)]);
  workbook = Buffer.from(await wb.xlsx.writeBuffer());
});

/** Reads every batch with a pause per batch; resolves with the rows read and the error the read ended with. */
async function readSlowly(path: string): Promise<{ rows: number; error: unknown }> {
  let rows = 0;
  try {
    for await (const batch of readXlsxRows(path)) {
      rows += batch.length;
      await new Promise((r) => setTimeout(r, 5));
    }
  } catch (error) {
    return { rows, error };
  }
  return { rows, error: undefined };
}

describe('xlsx reader failures with a slow consumer', () => {
  it('sheet XML broken part-way: the rows before it, then the parser error', async () => {
    const parts = unzipSync(workbook);
    const sheet = strFromU8(parts['xl/worksheets/sheet1.xml']!);
    const at = sheet.indexOf('<row r="3001"');
    parts['xl/worksheets/sheet1.xml'] = strToU8(`${sheet.slice(0, at)}<<\u0001${sheet.slice(at)}`);
    const p = join(dir, 'broken-xml.xlsx');
    await writeFile(p, zipSync(parts));
    const { rows, error } = await readSlowly(p);
    expect(rows).toBeGreaterThan(0);
    expect(rows).toBeLessThanOrEqual(3000);
    expect((error as Error).message).toMatch(/disallowed character/);
  });

  it('corrupt deflate data in the sheet: an inflate error, not a read that never ends', async () => {
    const b = Buffer.from(workbook);
    const sheetAt = b.indexOf('xl/worksheets/sheet1.xml'); // first occurrence: the local header
    b.fill(0xff, sheetAt + 4000, sheetAt + 4064);
    const p = join(dir, 'bad-deflate.xlsx');
    await writeFile(p, b);
    const { error } = await readSlowly(p);
    expect((error as Error).message).toMatch(/invalid|incorrect/i);
  }, 10_000);

  it('a file that is gone when the read starts: its error, not an uncaught exception', async () => {
    const { rows, error } = await readSlowly(join(dir, 'moved-away.xlsx'));
    expect(rows).toBe(0);
    expect((error as NodeJS.ErrnoException).code).toBe('ENOENT');
  });
});
