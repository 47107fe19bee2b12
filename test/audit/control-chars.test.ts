/**
 * Export and service text never reaches a terminal raw: ESC, BEL, CR and NEWLINE in ids, requisition keys, file
 * names, product names and supplier names come out of `rfq-sync trace` and `rfq-sync check` as visible escapes
 * (`\x1b`, `\x07`, `\r`, `\n`), so an id cannot clear the screen or set the window title and a name cannot print a
 * forged line; the lookup page makes them visible too. And the award summary is read with a real CSV parser: a
 * supplier's name with a comma, a quote and a line break (from the service) gives the right suppliers and total.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { comparisonEvents } from '../../src/audit/outputs.ts';
import { createAuditLog } from '../../src/audit/writer.ts';
import { buildTimeline } from '../../src/audit/trace-log.ts';
import { safeCsvField } from '../../src/core/spreadsheet-safety.ts';
import { AWARD_CSV_COLUMNS } from '../../src/comparison/award-csv.ts';
import { renderTimeline } from '../../app/http/trace-page.ts';
import { spawnCli } from '../helpers/cli.ts';
import { GENERIC_HEADER } from '../helpers/generic-template.ts';
import { genericRows } from '../helpers/fixtures.ts';
import { tempDir } from '../helpers/temp-dir.ts';

/** Everything a terminal acts on: C0 controls but the line feed between lines, DEL, C1 controls. */
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;
/** A supplier's name from the service: the award file keeps its comma, quotes and line break (ESC and BEL it strips). */
const EVIL = 'Evil Corp,\r\n"Ltd"';
const FORGED = '\n2026-11-20T09:00:09.000Z  award-final          award final for RFQ 999: FORGED';

/** An award file as the comparison writes it (RFC 4180, CRLF), two lines from a supplier with a hostile name. */
function awardFile(dir: string): string {
  const row = (ext: string, total: string) =>
    ['47', '7', ext, 'L1', 'q1', EVIL, '1', total, total, 'EUR', 'unit', ''].map((v) => safeCsvField(v)).join(',');
  const path = join(dir, 'RFQ-47-7-v1.csv');
  writeFileSync(path, `${AWARD_CSV_COLUMNS.join(',')}\r\n${row('PR-1-1', '100.00')}\r\n${row('PR-1-2', '23.50')}\r\n`);
  return path;
}

describe('the award summary', () => {
  it('reads a supplier name with a comma, a quote and a line break whole, and totals the lines', async () => {
    const dir = tempDir('rfq-award-');
    writeFileSync(join(dir, 'book.xlsx'), 'x');
    const [, award] = await comparisonEvents({
      rfqId: 47,
      version: 1,
      workbook: join(dir, 'book.xlsx'),
      award: awardFile(dir),
    });
    expect(award).toMatchObject({
      event: 'award-final',
      lines: [
        { external_id: 'PR-1-1', supplier: EVIL, line_total: '100.00' },
        { external_id: 'PR-1-2', supplier: EVIL, line_total: '23.50' },
      ],
      totals: { EUR: '123.50' },
    });
    expect(award!.summary).toBe(`award final for RFQ 47: ${EVIL}; total 123.50 EUR`);
  });
});

describe('control characters', () => {
  it('in ids, keys, file names and supplier names: `trace` prints them as visible escapes, one line each', async () => {
    const root = tempDir('rfq-ctl-');
    let t = Date.UTC(2026, 10, 20, 9, 0, 0);
    const log = createAuditLog({ root, retentionDays: 0, host: 'h', account: 'acme', now: () => (t += 1_000) });
    const id = {
      profile: 'generic',
      key: `PR-1${FORGED}`,
      external_ids: ['PR-1-1\u001b[2J\u001b[H'],
      file: 'export\u0007.csv\r',
    };
    await log.write({ event: 'requisition-accepted', summary: `requisition accepted${FORGED}`, ...id });
    await log.write({ event: 'create-sent', summary: 'RFQ 47 created', ...id, rfq_id: 47, outcome: 'created' });
    const dir = tempDir('rfq-award-');
    writeFileSync(join(dir, 'book.xlsx'), 'x');
    await log.write({
      event: 'quotations-pulled',
      summary: '1 quotation(s) pulled for RFQ 47 (award)',
      ...id,
      rfq_id: 47,
      winner: 'q1',
      supplier: 'Acme \u001b]0;owned\u0007\r\nLtd',
    });
    for (const e of await comparisonEvents({
      rfqId: 47,
      version: 1,
      workbook: join(dir, 'book.xlsx'),
      award: awardFile(dir),
    }))
      await log.write({ ...e, ...id, summary: `${e.summary} (winner Acme \u001b]0;owned\u0007)` });
    log.close();

    const run = spawnCli(['trace', '47'], { RFQ_SYNC_DIR: root });
    expect((await run.exited).code).toBe(0);
    const out = run.output();
    expect(out).not.toMatch(RAW_CONTROL);
    expect(out.split('\n').filter((l) => /^\S+Z\s+award-final/.test(l))).toHaveLength(1); // no forged line
    expect(out).toContain(
      'award final for RFQ 47: Evil Corp,\\r\\n"Ltd"; total 123.50 EUR (winner Acme \\x1b]0;owned\\x07)',
    );
    expect(out).toContain('PR-1\\n2026-11-20T09:00:09.000Z');

    const html = renderTimeline(await buildTimeline(root, '47', { redis: 'up' }), { outbox: dir });
    expect(html).not.toMatch(RAW_CONTROL);
    expect(html).toContain('Evil Corp,\\r\\n&quot;Ltd&quot;; total 123.50 EUR (winner Acme \\x1b]0;owned\\x07)');
  });

  it('in an export: `check` prints ids and names as visible escapes, one line each', async () => {
    const dir = tempDir('rfq-ctl-check-');
    const file = join(dir, 'hostile.csv');
    const row = (i: number, name: string) =>
      `"PR-\u001b[2J${i}",${i},"${name}",Spec,pc,2,100,"Title\u0007",Test,2031-01-15,2031-02-15,Public,Tests,Plant 1`;
    // among ordinary rows, as in a real export (a file mostly of control characters is refused as binary)
    const ordinary = Array.from({ length: 20 }, (_, i) => genericRows(`OK-${i}`, 2)).join('');
    writeFileSync(
      file,
      `${GENERIC_HEADER}\n${ordinary}${row(1, 'Bolt\r\nFORGED')}\n${row(2, 'Nut\u001b]0;t\u0007')}\n`,
    );
    const run = spawnCli(['check', file], { RFQ_SYNC_DIR: dir });
    await run.exited;
    const out = run.output();
    expect(out).toContain('PR-\\x1b[2J1');
    expect(out).not.toMatch(RAW_CONTROL);
    expect(out.split('\n').some((l) => l.startsWith('FORGED'))).toBe(false);
  });
});
