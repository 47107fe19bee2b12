/**
 * `npm run bench:erp`: the ERP's purchase-order files of 1,000 final awards (12 lines each, split across up to four
 * suppliers), with every shipped output profile (ERP_OUTPUTS of all seven: CSV in three encodings, an xlsx, a zip),
 * against the award CSV of the same awards written in the same run (the baseline: one file per award). Each file is
 * written as the comparison job writes it: planned (grouped, formatted, encoded), then atomically to the outbox.
 * Prints the time of each, the ratio, the files and bytes, and each profile's share.
 *
 *   node bench/erp.ts [--awards 1000] [--lines 12] [--profiles po-lines-csv,sap-po-bapi,...]
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { awardCsv } from '../src/comparison/award-csv.ts';
import { erpAwardOf } from '../src/comparison/erp-output.ts';
import { buildComparison } from '../src/comparison/model.ts';
import type { ComparisonModel } from '../src/comparison/types.ts';
import { writeFileAtomically } from '../src/core/atomic-write.ts';
import { loadErpOutputs, planErpFiles } from '../src/erp/index.ts';
import type { Quotation } from '../src/sourcing/types.ts';
import { loadConfig } from '../src/settings/config.ts';
import { ERP_SETTINGS, writeXref } from '../test/erp/erp-kit.ts';

const SHIPPED = 'po-lines-csv,sap-po-bapi,oracle-ebs-pdoi,oracle-fusion-fbdi,netsuite-po,odoo-po,dynamics-365-po';
const { values: args } = parseArgs({
  options: {
    awards: { type: 'string', default: '1000' },
    lines: { type: 'string', default: '12' },
    profiles: { type: 'string', default: SHIPPED },
  },
});
const AWARDS = Number(args.awards);
const LINES = Number(args.lines);
const SUPPLIERS = [
  'Nordic Office Supply AB',
  'Hanse IT Distribution GmbH',
  'Bürotechnik Müller & Söhne KG',
  'Atlas Office',
];

/** A closed RFQ with every quotation qualified: the lowest price of each line wins, so the award splits. */
function model(n: number): ComparisonModel {
  const rfqId = 70_000 + n;
  const lines = Array.from({ length: LINES }, (_, i) => ({
    position: i,
    line_id: `L${i + 1}`,
    external_id: `${4_500_000 + n}-${(i + 1) * 10}`,
    product_name: `Item ${i} hex bolt M${(i % 20) + 4} stainless A2`,
    specification: `DIN 933, ${(i % 9) * 10 + 20} mm`,
    uom: i % 3 === 0 ? 'PC' : 'EA',
    qty: 1 + ((n + i) % 250),
    estimated_price: String((1 + ((n + i) % 250)) * 40),
    docs: {},
  }));
  const quotations: Quotation[] = SUPPLIERS.map((sup_name, s) => ({
    quotation_key: String(100 + s),
    sup_name,
    revision_no: 0,
    quotation_date: Date.UTC(2026, 5, 10 + s),
    notes: '',
    status: 'qualified',
    detail: lines.map((l, i) => ({
      line_id: l.line_id,
      price: (30 + ((i * 7 + s * 13 + n) % 17) + s / 100).toFixed(2),
      docs: [],
    })),
    attachments: [],
  }));
  return buildComparison({
    rfq: {
      _id: rfqId,
      rfq_no: 9000 + n,
      title: `Bench award ${n}`,
      status: 'Active',
      required_date: Date.UTC(2026, 6, 1),
      lines,
    },
    state: 'closed',
    quotations,
    requisition: { key: String(4_500_000 + n), sourceFile: 'bench.csv', profile: 'sap-me5a-en' },
    generatedAt: new Date(Date.UTC(2026, 5, 16, 7, 30)),
    timeZone: 'Europe/Berlin',
    currency: 'EUR',
    version: 1,
    productCodes: Object.fromEntries(
      lines.filter((_, i) => i % 2 === 0).map((l) => [l.external_id, `MAT-${l.line_id}`]),
    ),
  });
}

const dir = await mkdtemp(join(tmpdir(), 'rfq-bench-erp-'));
try {
  const xref = writeXref(
    join(dir, 'vendor-xref.csv'),
    SUPPLIERS.map((name, i) => ({
      supplier_key: String(100 + i),
      supplier_name: name,
      erp_vendor_id: `00001${i}0000`,
      erp_vendor_site: 'MAIN',
    })),
  );
  const config = loadConfig(
    { RFQ_SYNC_DIR: dir, ERP_OUTPUTS: args.profiles, VENDOR_XREF_FILE: xref, ...ERP_SETTINGS },
    { requireToken: false },
  );
  const outputs = (await loadErpOutputs(config))!;
  const models = Array.from({ length: AWARDS }, (_, n) => model(n));
  const splits = models.map((m) => new Set(m.lines.map((l) => l.award?.supplier)).size);
  if (models.some((m) => !m.award.final)) throw new TypeError('bench awards must be final');

  // the baseline: the award file of each award, as the comparison job writes it
  let t0 = performance.now();
  let baseBytes = 0;
  for (const [n, m] of models.entries()) {
    const text = awardCsv(m);
    baseBytes += Buffer.byteLength(text);
    await writeFileAtomically(join(config.folders.awards, `RFQ-${9000 + n}-${70_000 + n}-v1.csv`), text);
  }
  const baseMs = performance.now() - t0;

  const perProfile = new Map<string, number>();
  let files = 0;
  let bytes = 0;
  t0 = performance.now();
  for (const m of models) {
    const plan = await planErpFiles(outputs, erpAwardOf(m));
    if (!plan.files) throw new TypeError('held');
    for (const f of plan.files) {
      const s = performance.now();
      await writeFileAtomically(f.path, f.data);
      perProfile.set(f.profile, (perProfile.get(f.profile) ?? 0) + performance.now() - s);
      files++;
      bytes += f.data.length;
    }
  }
  const erpMs = performance.now() - t0;
  // each profile alone (plan and write), for the share
  const alone: Array<[string, number]> = [];
  for (const p of outputs.profiles) {
    const one = { ...outputs, profiles: [p] };
    const s = performance.now();
    for (const m of models.slice(0, 200))
      for (const f of (await planErpFiles(one, erpAwardOf(m))).files!) await writeFileAtomically(f.path, f.data);
    alone.push([p.name, ((performance.now() - s) / 200) * AWARDS]);
  }

  const fmt = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  console.log(
    `ERP outputs, ${AWARDS} final awards x ${LINES} lines (${Math.min(...splits)}-${Math.max(...splits)} POs each)`,
  );
  console.log(`  settings: ERP_OUTPUTS=${args.profiles}`);
  console.log(
    `  award CSV (baseline):  ${fmt(baseMs)}  ${AWARDS} files, ${(baseBytes / 1024).toFixed(0)} KiB, ${(baseMs / AWARDS).toFixed(2)} ms per award`,
  );
  console.log(
    `  ERP outputs:           ${fmt(erpMs)}  ${files} files, ${(bytes / 1024).toFixed(0)} KiB, ${(erpMs / AWARDS).toFixed(2)} ms per award (${(erpMs / outputs.profiles.length / AWARDS).toFixed(2)} ms per award and profile)`,
  );
  console.log(
    `  ratio ERP / award CSV: ${(erpMs / baseMs).toFixed(2)}x for ${outputs.profiles.length} profiles (${(erpMs / baseMs / outputs.profiles.length).toFixed(2)}x per profile)`,
  );
  console.log('  per profile, alone (200 awards, scaled to all):');
  for (const [name, ms] of alone.sort((a, b) => b[1] - a[1]))
    console.log(`    ${name.padEnd(20)} ${fmt(ms)}  ${(ms / baseMs).toFixed(2)}x the award CSV`);
} finally {
  await rm(dir, { recursive: true, force: true });
}
