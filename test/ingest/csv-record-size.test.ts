/**
 * A CSV row longer than MAX_CSV_RECORD_CHARS (one huge cell, or a quote never closed in a large file) refuses the
 * file, naming the reason and the line, before the parser gathers the whole of it in memory.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { MAX_CSV_RECORD_CHARS } from '../../src/ingest/formats/csv-reader.ts';
import { ingestFile, loadProfiles, type MappingProfile } from '../../src/ingest/index.ts';
import { FileRefusedError } from '../../src/core/errors.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const NOW = new Date('2026-11-22T10:00:00Z');
const LIMITS = { maxFileBytes: 80 * 1024 * 1024, maxXlsxUncompressedBytes: 1024 * 1024, maxXlsxEntries: 50 };
const HEADER =
  'Requisition,Line,Item,Specification,UoM,Qty,Estimated Total,Title,Description,Due Date,Required Date,RFQ Type,Category,Location';
const line = (key: string, n: number, item: string): string =>
  `${key},${n},${item},,pc,5,100,Title ${key},,2027-03-01,2027-04-01,Private,Cat,Loc`;

let dir: string;
let profiles: MappingProfile[];
beforeAll(async () => {
  dir = tempDir('rfq-csv-record-');
  profiles = await loadProfiles(`${ROOT}mappings`);
});

describe('CSV row size', () => {
  it('a row just under the limit is read; one over it refuses the file naming the limit and its line', async () => {
    const under = join(dir, 'under.csv');
    await writeFile(
      under,
      [HEADER, line('R1', 1, 'B'.repeat(MAX_CSV_RECORD_CHARS - 200)), line('R2', 1, 'Desk')].join('\n'),
    );
    const read: string[] = [];
    const s = await ingestFile(under, { profiles, limits: LIMITS, now: NOW }, async (r) => void read.push(r.key));
    expect(read).toEqual(['R2']); // R1's product name is over the service's limit: that row is rejected, not the file
    expect(s.problems.some((p) => p.row === 2 && p.severity === 'error')).toBe(true);

    const over = join(dir, 'over.csv');
    await writeFile(
      over,
      [HEADER, line('R2', 1, 'Desk'), line('R1', 1, 'A'.repeat(MAX_CSV_RECORD_CHARS + 10))].join('\n'),
    );
    const err = await ingestFile(over, { profiles, limits: LIMITS, now: NOW }, async () => undefined).catch((e) => e);
    expect(err).toBeInstanceOf(FileRefusedError);
    expect(String(err.message)).toMatch(/row longer than 33,554,432 characters/);
    expect(String(err.message)).toMatch(/line 3/);
    // two files of 32 MB read through: CPU-bound, several times the default time-out on a loaded 2-core machine
  }, 180_000);
});
