/**
 * `npm run docs:picture`: renders page 1 of a comparison as docs/comparison.md shows it, to docs/comparison-page1.png,
 * from a real run: a private redis-server, the built-in sandbox, the whole pipeline (inbox, ingest, create, poll,
 * quotations, comparison). Two requisitions of the same 25 products (generic template, EUR): the first is quoted
 * by five suppliers and awarded, then the second, whose workbook shows the first award as the last price paid.
 * Its Comparison sheet is printed to PDF by LibreOffice as the workbook sets it up (one landscape A4 page), page 1
 * rendered as a PNG at 100 dpi. Needs soffice, pdftoppm and Carlito (Debian: libreoffice-calc-nogui poppler-utils
 * fonts-crosextra-carlito).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startPipeline } from '../app/runtime/pipeline-runner.ts';
import { resolveRuntime } from '../app/runtime/endpoints.ts';
import { loadConfig } from '../src/settings/config.ts';
import { createLogger } from '../src/core/logger.ts';

const target = fileURLToPath(new URL('./comparison-page1.png', import.meta.url));
const dir = await mkdtemp(join(tmpdir(), 'rfq-docs-picture-'));
const PRODUCTS = [
  ['Ball valve DN 25 PN 40', 'stainless 1.4408, female thread', 'pc', 48.9],
  ['Hydraulic pump HP-220', 'cast iron, 220 bar', 'pc', 1140],
  ['Seal kit NBR', 'for HP-220', 'set', 53],
  ['Ball bearing 6204-2RS', 'sealed both sides', 'pc', 6.6],
  ['Conveyor belt 800 mm', 'EP 400/3, per metre', 'm', 79],
  ['Gear motor 1.5 kW', 'IE3, 400 V', 'pc', 412],
  ['Safety gloves', 'cut level C, size 9', 'pair', 4.2],
  ['Stainless bolts M12x60', 'A4-80, DIN 933', 'box', 38],
  ['Frequency inverter 4 kW', 'IP20, EMC filter', 'pc', 530],
  ['Pneumatic cylinder 50/200', 'ISO 15552', 'pc', 144],
  ['Cable NYM-J 5x2.5', 'drum of 100 m', 'drum', 157],
  ['Proximity sensor M18', 'PNP, 8 mm', 'pc', 31],
  ['Contactor 18 A', '230 V AC coil', 'pc', 27.5],
  ['Circuit breaker C16', '3-pole, 10 kA', 'pc', 22],
  ['Hose DN 19', 'hydraulic 2SN, per metre', 'm', 11.9],
  ['Grease cartridge 400 g', 'lithium EP2', 'pc', 5.8],
  ['V-belt SPA 1250', 'wrapped', 'pc', 9.4],
  ['Coupling insert', 'for ROTEX 28', 'pc', 12.2],
  ['Filter element', '10 µm, for HF 120', 'pc', 46],
  ['Pressure gauge 0-250 bar', 'glycerine filled, G1/4', 'pc', 24],
  ['LED panel 60x60', '4000 K, 36 W', 'pc', 39],
  ['Cable ties 300 mm', 'black, UV stable, 100 pcs', 'bag', 6.1],
  ['Work boots S3', 'size 43', 'pair', 71],
  ['Ear plugs', 'SNR 37 dB, 200 pairs', 'box', 29],
  ['Marking spray', 'fluorescent red, 500 ml', 'can', 7.9],
] as const;
const SUPPLIERS = [
  'Nordic Industrial Supply AB',
  'Hanse Technik GmbH',
  'Bürotechnik Müller & Söhne KG',
  'Rhein-Main Antriebe GmbH',
  'TechPartner Solutions',
];

/** A generic-template CSV: one requisition of the 25 products. */
function requisitionCsv(pr: string, title: string): string {
  const head =
    'Requisition,Line,Item,Specification,UoM,Qty,Estimated Total,Title,Description,Due Date,Required Date,RFQ Type,Category,Location';
  const rows = PRODUCTS.map(([item, spec, uom, price], i) => {
    const qty = 10 + ((i * 7) % 40);
    const total = Math.round(qty * price * 1.05);
    return [pr, i + 1, item, `"${spec}"`, uom, qty, total, title, 'Plant spares', '2027-03-01', '2027-04-01', 'Public']
      .concat(['Components', 'Plant 1000'])
      .join(',');
  });
  return `${[head, ...rows].join('\n')}\n`;
}

const config = loadConfig({
  RFQ_SYNC_DIR: dir,
  POLL_CRON: '*/1 * * * * *',
  SWEEP_CRON: '*/1 * * * * *',
  FILE_STABLE_MS: '200',
  HTTP_PORT: '0',
  LOG_LEVEL: 'error',
  TIME_ZONE: 'Europe/Berlin',
  REQUISITION_CURRENCY: 'EUR',
});
const logger = createLogger({ level: 'error', stderr: true });
const runtime = await resolveRuntime(config, logger, { allowEmbedded: true, command: 'demo', sandbox: { seed: 7 } });
const pipeline = await startPipeline(config, logger, runtime, { worker: { drainDelaySeconds: 1 } });
const control = runtime.sandbox!.control;

async function until<T>(what: string, fn: () => T | undefined, timeoutMs = 120_000): Promise<T> {
  const t0 = Date.now();
  for (;;) {
    const v = fn();
    if (v !== undefined) return v;
    if (Date.now() - t0 > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Drops the requisition in the inbox, quotes it (five suppliers, all qualified), closes it: a final award. */
async function award(pr: string, title: string, round: number): Promise<string> {
  await writeFile(join(config.folders.inbox, `${pr}.csv`), requisitionCsv(pr, title));
  const rfq = await until(`the RFQ of ${pr}`, () => control.listAll().find((r) => r.title === title));
  SUPPLIERS.forEach((sup_name, s) => {
    const prices = Object.fromEntries(
      rfq.lines.map((l, i) => {
        const base = PRODUCTS[i]![3];
        const factor = 0.92 + ((s * 5 + i * 3 + round * 2) % 13) / 100;
        return [l.line_id, (base * factor).toFixed(2)];
      }),
    );
    const q = control.submitQuotation(rfq._id, { sup_name, prices });
    control.decide(rfq._id, String(q.quotation_key), true);
  });
  control.advance(rfq._id, 'closed');
  const awards = config.folders.awards;
  await until(`the award file of ${pr}`, () =>
    existsSync(awards) ? readdirSync(awards).find((f) => f.includes(`RFQ-${rfq.rfq_no ?? rfq._id}`)) : undefined,
  );
  return readdirSync(config.folders.comparisons).find((f) => f.includes(`RFQ-${rfq.rfq_no ?? rfq._id}`))!;
}

try {
  await award('PR-2026-0311', 'Maintenance spares Q4 2026', 0);
  const workbook = await award('PR-2027-0042', 'Maintenance spares Q1 2027', 1);
  const xlsx = join(dir, 'comparison.xlsx');
  await copyFile(join(config.folders.comparisons, workbook), xlsx);
  const profile = `-env:UserInstallation=${pathToFileURL(join(dir, 'profile')).href}`;
  execFileSync('soffice', [profile, '--headless', '--convert-to', 'pdf', '--outdir', dir, xlsx], {
    stdio: 'ignore',
    timeout: 180_000,
  });
  execFileSync('pdftoppm', [
    '-f',
    '1',
    '-l',
    '1',
    '-r',
    '100',
    '-png',
    '-singlefile',
    join(dir, 'comparison.pdf'),
    join(dir, 'page1'),
  ]);
  await copyFile(join(dir, 'page1.png'), target);
  console.log(`wrote ${target} (page 1 of ${workbook})`);
} finally {
  await pipeline.stop(10_000);
  await runtime.stop();
  await rm(dir, { recursive: true, force: true });
}
