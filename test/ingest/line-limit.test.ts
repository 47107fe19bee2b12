/**
 * A requisition over the service's 1,000-line limit used to pass `check` and ingest, then fail for good at send time
 * with no report. The limit comes from the one definition the client's request schema uses, and is checked at
 * validation: `check` exits 1 and names the requisition, the field and the limit.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRfqRequestSchema } from '../../src/sourcing/schemas.ts';
import { MAX_LINES_PER_RFQ } from '../../src/sourcing/limits.ts';
import { genericCsv, genericRows } from '../helpers/fixtures.ts';
import { spawnCli } from '../helpers/cli.ts';
import { tempDir } from '../helpers/temp-dir.ts';

describe('the lines limit of one RFQ', () => {
  it("is the request schema's own", () => {
    const line = (i: number) => ({ product_name: 'P', qty: 1, external_id: `E-${i}` });
    const body = (n: number) => ({
      title: 'T',
      due_date: '1893456000000',
      rfq_type: 'Public',
      lines: Array.from({ length: n }, (_, i) => line(i)),
    });
    expect(createRfqRequestSchema.safeParse(body(MAX_LINES_PER_RFQ)).success).toBe(true);
    expect(createRfqRequestSchema.safeParse(body(MAX_LINES_PER_RFQ + 1)).success).toBe(false);
  });

  it('a requisition of 1,001 lines: check exits 1 and names the requisition, the field and the limit; the others pass', async () => {
    const dir = tempDir('rfq-line-limit-');
    const file = join(dir, 'big-export.csv');
    writeFileSync(file, genericCsv(['PR-SMALL', 3]) + genericRows('PR-HUGE', 1001) + genericRows('PR-AFTER', 2));
    const run = spawnCli(['check', file], {});
    const { code } = await run.exited;
    expect(code, run.output().slice(-2000)).toBe(1);
    expect(run.output()).toMatch(
      /requisition PR-HUGE has more than 1000 lines, the most one RFQ may have \(field lines\)/,
    );
    expect(run.output()).toMatch(/row 1005/); // header + 3 + the 1,001st line of PR-HUGE
    expect(run.output()).toMatch(/2 requisition/);
  });
});
