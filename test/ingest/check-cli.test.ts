/**
 * `rfq-sync check` as scripts and shells use it: `--json` gives the facts of the text output as one JSON document
 * (the text rendered from the document is the text `check` prints, line for line), output to a pipe closed early
 * ends quietly, and `--help` names every format the readers take. Before: no --json; `check FILE | head -1` ended
 * in an EPIPE stack trace (exit 1); --help said "CSV or XLSX".
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatRowProblem } from '../../src/core/errors.ts';
import type { CheckJson } from '../../src/ingest/check-json.ts';
import { FORMATS, type FormatKind } from '../../src/ingest/formats/index.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const BIN = join(ROOT, 'bin/rfq-sync.ts');
const dir = tempDir('check-cli-');
const ENV = { PATH: process.env.PATH ?? '', RFQ_SYNC_DIR: join(dir, 'data'), MAPPINGS_DIR: join(ROOT, 'mappings') };

function cli(args: string[]) {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd: dir, encoding: 'utf8', env: ENV });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

const HEADER =
  'Requisition,Line,Item,Specification,UoM,Qty,Estimated Total,Title,Description,Due Date,Required Date,RFQ Type,Category,Location';

/** A generic export of `n` one-line requisitions (each total needing a rounding: a warning each), R7 with qty 1.5. */
function generic(name: string, n: number): string {
  const rows = [HEADER];
  for (let i = 0; i < n; i++)
    rows.push(`R${i},1,Bolt ${i},,pc,${i === 7 ? '1.5' : '2'},10.5,PR R${i},,2027-03-01,2027-04-01,Private,C,L`);
  const path = join(dir, name);
  writeFileSync(path, rows.join('\n') + '\n');
  return path;
}

const minute = (iso: string) => `${iso.slice(0, 16).replace('T', ' ')} UTC`;

/** The text `check` prints, rendered from its JSON document. */
function textOf(j: CheckJson): string[] {
  if (j.refusal !== null) return [`${j.outcome === 'held' ? 'held' : 'cannot read'}: ${j.refusal}`];
  const out = [`mapping profile "${j.profile!.name}" (${j.profile!.reason})`];
  for (const r of j.requisitions) {
    const extra = [r.rfq_type, r.rfq_category, r.rfq_location].filter(Boolean).join(', ');
    const n = r.lines.length;
    const required = r.required_date ? `; required ${minute(r.required_date)}` : '';
    out.push(
      `requisition ${r.key}: "${r.title}" (${n} line${n === 1 ? '' : 's'}; due ${minute(r.due_date)}${required}; ${extra})`,
    );
    for (const l of r.lines)
      out.push(
        `  row ${l.row}: ${l.external_id}  ${l.product_name}  qty ${l.qty}${l.uom ? ` ${l.uom}` : ''}${l.estimated_price === null ? '' : `, estimated ${l.estimated_price}`}`,
      );
  }
  if (j.requisitions_not_shown > 0) out.push(`... and ${j.requisitions_not_shown} more requisitions`);
  for (const n of j.notes) out.push(`note: ${n}`);
  for (const p of j.problems) out.push(`${p.severity}: ${formatRowProblem({ file: j.file, ...p })}`);
  if (j.problems_not_shown > 0)
    out.push(`... ${j.problems_not_shown} more problem(s) not shown (the first ${j.problems.length} are above)`);
  for (const s of j.skipped_rows) out.push(`row ${s.row}: ${s.note}`);
  const c = j.counts!;
  out.push(
    `would create ${c.requisitions} requisition(s) with ${c.lines} line(s); ${c.held_requisitions} requisition(s) held back, ${c.rejected_rows} row(s) rejected, ${c.warnings} warning(s)${c.skipped_rows > 0 ? `, ${c.skipped_rows} row(s) skipped` : ''}`,
  );
  return out;
}

describe('check --json', () => {
  it.each([
    ['203 requisitions, one held, a warning each (more than the 200 shown)', () => generic('generic-many.csv', 203), 1],
    ['a German list with a "Summe" line set aside', () => join(ROOT, 'samples/BANF_Liste_Einkauf.csv'), 0],
    ['an empty file (not read)', () => (writeFileSync(join(dir, 'empty.csv'), ''), join(dir, 'empty.csv')), 2],
  ])('%s: one JSON document with the facts of the text, and its exit code', (_what, make, exit) => {
    const file = make();
    const text = cli(['check', file]);
    const json = cli(['check', '--json', file]);
    expect(text.code, text.err).toBe(exit);
    expect(json.code, json.err).toBe(exit);
    expect(json.err).toBe('');
    const doc = JSON.parse(json.out) as CheckJson;
    expect(doc.exit_code).toBe(exit);
    expect(textOf(doc)).toEqual(text.out.trimEnd().split('\n'));
  });

  it('names the outcome and counts in stable fields', () => {
    const doc = JSON.parse(cli(['check', '--json', generic('generic-few.csv', 9)]).out) as CheckJson;
    expect(doc).toMatchObject({
      file: 'generic-few.csv',
      exit_code: 1,
      outcome: 'rejected',
      refusal: null,
      profile: { name: 'generic' },
      requisitions_not_shown: 0,
      counts: { requisitions: 8, lines: 8, held_requisitions: 1, rejected_rows: 1, warnings: 9, skipped_rows: 0 },
      broken_profiles: [],
    });
    expect(doc.requisitions[0]).toEqual({
      key: 'R0',
      title: 'PR R0',
      due_date: '2027-03-01T17:00:00.000Z',
      required_date: '2027-04-01T17:00:00.000Z',
      rfq_type: 'Private',
      rfq_category: 'C',
      rfq_location: 'L',
      currency: null,
      lines: [{ row: 2, external_id: 'R0-1', product_name: 'Bolt 0', qty: 2, uom: 'pc', estimated_price: 11 }],
    });
    expect(doc.problems.find((p) => p.severity === 'error')).toEqual({
      row: 9,
      column: 'Qty',
      value: '1.5',
      reason: 'qty must be a whole number (the profile names no qty_rounding rule)',
      severity: 'error',
    });
  });

  it('refuses --json with --suggest (a usage error, exit 2)', () => {
    expect(cli(['check', '--suggest', '--json', join(ROOT, 'samples/generic-template.csv')]).code).toBe(2);
  });
});

describe('check into a pipe closed early', () => {
  it.each([[[]], [['--json']]])('check %j FILE | head -c 100: quiet, its own exit code', (flags) => {
    // 3,000 requisitions with a warning each: far more than a pipe holds, so writes go on after head has gone
    const file = generic('generic-3000.csv', 3000);
    const errFile = join(dir, 'stderr.txt');
    const r = spawnSync(
      'bash',
      [
        '-c',
        `"${process.execPath}" "${BIN}" check ${flags.join(' ')} "${file}" 2>"${errFile}" | head -c 100 >/dev/null; echo "check exited \${PIPESTATUS[0]}"`,
      ],
      { cwd: dir, encoding: 'utf8', env: ENV },
    );
    expect(readFileSync(errFile, 'utf8')).toBe('');
    expect(r.stdout.trim()).toBe('check exited 1');
  });
});

describe('check --help', () => {
  /** What --help calls each format the sniffer recognises; a format added without a name here fails the test. */
  const NAMED: Record<FormatKind, string> = {
    csv: 'CSV or tab-separated text',
    xlsx: 'XLSX',
    xls: 'binary XLS',
    xml2003: 'XML Spreadsheet 2003',
    ods: 'ODS',
    html: 'HTML table',
    'sap-list': 'SAP list',
  };
  it('names every format the readers take', () => {
    const r = cli(['check', '--help']);
    expect(r.code).toBe(0);
    const help = r.out.replace(/\s+/g, ' ');
    for (const { kind } of FORMATS) expect(help).toContain(NAMED[kind]);
  });
});
