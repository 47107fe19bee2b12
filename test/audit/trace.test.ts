/**
 * "Where is my requisition?" end to end: the shipped `rfq-sync worker` runs a sample export to its award against
 * the sandbox (quotations, close, winner, completion driven by the sandbox's control, as the demo's autopilot does),
 * and tells procurement of the award (a webhook route).
 * Then, on that run:
 *   - `rfq-sync trace <external_id>` prints the timeline from the file to the award; each step is asserted, in
 *     order, against what the run did (the file's sha256, the RFQ the sandbox holds, the transitions, the workbooks
 *     and the award file on disk and their sha256, the message sent);
 *   - the lookup page, in a real browser (Debian's chromium driven by playwright-core, no download): the dashboard
 *     links it, a search for the external_id shows the same steps (RFQ_SYNC_DOCS_PICTURE=1 writes the screenshot
 *     of docs/operations.md);
 *   - Redis stopped: trace answers from the log alone and says that Redis is down.
 */
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join, resolve } from 'node:path';
import { Decimal } from 'decimal.js';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpReceiver, type HttpReceiver } from '../helpers/notify.ts';
import { SAMPLES_DIR } from '../helpers/samples.ts';
import { readAwardCsv } from '../helpers/files.ts';
import { usePipeline } from '../helpers/pipeline.ts';
import type { WorkerChild } from '../helpers/worker-child.ts';
import { spawnCli } from '../helpers/cli.ts';
import { freePort, waitFor } from '../helpers/wait.ts';
import type { Timeline } from '../../src/audit/timeline.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import type { StoredRfq } from '../../src/sandbox/store.ts';
import { auditLogFiles } from '../helpers/audit-files.ts';

const pipeline = usePipeline({ tag: 'trace', scope: 'file' });
const cmpDir = () => join(pipeline.data.outbox, 'comparisons');
const awardDir = () => join(pipeline.data.outbox, 'awards');
const ls = (dir: string) => (existsSync(dir) ? readdirSync(dir) : []);
const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');
const SHARE = '\\\\fileserver\\rfq-sync\\outbox';
const ID = 'GEN-2027-0001-1';

async function trace(...args: string[]): Promise<{ code: number | null; out: string }> {
  const run = spawnCli(['trace', ...args], env);
  const { code } = await run.exited;
  return { code, out: run.output() };
}
const json = (out: string) => JSON.parse(out.slice(out.indexOf('{'))) as Timeline;

let env: Record<string, string>;
let worker: WorkerChild;
let ops: string;
let rfq: StoredRfq;
let hook: HttpReceiver | undefined;
const comparisons = () =>
  ls(cmpDir())
    .filter((f) => f.includes(`-${rfq._id}-`))
    .sort();
const awards = () => ls(awardDir()).filter((f) => f.includes(`-${rfq._id}-`) && f.endsWith('.csv'));

beforeAll(async () => {
  const port = await freePort();
  hook = await startHttpReceiver();
  env = pipeline.workerEnv({
    LOG_LEVEL: 'info',
    HTTP_PORT: String(port),
    NOTIFY_OUTBOX_SHOWN_AS: SHARE,
    // procurement is told of the award: the message is a step of the timeline too
    NOTIFY_CHANNELS: JSON.stringify({ hook: { type: 'webhook', url: `${hook.url}/buyers` } }),
    NOTIFY_ROUTES: JSON.stringify({ buyers: { channel: 'hook', events: ['award-final'], digest: 'immediate' } }),
  });
  ops = `http://127.0.0.1:${port}`;
  worker = await pipeline.spawnWorker(env);
  const staged = join(pipeline.staging, 'generic-template.csv');
  copyFileSync(join(SAMPLES_DIR, 'generic-template.csv'), staged);
  renameSync(staged, join(pipeline.data.inbox, 'generic-template.csv'));

  const ctl = pipeline.sandbox.control;
  rfq = await waitFor('the RFQ of GEN-2027-0001', () =>
    ctl.listAll().find((r) => r.lines.some((l) => l.external_id === ID)),
  );
  const lines = rfq.lines.map((l) => l.line_id);
  const quote = (price: string) => Object.fromEntries(lines.map((l) => [l, price]));
  const acme = ctl.submitQuotation(rfq._id, { sup_name: 'Acme', prices: quote('100') });
  ctl.submitQuotation(rfq._id, { sup_name: 'Bolt', prices: quote('120') });
  // seen open first (a poll), then closed: workbook v1; then completed with Acme: the award
  await waitFor('the RFQ seen open', async () => (await trace(ID)).out.includes('created -> open'), 60_000);
  ctl.advance(rfq._id, 'closed');
  await waitFor('workbook v1', () => comparisons().length >= 1, 60_000);
  ctl.pickWinner(rfq._id, String(acme.quotation_key));
  ctl.advance(rfq._id, 'completed');
  await waitFor('the award file', () => awards().length >= 1, 60_000);
  await waitFor('the award notice logged', async () => (await trace(ID)).out.includes('notification-sent'), 60_000);
}, 180_000);
afterAll(async () => {
  await hook?.close();
});

type Step = Timeline['steps'][number];

/** The milestones from file to award, in this order (other steps may come between them). */
function milestones(): Array<[string, (s: Step) => boolean]> {
  return [
    [
      'file taken',
      (s) =>
        s.event === 'file-taken' && s.summary.includes(sha256(join(SAMPLES_DIR, 'generic-template.csv')).slice(0, 12)),
    ],
    ['accepted', (s) => s.event === 'requisition-accepted' && s.requisition === 'generic/GEN-2027-0001'],
    [
      'created',
      (s) => s.event === 'create-sent' && s.rfq_id === rfq._id && s.summary.startsWith(`RFQ ${rfq._id} created`),
    ],
    ['open', (s) => s.event === 'transition' && s.summary.includes('created -> open')],
    ['closed', (s) => s.event === 'transition' && s.summary.includes('open -> closed')],
    [
      'pulled',
      (s) => s.event === 'quotations-pulled' && s.summary.startsWith(`2 quotation(s) pulled for RFQ ${rfq._id}`),
    ],
    ['v1', (s) => s.event === 'comparison-written' && s.files?.workbook === join(cmpDir(), comparisons()[0]!)],
    ['completed', (s) => s.event === 'transition' && s.summary.includes('closed -> completed')],
    [
      'award',
      (s) =>
        s.event === 'award-final' && s.files?.award === join(awardDir(), awards()[0]!) && s.summary.includes('Acme'),
    ],
    [
      'notified',
      (s) => s.event === 'notification-sent' && s.summary.includes('award-final') && s.summary.includes('route buyers'),
    ],
  ];
}

function expectInOrder(steps: Step[]): void {
  let at = -1;
  for (const [name, match] of milestones()) {
    const next = steps.findIndex((s, j) => j > at && match(s));
    expect(next, `${name} after step ${at}: ${JSON.stringify(steps, null, 1)}`).toBeGreaterThan(at);
    at = next;
  }
}

describe('rfq-sync trace', () => {
  it('prints the timeline of an external_id from the file to the award, each step as the run did it', async () => {
    const { code, out } = await trace(ID, '--json');
    expect(code, out).toBe(0);
    const t = json(out);
    expect(t.source).toEqual({ redis: 'up' });
    expect(t.requisitions).toEqual(['generic/GEN-2027-0001']);
    expect(t.rfqIds).toEqual([rfq._id]);
    expect(t.files).toEqual(['generic-template.csv']);
    expect(t.pending).toEqual([]);
    expectInOrder(t.steps);
    expect(t.steps.filter((s) => s.event === 'file-read')).toHaveLength(1);
    expect(t.steps.every((s, i) => i === 0 || t.steps[i - 1]!.at <= s.at)).toBe(true);
    // other requisitions of the same file are not in its timeline
    expect(t.steps.some((s) => s.requisition === 'generic/GEN-2027-0002')).toBe(false);

    // the raw lines carry the identity and the files' hashes as written, and no secret
    const dir = join(pipeline.data.root, 'audit');
    const raw = auditLogFiles(dir).flatMap((f) =>
      readFileSync(join(dir, f), 'utf8')
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>),
    );
    const csv = readAwardCsv(join(awardDir(), awards()[0]!));
    expect(csv).toHaveLength(3);
    expect(raw.find((l) => l.event === 'award-final' && l.rfq_id === rfq._id)).toMatchObject({
      profile: 'generic',
      key: 'GEN-2027-0001',
      external_ids: ['GEN-2027-0001-1', 'GEN-2027-0001-2', 'GEN-2027-0001-3'],
      rfq_no: rfq.rfq_no,
      sha256: sha256(join(awardDir(), awards()[0]!)),
      lines: csv.map((r) => ({ external_id: r.external_id, supplier: 'Acme', line_total: r.line_total })),
      totals: { [csv[0]!.currency || 'XXX']: csv.reduce((a, r) => a.plus(r.line_total!), new Decimal(0)).toFixed(2) },
    });
    for (const w of raw.filter((l) => l.event === 'comparison-written' && l.rfq_id === rfq._id))
      expect(w.sha256).toBe(sha256(w.workbook as string));
    expect(JSON.stringify(raw)).not.toContain(pipeline.token);

    // the same as text, and by the RFQ's number or the file's name
    const text = await trace(ID);
    expect(text.out).toMatch(/from the audit log and Redis's current state/);
    expect(text.out).toMatch(/pending: nothing \(the award is final\)/);
    expect(json((await trace(String(rfq._id), '--json')).out).requisitions).toEqual(['generic/GEN-2027-0001']);
    const byFile = json((await trace('generic-template.csv', '--json')).out);
    expect(byFile.requisitions).toEqual(['generic/GEN-2027-0001', 'generic/GEN-2027-0002', 'generic/GEN-2027-0003']);
  });

  it(
    'shows the same timeline on the lookup page of the dashboard, in a real browser',
    { timeout: 120_000 },
    async () => {
      const profile = tempDir('rfq-sync-chromium-');
      const browser = await chromium.launchPersistentContext(profile, {
        executablePath: '/usr/bin/chromium',
        headless: true,
        args: [
          '--headless',
          '--no-sandbox',
          '--disable-gpu',
          '--disable-quic',
          '--no-first-run',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
        ],
        viewport: { width: 1280, height: 900 },
      });
      try {
        const page = await browser.newPage();
        const scripts: string[] = [];
        page.on('request', (r) => {
          if (!r.url().startsWith(ops)) scripts.push(r.url());
        });
        await page.goto(`${ops}/queues`);
        // the dashboard's header menu links the lookup page
        await page.locator('header button[aria-haspopup="menu"]').click();
        await page.getByRole('menuitem', { name: 'Where is my requisition?' }).click();
        await page.waitForURL(`${ops}/trace`);
        scripts.length = 0; // the lookup page itself loads nothing from elsewhere (Bull Board's page loads its fonts)
        await page.getByRole('searchbox').fill(ID);
        await page.getByRole('button', { name: 'Trace' }).click();
        await page.waitForSelector('#timeline');
        expect(page.url()).toBe(`${ops}/trace?q=${ID}`);
        const rows = await page.locator('#timeline tbody tr').evaluateAll((trs) =>
          trs.map((tr) => ({
            event: tr.getAttribute('data-event')!,
            summary: tr.querySelectorAll('td')[2]?.firstChild?.textContent ?? '',
            text: tr.textContent ?? '',
            links: [...tr.querySelectorAll('a')].map((a) => a.getAttribute('href')!),
          })),
        );
        const cli = json((await trace(ID, '--json')).out);
        expect(rows.map((r) => r.event)).toEqual(cli.steps.map((s) => s.event));
        expectInOrder(rows.map((r, i) => ({ ...cli.steps[i]!, summary: r.summary })));
        // the workbook and award file are shown and linked where people reach the outbox
        const award = rows.find((r) => r.event === 'award-final')!;
        expect(award.text).toContain(`${SHARE}\\awards\\${awards()[0]}`);
        expect(award.links).toEqual([encodeURI(`file://fileserver/rfq-sync/outbox/awards/${awards()[0]}`)]);
        expect(await page.locator('.pending').innerText()).toBe('Nothing: the award is final.');
        expect(scripts).toEqual([]);
        const shot = await page.screenshot({ fullPage: true });
        expect(shot.subarray(1, 4).toString()).toBe('PNG');
        if (process.env.RFQ_SYNC_DOCS_PICTURE === '1')
          copyFileSync(await writeTemp(shot), resolve(import.meta.dirname, '../../docs/trace-page.png'));
      } finally {
        await browser.close();
        rmSync(profile, { recursive: true, force: true });
      }
    },
  );

  it('says why a requisition held back at ingest has no RFQ', async () => {
    const header = readFileSync(join(SAMPLES_DIR, 'generic-template.csv'), 'utf8').split('\n')[0]!;
    const row = 'HELD-1,1,Widget,,pc,many,100,Held one,,2027-01-29,2027-02-26,Public,Office supplies,Head office';
    writeFileSync(join(pipeline.staging, 'held.csv'), `${header}\n${row}\n`);
    renameSync(join(pipeline.staging, 'held.csv'), join(pipeline.data.inbox, 'held.csv'));
    const t = await waitFor(
      'the held requisition logged',
      async () => {
        const r = await trace('generic/HELD-1', '--json');
        return r.code === 0 ? json(r.out) : undefined;
      },
      20_000,
    );
    expect(t.steps.map((s) => s.event)).toEqual(['file-taken', 'file-read', 'requisition-held']);
    expect(t.pending).toEqual([
      expect.stringMatching(/^generic\/HELD-1: held back when held\.csv was read: .*Qty.*many.* \(fix it in the ERP/),
    ]);
  });

  it("the lookup page is read-only and under the endpoint's Host check", async () => {
    const ask = (method: string, host: string) =>
      new Promise<number>((done, fail) => {
        const req = request(`${ops}/trace?q=${ID}`, { method, headers: { host } }, (res) => {
          res.resume();
          done(res.statusCode ?? 0);
        });
        req.on('error', fail);
        req.end();
      });
    expect(await ask('GET', `127.0.0.1:${new URL(ops).port}`)).toBe(200);
    expect(await ask('GET', 'attacker.example')).toBe(421); // a DNS-rebinding page names its own host
    expect(await ask('POST', `127.0.0.1:${new URL(ops).port}`)).toBe(403); // no HTTP_TOKEN: nothing changes state
  });

  it('answers from the audit log alone with Redis stopped, and says so', async () => {
    const before = json((await trace(ID, '--json')).out);
    await worker.kill('SIGTERM');
    await pipeline.redis.stop();
    try {
      const down = await trace(ID, '--json');
      expect(down.code, down.out).toBe(0);
      const d = json(down.out);
      expect(d.source.redis).toBe('down');
      expect(d.steps).toEqual(before.steps);
      const plain = await trace(String(rfq._id));
      expect(plain.out).toMatch(/Redis is down \(.+\); answered from the audit log alone/);
      expect(plain.out).toContain('award-final');
    } finally {
      await pipeline.redis.restart();
    }
  });
});

async function writeTemp(png: Buffer): Promise<string> {
  const { writeFile } = await import('node:fs/promises');
  const p = join(tempDir('rfq-sync-shot-'), 'trace-page.png');
  await writeFile(p, png);
  return p;
}
