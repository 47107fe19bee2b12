/**
 * From an ERP export to the ERP's own purchase-order files, through the real pipeline: a real `rfq-sync worker` with
 * every shipped output profile (ERP_OUTPUTS), the sandbox's autopilot quoting, closing and completing the RFQs, and a
 * vendor cross-reference that knows only half the suppliers at first. The awards of known winners are written at
 * once under outbox/erp/<profile>/, each file in its ERP's published columns and with its done file; the others are
 * held, named in `status`, the overview and the audit trace, and procurement and IT are told once; once IT fills the
 * cross-reference, the next poll writes them. One Redis, one sandbox, one worker.
 */
import { copyFileSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { Redis } from 'ioredis';
import { strFromU8, unzipSync } from 'fflate';
import { describe, expect, it, onTestFinished } from 'vitest';
import { redisKeys } from '../../src/redis/index.ts';
import { SUPPLIER_NAMES } from '../../src/sandbox/vendors.ts';
import { PACKAGE_ROOT } from '../../src/settings/config.ts';
import { trackedRfq } from '../../src/tracking/index.ts';
import { heldErpFiles } from '../../src/awarding/index.ts';
import { ls } from '../helpers/files.ts';
import { usePipeline } from '../helpers/pipeline.ts';
import { waitFor } from '../helpers/wait.ts';
import { spawnCli } from '../helpers/cli.ts';
import { startHttpReceiver } from '../helpers/notify.ts';
import { byHeader, ERP_SETTINGS, readCsv, SHIPPED, template, writeXref } from '../erp/erp-kit.ts';

const pipeline = usePipeline({
  tag: 'erp',
  sandbox: { autopilot: { closeAfterMs: 300, suppliersPerRfq: 3, completeAfterMs: 300 } },
});

/** The cross-reference: every sandbox supplier by name; `known` decides who has an ERP vendor yet. */
function xref(path: string, known: (i: number) => boolean): string {
  return writeXref(
    path,
    SUPPLIER_NAMES.map((name, i) => ({
      supplier_key: '',
      supplier_name: name,
      erp_vendor_id: known(i) ? `00002${String(i).padStart(5, '0')}` : '',
      erp_vendor_site: known(i) ? 'MAIN' : '',
    })),
  );
}

describe('ERP outputs end to end', () => {
  it(
    'an SAP export to every shipped profile; a winner missing from the cross-reference held, named, told once, then written',
    { timeout: 120_000 },
    async () => {
      const data = pipeline.data;
      const xrefFile = xref(join(data.jail, 'vendor-xref.csv'), (i) => i % 2 === 0);
      const hook = await startHttpReceiver();
      const env = pipeline.workerEnv({
        POLL_CRON: '* * * * * *',
        LOG_LEVEL: 'warn',
        OUTBOX_DONE_FILES: 'marker',
        ERP_OUTPUTS: SHIPPED.join(','),
        VENDOR_XREF_FILE: xrefFile,
        TIME_ZONE: 'Europe/Berlin',
        ...ERP_SETTINGS,
        NOTIFY_CHANNELS: JSON.stringify({
          procurement: { type: 'webhook', url: `${hook.url}/procurement` },
          it: { type: 'webhook', url: `${hook.url}/it` },
        }),
        NOTIFY_ROUTES: JSON.stringify({
          buyers: { channel: 'procurement', events: ['procurement'], digest: 'immediate' },
          it: { channel: 'it', events: ['it'], digest: 'immediate' },
        }),
      });
      const worker = await pipeline.spawnWorker(env);
      copyFileSync(join(PACKAGE_ROOT, 'samples', 'ME5A_export_EN.csv'), join(data.inbox, 'ME5A_export_EN.csv'));

      const redis = new Redis(pipeline.redisUrl);
      onTestFinished(async () => void (await redis.quit()));
      const ctx = { redis, keys: redisKeys(pipeline.prefix, 'hardening') };
      const erp = join(data.outbox, 'erp');
      const latestFinal = async () => {
        const rfqs = pipeline.sandbox.control.listAll();
        if (rfqs.length !== 4 || rfqs.some((r) => r.state !== 'completed')) return undefined;
        const recs = await Promise.all(rfqs.map((r) => trackedRfq(ctx, r._id)));
        // the version of the completed RFQ's winner, and it wrote the award file (nothing later can come)
        const last = (r: (typeof recs)[number]) =>
          r?.state === 'completed' &&
          r.comparison?.award === true &&
          r.comparison.awardCsv?.endsWith(`-v${r.comparison.version}.csv`);
        if (!recs.every(last)) return undefined;
        return recs.map((r) => ({ rfqId: r!.rfqId, version: r!.comparison!.version }));
      };
      /** Each RFQ's final version: written (its po-lines file exists) or held. */
      const settled = async () => {
        const finals = await latestFinal();
        if (!finals) return undefined;
        const held = await heldErpFiles(ctx);
        const written = ls(join(erp, 'po-lines-csv'));
        const state = finals.map((f) => ({
          ...f,
          held: held.find((h) => h.rfqId === f.rfqId && h.version === f.version),
          file: written.find((n) => n.includes(`-${f.rfqId}-v${f.version}-`) && n.endsWith('.csv')),
        }));
        return state.every((s) => s.held || s.file) ? state : undefined;
      };
      const said = async () => `worker said:\n${worker.output().slice(-3000)}`;
      const first = await waitFor('every final award written or held', settled, 90_000, 250, said);
      const held = first.filter((s) => s.held);
      const written = first.filter((s) => s.file);
      expect(held.length, 'the seeded autopilot awards some RFQs to a supplier without an ERP vendor').toBeGreaterThan(
        0,
      );
      expect(written.length, 'and some to suppliers with one').toBeGreaterThan(0);
      const missing = [...new Set(held.flatMap((s) => s.held!.missing.map((m) => m.supplierName)))];
      expect(missing.every((n) => SUPPLIER_NAMES.indexOf(n) % 2 === 1)).toBe(true);

      // named: in status, in the overview, in the audit trace
      const status = spawnCli(['status'], env);
      expect((await status.exited).code, status.output()).toBe(0);
      expect(status.output()).toMatch(/ERP FILES HELD \(\d+\)/);
      for (const n of missing) expect(status.output()).toContain(n);
      // IT's draft: the vendor directory and the suppliers seen in quotations, the ERP ids known so far filled in
      const draftFile = join(data.jail, 'xref-draft.csv');
      const draft = spawnCli(['vendors', '--xref-draft', draftFile], env);
      expect((await draft.exited).code, draft.output()).toBe(0);
      const rows = byHeader(readCsv(readFileSync(draftFile).subarray(3)));
      expect(rows.map((r) => r.supplier_name).sort()).toEqual([...SUPPLIER_NAMES].sort());
      for (const r of rows) {
        const known = SUPPLIER_NAMES.indexOf(r.supplier_name!) % 2 === 0;
        expect(r.erp_vendor_id, r.supplier_name).toBe(
          known ? `00002${String(SUPPLIER_NAMES.indexOf(r.supplier_name!)).padStart(5, '0')}` : '',
        );
      }
      expect(rows.filter((r) => r.seen_in === 'vendor directory and quotations').length).toBeGreaterThan(0);
      const again = spawnCli(['vendors', '--xref-draft', draftFile], env);
      expect((await again.exited).code).toBe(1); // never replaces a file
      await waitFor(
        'the overview names the held suppliers',
        async () => {
          const wb = new ExcelJS.Workbook();
          await wb.xlsx.readFile(join(data.outbox, 'overview.xlsx')).catch(() => undefined);
          const text: string[] = [];
          wb.worksheets[0]?.eachRow((r) => r.eachCell((c) => text.push(c.text)));
          return missing.every((n) => text.some((t) => t.includes('ERP files held') && t.includes(n)));
        },
        20_000,
        250,
      );
      const audit = readdirSync(join(data.root, 'audit'))
        .map((f) => readFileSync(join(data.root, 'audit', f), 'utf8'))
        .join('');
      for (const n of missing) expect(audit).toMatch(new RegExp(`"event":"erp-held".*no ERP vendor for [^"]*${n}`));
      // told: procurement and IT each, once per held award (a later version held for the same supplier says nothing)
      const told = () =>
        hook.requests.flatMap((r) =>
          ((r.json as { events?: Array<{ kind: string; id: string }> }).events ?? [])
            .filter((e) => e.kind === 'erp-vendor-missing')
            .map((e) => `${r.path} ${e.id}`),
        );
      const toldRfqs = () => new Set(told().map((t) => `${t.split(' ')[0]} ${t.split('~')[1]}`));
      await waitFor('procurement and IT told', () => toldRfqs().size >= 2 * held.length, 20_000, 100);
      // (an RFQ held at an earlier version only, and written since, was told too)
      expect([...toldRfqs()]).toEqual(
        expect.arrayContaining(held.flatMap((s) => ['/it', '/procurement'].map((p) => `${p} ${s.rfqId}`))),
      );
      expect(new Set(told()).size).toBe(told().length);
      const toldBefore = told().length;
      // the award's own notice names its ERP files, or says they are held
      const awardNotices = () =>
        hook.requests.flatMap((r) =>
          (
            (r.json as { events?: Array<{ kind: string; id: string; data: Record<string, unknown> }> }).events ?? []
          ).filter((e) => e.kind === 'award-final'),
        );
      await waitFor(
        'the award-final notices',
        () => first.every((s) => awardNotices().some((e) => e.id === `award-final~${s.rfqId}~v${s.version}`)),
        20_000,
        100,
      );
      for (const s of first) {
        const data = awardNotices().find((e) => e.id === `award-final~${s.rfqId}~v${s.version}`)!.data;
        if (s.file) expect((data.erpFiles as string[]).map((f) => f.split(/[\\/]/).pop())).toContain(s.file);
        else expect(data.erpHeld).toEqual(s.held!.missing.map((m) => m.supplierName));
      }
      // IT fills the cross-reference: the next poll writes the held awards' files, with their done files
      xref(xrefFile, () => true);
      await waitFor('the held awards written', async () => (await heldErpFiles(ctx)).length === 0, 30_000, 250, said);
      const finals = (await latestFinal())!;
      for (const profile of SHIPPED) {
        const files = ls(join(erp, profile)).filter((n) => !n.endsWith('.done'));
        for (const f of finals) {
          const mine = files.filter((n) => n.includes(`-${f.rfqId}-v${f.version}`));
          expect(mine.length, `${profile}: RFQ ${f.rfqId} v${f.version} (${files.join(', ')})`).toBeGreaterThan(0);
          for (const n of mine) {
            expect(ls(join(erp, profile))).toContain(`${n}.done`);
            await checkColumns(profile, n, readFileSync(join(erp, profile, n)));
          }
        }
      }
      expect(told()).toHaveLength(toldBefore); // not told again
      await hook.close();
    },
  );
});

describe('ERP outputs at start', () => {
  it('a setting a profile needs, unset: the worker stops at start (exit 2), one line each, no job taken', async () => {
    const run = spawnCli(['worker'], {
      ...pipeline.workerEnv({ LOG_LEVEL: 'warn' }),
      ERP_OUTPUTS: 'sap-po-bapi',
      VENDOR_XREF_FILE: join(PACKAGE_ROOT, 'erp-outputs', 'demo-vendor-xref.csv'),
      ERP_PLANT: '1000',
    });
    const { code } = await run.exited;
    expect(code, run.output()).toBe(2);
    for (const s of ['ERP_COMPANY_CODE', 'ERP_PURCHASING_ORG', 'ERP_PURCHASING_GROUP'])
      expect(run.output()).toContain(`${s}: required by the output profile sap-po-bapi`);
  });
});

/** A written file has its template's columns in order (FBDI: the zip's CSVs headerless, each row as wide). */
async function checkColumns(profile: string, name: string, data: Buffer): Promise<void> {
  const t = template(profile);
  if (profile === 'oracle-fusion-fbdi') {
    const entries = unzipSync(new Uint8Array(data));
    expect(Object.keys(entries)).toEqual(Object.keys(t.files));
    for (const [csv, columns] of Object.entries(t.files))
      for (const row of readCsv(Buffer.from(strFromU8(entries[csv]!), 'utf8')))
        expect(row).toHaveLength(columns.length);
    return;
  }
  const part = Object.keys(t.files).find((p) => name.includes(p))!;
  if (profile === 'odoo-po') {
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(data as unknown as ArrayBuffer);
    expect((wb.worksheets[0]!.getRow(1).values as unknown[]).slice(1)).toEqual(t.files[part]);
    return;
  }
  const sap = profile === 'sap-po-bapi';
  const rows = readCsv(data, sap ? { encoding: 'windows-1252', delimiter: ';' } : {});
  expect(rows[0], `${profile} ${name}`).toEqual(t.files[part]);
  expect(rows.length).toBeGreaterThan(1);
}
