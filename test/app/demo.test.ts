/**
 * `npm run demo` as a new user runs it: nothing configured (a hostile REDIS_URL / SOURCING_BASE_URL in the
 * environment is ignored), it ends with exit 0 and prints paths of comparison workbooks and award files that exist,
 * and where the notification e-mails its own SMTP catcher took are.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { spawn } from 'node:child_process';
import ExcelJS from 'exceljs';
import { simpleParser } from 'mailparser';
import { describe, expect, it } from 'vitest';
import { BIN } from '../helpers/cli.ts';
import { tempDir } from '../helpers/temp-dir.ts';

describe('demo', () => {
  it('runs the whole loop and prints the workbooks and award files it wrote', async () => {
    const cwd = tempDir('rfq-ops-demo-');
    // the demo gives up after --timeout seconds: its run took 26-29 s on this 2-core machine at load 14 (63 s at
    // load 12 when it paced its calls at the default 10/s), and may take longer under more load; this test asserts
    // what it does, not how fast (that is a benchmark's)
    const child = spawn(process.execPath, [BIN, 'demo', '--timeout', '240'], {
      cwd,
      env: {
        PATH: process.env.PATH ?? '',
        REDIS_URL: 'redis://must-not-be-used:1',
        SOURCING_BASE_URL: 'https://must-not-be-used.example',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (b: Buffer) => (out += b.toString()));
    child.stderr.on('data', (b: Buffer) => (out += b.toString()));
    const code = await new Promise<number | null>((r) => child.once('exit', r));
    expect(code, out.slice(-3000)).toBe(0);
    expect(out).toMatch(/copied \d+ sample exports/);
    expect(out).toMatch(/RFQ \d+ created for requisition/);
    expect(out).toMatch(/RFQ \d+: (open|created) -> closed/);
    // the sandbox's webhooks named the RFQs (or woke the poll): state changes seen by them, not only by the schedule's
    expect(out).toMatch(
      /webhooks: the sandbox posts every state change to http:\/\/127\.0\.0\.1:\d+\/hooks\/sourcing\/<secret>/,
    );
    expect(out).toMatch(/RFQ \d+: \w+ -> (closed|completed|cancelled) \((woken|named) by a webhook\)/);
    expect(out).toMatch(/Done in [\d.]+ s\./);
    const section = (title: string) => {
      const lines = out.split('\n');
      const i = lines.findIndex((l) => l.startsWith(title));
      expect(i, `no "${title}" section`).toBeGreaterThanOrEqual(0);
      const paths: string[] = [];
      for (const l of lines.slice(i + 1)) {
        if (!l.startsWith('  ')) break;
        paths.push(resolve(cwd, l.trim()));
      }
      return paths;
    };
    const workbooks = section('Comparison workbooks');
    const awards = section('Award files for the ERP');
    expect(workbooks.length).toBeGreaterThan(0);
    expect(awards.length).toBe(workbooks.length);
    for (const f of workbooks) {
      expect(f).toMatch(/\.xlsx$/);
      expect(readFileSync(f).subarray(0, 2).toString()).toBe('PK'); // a zip container: an xlsx
    }
    for (const f of awards) expect(existsSync(f)).toBe(true);
    // the ERP's own purchase-order files of two profiles, with the demo's vendor cross-reference: one per award that
    // awards a line (an award whose lines no supplier quoted orders nothing: no purchase order, no ERP file)
    const generic = section('ERP purchase-order files of the output profile po-lines-csv');
    const sap = section('ERP purchase-order files of the output profile sap-po-bapi');
    const ordering = awards.filter((f) => readFileSync(f, 'utf8').trim().split(/\r?\n/).length > 1);
    expect(ordering.length).toBeGreaterThan(0);
    expect(generic.length).toBe(ordering.length);
    expect(sap.length).toBe(ordering.length);
    for (const f of generic) {
      const [head, ...rows] = readFileSync(f, 'utf8').trim().split('\r\n');
      expect(head).toMatch(/^po_key,erp_vendor_id,supplier_key,supplier_name,/);
      expect(
        rows.every((r) => /^RFQ[\w-]+,00002000\d\d,/.test(r)),
        f,
      ).toBe(true);
    }
    for (const f of sap) expect(readFileSync(f, 'latin1')).toMatch(/^REF_KEY;POHEADER-COMP_CODE;/);
    // who was asked, who answered: printed per RFQ, and in every workbook with the vendors who did not quote
    const rates = [...out.matchAll(/^ {2}RFQ \d+ \((.+)\): (\d+) of (\d+) \((\d+)%\)$/gm)];
    expect(rates.length).toBe(workbooks.length);
    for (const [, , quoted, following] of rates) expect(Number(quoted)).toBeLessThan(Number(following));
    for (const f of workbooks) {
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.readFile(f);
      const texts = (sheet: string) => {
        const all: string[] = [];
        wb.getWorksheet(sheet)!.eachRow((row) =>
          row.eachCell((c) => {
            if (c.type !== ExcelJS.ValueType.Merge) all.push(c.text);
          }),
        );
        return all;
      };
      const cmp = texts('Comparison');
      const rate = cmp[cmp.indexOf('Vendors who quoted') + 1];
      expect(rate, f).toMatch(/^\d of \d$/);
      const suppliers = texts('Suppliers');
      expect(
        suppliers.some((t) => /^Vendors following ".+" who did not quote · \d of \d vendors following/.test(t)),
        f,
      ).toBe(true);
      expect(suppliers.filter((t) => /^sales@.+\.example$/.test(t)).length, f).toBeGreaterThan(0);
    }
    const overview = /Overview of every tracked RFQ \((\d+) rows\): (\S+)/.exec(out);
    expect(overview, 'the overview line').not.toBeNull();
    expect(Number(overview![1])).toBe(workbooks.length);
    expect(readFileSync(resolve(cwd, overview![2]!)).subarray(0, 2).toString()).toBe('PK');
    // the notifications went to the demo's own SMTP catcher, one .eml file each, where the demo says
    const caught = /Notifications: (\d+) e-mail\(s\) caught by the demo's own SMTP server .*: (\S+)$/m.exec(out);
    expect(caught, 'the notifications line').not.toBeNull();
    const mails = readdirSync(resolve(cwd, caught![2]!)).filter((f) => f.endsWith('.eml'));
    expect(mails.length).toBe(Number(caught![1]));
    expect(mails.length).toBeGreaterThan(0);
    const first = await simpleParser(readFileSync(resolve(cwd, caught![2]!, mails[0]!)));
    expect(first.subject).toMatch(/^\[rfq-sync\] /);
    expect(first.text).toMatch(/comparison v\d ready|award final/);
  }, 300_000);

  it('names the package to install when redis-server is missing', async () => {
    const cwd = tempDir('rfq-ops-demo-');
    const child = spawn(process.execPath, [BIN, 'demo'], {
      cwd,
      env: { PATH: '/nonexistent' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (b: Buffer) => (out += b.toString()));
    child.stderr.on('data', (b: Buffer) => (out += b.toString()));
    const code = await new Promise<number | null>((r) => child.once('exit', r));
    expect(code).toBe(2);
    expect(out).toContain('redis-server was not found on PATH');
    expect(out).toContain('apt-get install redis-server');
  });
});
