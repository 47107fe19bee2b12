/**
 * E-mail notifications for procurement (docs/notifications.md): a real SMTP server in the test (smtp-server) that
 * takes AUTH only after STARTTLS, the password read from a file, the messages parsed back with mailparser. Real
 * Redis, the sandbox over HTTP, the project's poll, quotations, comparison and notify jobs. Routes filter by
 * location: each buyer gets the RFQs of their plant, the workbook attached byte for byte (or named by its path above
 * the channel's cap), the award summary in the body, and no secret anywhere.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Worker, type Job } from 'bullmq';
import { afterEach, describe, expect, it } from 'vitest';
import { processNotify } from '../../jobs/notify.ts';
import { trackRfq } from '../../src/tracking/rfq-tracker.ts';
import { trackedRfq } from '../../src/tracking/status.ts';
import { pollingHarness, type PollingHarness } from '../helpers/polling.ts';
import { usePipeline } from '../helpers/pipeline.ts';
import { waitForQueue } from '../helpers/job-counts.ts';
import { localhostTls, secretFile, startSmtpCatcher, type CaughtMail, type SmtpCatcher } from '../helpers/notify.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { QUEUE_NAMES } from '../../src/queues/index.ts';

const pipeline = usePipeline({ sandbox: { pageSize: 5 } });
const SMTP_PASSWORD = 'smtp-Pa55word-in-a-file';
let h: PollingHarness | undefined;
let smtp: SmtpCatcher | undefined;
let notifyWorker: Worker | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await notifyWorker?.close();
  await h?.close();
  await smtp?.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  h = smtp = notifyWorker = undefined;
});

async function createRfqIn(harness: PollingHarness, title: string, location: string, lines: number): Promise<number> {
  const { _id } = await harness.ctx.client.createRfq({
    title,
    due_date: String(Date.UTC(2031, 0, 15)),
    rfq_type: 'Public',
    rfq_category: 'Pumps',
    rfq_location: location,
    lines: Array.from({ length: lines }, (_, i) => ({
      product_name: `Item ${i + 1}`,
      qty: (i + 1) * 2,
      estimated_price: (i + 1) * 100,
      external_id: `${title}-${i + 1}`,
    })),
  });
  await trackRfq(harness.ctx, {
    rfqId: _id,
    requisition: { key: title, sourceFile: `${title}.csv`, profile: 'generic', title },
  });
  return _id;
}

const mailsTo = (mails: CaughtMail[], who: string) => mails.filter((m) => m.to.includes(who));

describe('e-mail notifications', () => {
  it('over STARTTLS with AUTH: per route its recipients, subject, text and HTML, the workbook attached byte-identical or by path above the cap, the award summary', async () => {
    smtp = await startSmtpCatcher({ users: { 'rfq-sync': SMTP_PASSWORD } });
    const dir = tempDir('rfq-notify-mail-');
    dirs.push(dir);
    const mail = {
      type: 'smtp',
      host: 'localhost',
      port: smtp.port,
      user: 'rfq-sync',
      password_file: secretFile(dir, 'smtp-password', SMTP_PASSWORD),
      from: 'rfq-sync <rfq-sync@example.com>',
      ca_file: localhostTls().certFile,
      timeout_ms: 5_000,
    };
    h = await pollingHarness({
      redisUrl: pipeline.redisUrl,
      sandbox: pipeline.sandbox,
      env: {
        NOTIFY_MIN_QUOTATIONS: '2',
        NOTIFY_CHANNELS: JSON.stringify({ mail, 'mail-small': { ...mail, attach_max_bytes: 1000 } }),
        NOTIFY_ROUTES: JSON.stringify({
          plant1: {
            channel: 'mail',
            to: ['buyer1@example.com', 'lead@example.com'],
            events: ['comparison-ready', 'award-final'],
            locations: ['Plant 1'],
            digest: 'immediate',
          },
          plant2: {
            channel: 'mail-small',
            to: 'buyer2@example.com',
            events: ['procurement'],
            locations: ['Plant 2'],
            digest: 'immediate',
          },
        }),
      },
    });
    const ctx = h.ctx;
    notifyWorker = new Worker(QUEUE_NAMES.notify, (job: Job) => processNotify(ctx, job), {
      connection: ctx.connection,
      prefix: ctx.bullPrefix,
    });
    notifyWorker.on('error', () => undefined);
    const ctl = pipeline.sandbox.control;
    const a = await createRfqIn(h, 'Pumps A', 'Plant 1', 2);
    const b = await createRfqIn(h, 'Pumps B', 'Plant 2', 1);
    const [a1, a2] = ctl.getRfq(a)!.lines.map((l) => l.line_id);
    const cheap = ctl.submitQuotation(a, { sup_name: 'Cheap', prices: { [a1!]: '5', [a2!]: '6' } });
    const solid = ctl.submitQuotation(a, { sup_name: 'Solid', prices: { [a1!]: '7', [a2!]: '8' } });
    ctl.submitQuotation(b, { sup_name: 'Lonely', prices: { [ctl.getRfq(b)!.lines[0]!.line_id]: '9' } });
    await h.pollAndSettle();
    ctl.advance(a, 'closed');
    ctl.advance(b, 'closed');
    await h.pollAndSettle();
    // plant 1: comparison v1 of A; plant 2: comparison v1 of B and its low response (1 quotation, fewer than 2)
    await smtp.waitFor(3);
    ctl.decide(a, String(cheap.quotation_key), false);
    ctl.decide(a, String(solid.quotation_key), true);
    await h.pollAndSettle();
    // plant 1: comparison v2 of A (final) and the award
    const mails = await smtp.waitFor(5);
    // nothing more arrives: every job that could send has run (the pipeline's queues and the notify queue idle)
    await waitForQueue([ctx.queues.poll, ctx.queues.quotations, ctx.queues.comparison, ctx.queues.notify]);
    expect(mails).toHaveLength(5);

    for (const m of mails) {
      expect(m.secure, 'STARTTLS before the message').toBe(true);
      expect(m.user, 'AUTH').toBe('rfq-sync');
      expect(m.parsed.from?.value[0]).toMatchObject({ name: 'rfq-sync', address: 'rfq-sync@example.com' });
      const raw = m.raw.toString('latin1');
      expect(raw).not.toContain(SMTP_PASSWORD);
      expect(raw).not.toContain('sandbox-token');
      expect(m.parsed.html).toBeTruthy();
      expect(m.parsed.html).not.toMatch(/<img|<script|\ssrc=|https?:\/\//i);
      expect(m.parsed.headers.get('auto-submitted')).toBe('auto-generated');
    }

    const recA = (await trackedRfq(ctx, a))!;
    const rfqNoA = pipeline.sandbox.control.getRfq(a)!.rfq_no;
    const plant1 = mailsTo(mails, 'buyer1@example.com');
    expect(plant1.map((m) => m.to)).toEqual([
      ['buyer1@example.com', 'lead@example.com'],
      ['buyer1@example.com', 'lead@example.com'],
      ['buyer1@example.com', 'lead@example.com'],
    ]);
    const v1 = plant1.find((m) => m.parsed.subject?.includes('comparison v1'))!;
    expect(v1.parsed.subject).toBe(`[rfq-sync] RFQ ${rfqNoA} "Pumps A": comparison v1 ready, 2 quotations (closed)`);
    expect(v1.parsed.text).toContain('Location: Plant 1');
    expect(v1.parsed.text).toContain('Award: draft');
    expect(v1.parsed.text).toMatch(/Workbook: .+-v1\.xlsx \(attached\)\n/);
    expect(v1.parsed.html).toContain('comparison v1 ready');
    expect(v1.parsed.attachments).toHaveLength(1);
    const v1Path = join(ctx.config.folders.comparisons, v1.parsed.attachments[0]!.filename!);
    expect(v1.parsed.attachments[0]!.filename).toMatch(/-v1\.xlsx$/);
    expect(Buffer.compare(v1.parsed.attachments[0]!.content, readFileSync(v1Path))).toBe(0);

    const award = plant1.find((m) => m.parsed.subject?.includes('award final'))!;
    expect(award.parsed.subject).toBe(`[rfq-sync] RFQ ${rfqNoA} "Pumps A": award final, 46.00 to Solid`);
    expect(award.parsed.text).toContain('Awarded: 2 of 2 lines, 46.00');
    expect(award.parsed.text).toContain('Supplier: Solid: 2 lines, 46.00');
    expect(award.parsed.text).toContain(`Award file: ${join(ctx.config.folders.awards, recA.comparison!.awardCsv!)}`);
    expect(award.parsed.attachments).toHaveLength(0);
    const v2 = plant1.find((m) => m.parsed.subject?.includes('comparison v2'))!;
    expect(v2.parsed.text).toContain('Award: final');
    expect(
      Buffer.compare(
        v2.parsed.attachments[0]!.content,
        readFileSync(join(ctx.config.folders.comparisons, recA.comparison!.workbook)),
      ),
    ).toBe(0);

    const plant2 = mailsTo(mails, 'buyer2@example.com');
    expect(plant2.map((m) => m.to)).toEqual([['buyer2@example.com'], ['buyer2@example.com']]);
    const bWorkbook = (await trackedRfq(ctx, b))!.comparison!.workbook;
    const bMail = plant2.find((m) => m.parsed.subject?.includes('comparison v1'))!;
    expect(bMail.parsed.attachments, 'above the 1,000-byte cap').toHaveLength(0);
    expect(bMail.parsed.text).toContain(`Workbook: ${join(ctx.config.folders.comparisons, bWorkbook)}\n`);
    const low = plant2.find((m) => m.parsed.subject?.includes('fewer than 2'))!;
    expect(low.parsed.subject).toMatch(/"Pumps B" closed with 1 quotation \(fewer than 2\)$/);
  });
});
