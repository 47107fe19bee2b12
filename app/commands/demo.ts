/**
 * `npm run demo`: the whole loop on one machine with nothing configured. A private redis-server, the built-in
 * sandbox whose autopilot plays the suppliers (quotes, closes and completes RFQs within seconds), the shipped
 * samples copied into a fresh inbox, the worker, the watcher, a poll every 2 s and the sandbox's webhooks waking it
 * on every state change; progress is printed as it goes
 * and the run ends by printing the comparison workbooks, award files and the ERP's purchase-order files of two output
 * profiles (with the demo's own vendor cross-reference, erp-outputs/demo-vendor-xref.csv) it wrote, then shuts down
 * cleanly.
 * The user's own environment (REDIS_URL, SOURCING_BASE_URL...) is deliberately ignored: a demo never touches a
 * real installation.
 */
import { randomBytes } from 'node:crypto';
import { cp, mkdir, readdir } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import type { Job } from 'bullmq';
import { PACKAGE_ROOT, loadConfig, type Config } from '../../src/settings/index.ts';
import type { WorkerContext } from '../../jobs/index.ts';
import { createLogger, type Logger } from '../../src/core/index.ts';
import { pendingWork, trackingStatus, actOnWebhook } from '../../src/tracking/index.ts';
import {
  webhookOutcome,
  startOpsServer,
  type OpsServer,
  createMetrics,
  type OpsMetrics,
  traceLookupFor,
} from '../http/index.ts';
import type { JobResults } from '../../jobs/index.ts';
import { pollSlotKind, QUEUE_NAMES } from '../../src/queues/index.ts';
import { EXIT_FAILED, EXIT_OK, out } from '../cli-support.ts';
import {
  startPipeline,
  unfinishedJobs,
  type RunningPipeline,
  resolveRuntime,
  type Runtime,
  installShutdown,
} from '../runtime/index.ts';
import { startMailCatcher, type MailCatcher } from './demo-mail-catcher.ts';
import { sendOpenDigestsNow } from '../../src/notify/index.ts';
import { trackingStore } from '../../src/rfqs/index.ts';
import { writeAccountOverview } from '../../src/awarding/index.ts';

export interface DemoOptions {
  /** Parent folder of the run folder. Default ./rfq-sync-demo */
  dir: string;
  /** Give up after this long, ms. Default 110 s. */
  timeoutMs: number;
  /** Keep running after the end (dashboard stays up) until Ctrl-C. */
  stay?: boolean;
  logLevel?: string;
  /** Where progress lines go (tests). */
  write?: (line: string) => void;
  /** The sandbox's record shapes (`legacy`: as older revisions of the real service's documentation show them). */
  shapes?: 'current' | 'legacy';
}

export async function runDemo(o: DemoOptions): Promise<number> {
  const t0 = Date.now();
  const write = o.write ?? out;
  const say = (line: string) => write(`[${((Date.now() - t0) / 1000).toFixed(1).padStart(5)}s] ${line}`);
  const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\..*/, '').replace('T', '-');
  const runDir = resolve(o.dir, `run-${stamp}`);
  const rel = (p: string) => relative(process.cwd(), p) || '.';

  // The notifications go to a mail catcher of the demo's own: each message a .eml file under the run folder.
  const mail = await startMailCatcher(join(runDir, 'mail'));
  const config = loadConfig({
    ...demoNotifications(mail.port),
    RFQ_SYNC_DIR: runDir,
    POLL_CRON: '*/2 * * * * *',
    // the sandbox's webhooks wake the poll on every state change, between the schedule's polls
    WEBHOOK_SECRET: randomBytes(18).toString('base64url'),
    WEBHOOK_MIN_INTERVAL_MS: '500',
    SWEEP_CRON: '*/5 * * * * *',
    FILE_STABLE_MS: '300',
    JOB_BACKOFF_MS: '200',
    // the built-in sandbox answers on this machine, not an account's quota: at the default 10 calls a second the
    // quotation pulls of the 74 RFQs queued behind the limit (58 s a run at load 11; 26 s at 50 a second)
    RATE_LIMIT_PER_SECOND: '50',
    HTTP_PORT: '0',
    LOG_LEVEL: o.logLevel ?? 'warn',
    ...DEMO_ERP,
  });
  const logger = createLogger({ level: config.LOG_LEVEL, stderr: true });
  await mkdir(config.folders.inbox, { recursive: true });

  say('starting a private redis-server and the built-in sandbox (its autopilot plays three suppliers)');
  let runtime: Runtime | undefined;
  let pipeline: RunningPipeline | undefined;
  let ops: OpsServer | undefined;
  const shutdown = installShutdown({
    logger,
    timeoutMs: 10_000,
    steps: () => [
      { name: 'pipeline', run: async () => pipeline?.stop(10_000) },
      { name: 'dashboard', run: async () => ops?.close() },
      { name: 'runtime', run: async () => runtime?.stop() },
      { name: 'mail catcher', run: () => mail.close() },
    ],
  });
  try {
    runtime = await resolveRuntime(config, logger, {
      allowEmbedded: true,
      command: 'demo',
      sandbox: {
        autopilot: { closeAfterMs: 4_000, completeAfterMs: 4_000, suppliersPerRfq: 3, missingLineRate: 0.1 },
        seed: 42,
        shapes: o.shapes ?? 'current',
      },
    });
    say(`redis ${runtime.redisUrl}, sandbox ${runtime.baseUrl}`);
    const metrics = createMetrics();
    let failures = 0;
    pipeline = await startPipeline(config, logger, runtime, {
      // a short idle long-poll, so the demo's last jobs are taken at once
      worker: { drainDelaySeconds: 1 },
      metrics,
      onAdmitted: (r) => {
        if (r.status === 'duplicate') say(`${r.file.original}: same bytes as ${r.first.name}, archived as a duplicate`);
      },
      onJob: (queue, job, result, value) => {
        if (result === 'failed') failures++;
        for (const line of jobProgressLines(queue, job, result, value, rel)) say(line);
      },
    });
    ops = await startDemoEndpoint(config, logger, metrics, pipeline.ctx, runtime, say);
    say(`dashboard ${ops.url}/queues, metrics ${ops.url}/metrics`);
    say(
      `webhooks: the sandbox posts every state change to ${ops.url}/hooks/sourcing/<secret>: the RFQ it names is checked at once`,
    );

    const copied = await copySamples(config.folders.inbox);
    say(`copied ${copied} sample exports into ${rel(config.folders.inbox)}`);

    const ctx = pipeline.ctx;
    const finished = await waitUntilAllDone(ctx, config.folders.inbox, t0 + o.timeoutMs, () => shutdown.stopping);
    if (shutdown.stopping) return shutdown.done;

    const comparisons = await writeSummary(
      ctx,
      config,
      { write, rel },
      { finished, t0, timeoutMs: o.timeoutMs, runDir },
    );
    await tellMails(ctx, mail, write, rel);
    if (o.stay) {
      write(`Dashboard stays up at ${ops.url}/queues; Ctrl-C to stop.`);
      return await shutdown.done;
    }
    return finished && failures === 0 && comparisons > 0 ? EXIT_OK : EXIT_FAILED;
  } finally {
    if (!shutdown.stopping) await shutdown.trigger('demo finished');
    await shutdown.done;
    shutdown.dispose();
  }
}

/** The operations endpoint (dashboard, metrics) with the webhook the demo's sandbox posts its state changes to. */
async function startDemoEndpoint(
  config: Config,
  logger: Logger,
  metrics: OpsMetrics,
  ctx: WorkerContext,
  runtime: Runtime,
  say: (line: string) => void,
): Promise<OpsServer> {
  const ops = await startOpsServer({
    host: '127.0.0.1',
    port: 0,
    logger,
    metrics,
    queues: ctx.queues.all,
    webhook: { secret: config.WEBHOOK_SECRET, maxBodyBytes: config.WEBHOOK_MAX_BODY_BYTES },
  });
  ops.setWebhookTarget(async ({ ids }) => {
    const h = await actOnWebhook(ctx, ids);
    for (const t of h.found)
      if (t.from !== 'created' || t.to !== 'open') say(`RFQ ${t.rfqId}: ${t.from} -> ${t.to} (named by a webhook)`);
    return webhookOutcome(h);
  });
  ops.setLookup(traceLookupFor(config, ctx));
  if (runtime.sandbox) runtime.sandbox.webhooks.url = `${ops.url}/hooks/sourcing/${config.WEBHOOK_SECRET}`;
  return ops;
}

/** What the demo prints about a job that ended: nothing, a line, or (a poll) one line per RFQ that moved on. */
function jobProgressLines(
  queue: string,
  job: Job,
  result: 'completed' | 'failed',
  value: unknown,
  rel: (p: string) => string,
): string[] {
  if (result === 'failed') return [`FAILED ${queue} job ${job.id}: ${(value as Error).message}`];
  const lines: string[] = [];
  if (queue === QUEUE_NAMES.ingest) {
    const v = value as JobResults['ingest'];
    if (v.status === 'done')
      lines.push(
        `read ${v.file}: ${v.requisitions} requisition(s)${v.rejectedRows ? `, ${v.rejectedRows} row(s) rejected` : ''}`,
      );
    else if (v.status === 'refused') lines.push(`refused ${v.file}: ${v.reason}`);
  } else if (queue === QUEUE_NAMES.createRfq) {
    const v = value as JobResults['createRfq'];
    if (v.rfqId !== undefined) lines.push(`RFQ ${v.rfqId} ${v.status} for requisition ${v.requisitionId}`);
  } else if (queue === QUEUE_NAMES.poll) {
    const v = value as JobResults['poll'] | undefined;
    const hook =
      pollSlotKind(String((job.data as { slot?: unknown }).slot ?? '')) === 'webhook' ? ' (woken by a webhook)' : '';
    for (const t of v && 'transitions' in v ? v.transitions : [])
      if (t.from !== 'created' || t.to !== 'open') lines.push(`RFQ ${t.rfqId}: ${t.from} -> ${t.to}${hook}`);
  } else if (queue === QUEUE_NAMES.comparison) {
    const v = value as JobResults['comparison'];
    if (v.workbook) lines.push(`RFQ ${v.rfqId}: comparison v${v.version} written: ${rel(v.workbook)}`);
    if (v.awardCsv && v.winnerKey !== undefined)
      lines.push(`RFQ ${v.rfqId}: awarded to ${v.winnerName ?? 'quotation'} (key ${v.winnerKey}): ${rel(v.awardCsv)}`);
  }
  return lines;
}

/** The shipped samples copied into the inbox; how many. */
async function copySamples(inbox: string): Promise<number> {
  const samples = join(PACKAGE_ROOT, 'samples');
  const names = (await readdir(samples)).filter((n) => !n.startsWith('.'));
  for (const n of names) await cp(join(samples, n), join(inbox, n));
  return names.length;
}

/**
 * Checks every 500 ms until the inbox is empty, no job is left and every tracked RFQ is completed or gone (true), or
 * until the deadline or a shutdown (false).
 */
async function waitUntilAllDone(
  ctx: Pick<WorkerContext, 'queues' | 'redis' | 'keys'>,
  inbox: string,
  deadline: number,
  stopping: () => boolean,
): Promise<boolean> {
  while (Date.now() < deadline && !stopping()) {
    await new Promise((r) => setTimeout(r, 500));
    const [status, pending, unfinished, inboxLeft] = await Promise.all([
      trackingStatus(ctx),
      pendingWork(ctx),
      unfinishedJobs(ctx, [QUEUE_NAMES.ingest, QUEUE_NAMES.createRfq, QUEUE_NAMES.quotations, QUEUE_NAMES.comparison]),
      readdir(inbox).then((l) => l.length),
    ]);
    const s = status.byState;
    const tracked = Object.values(s).reduce((a, b) => a + b, 0);
    if (inboxLeft === 0 && unfinished === 0 && tracked > 0 && s.created + s.open + s.closed === 0 && pending.done)
      return true;
  }
  return false;
}

/** The end of the run: the files it wrote, the overview rewritten once more; returns how many RFQs have a comparison. */
async function writeSummary(
  ctx: Pick<WorkerContext, 'redis' | 'keys' | 'config'>,
  config: Config,
  out: { write: (line: string) => void; rel: (p: string) => string },
  run: { finished: boolean; t0: number; timeoutMs: number; runDir: string },
): Promise<number> {
  const { write, rel } = out;
  const allComparisons = await listFiles(config.folders.comparisons, '.xlsx');
  const allAwards = await listFiles(config.folders.awards, '.csv');
  const comparisons = latestVersions(allComparisons);
  const awards = latestVersions(allAwards);
  const reports = await listFiles(config.folders.reports, '');
  write('');
  write(
    run.finished
      ? `Done in ${((Date.now() - run.t0) / 1000).toFixed(1)} s.`
      : `Stopped after ${Math.round(run.timeoutMs / 1000)} s before every RFQ was completed.`,
  );
  const earlier = (all: string[], latest: string[]) =>
    all.length > latest.length
      ? ` (latest version of each RFQ; ${all.length - latest.length} earlier version(s) beside them)`
      : '';
  if (allComparisons.length > comparisons.length) {
    write(
      'A comparison is written when an RFQ closes (v1: lowest qualified prices) and again when it is completed (v2: the winner).',
    );
  }
  write(`Comparison workbooks${earlier(allComparisons, comparisons)}:`);
  for (const f of comparisons) write(`  ${rel(f)}`);
  write(`Award files for the ERP${earlier(allAwards, awards)}:`);
  for (const f of awards) write(`  ${rel(f)}`);
  for (const profile of config.ERP_OUTPUTS) {
    const files = latestVersions(await listFiles(join(config.folders.erp, profile), ''));
    write(`ERP purchase-order files of the output profile ${profile} (vendors from ${rel(config.VENDOR_XREF_FILE!)}):`);
    for (const f of files) write(`  ${rel(f)}`);
  }
  for (const line of await responseLines(ctx)) write(line);
  // Written once more now: the demo ends before the last comparisons' overview window would.
  const overview = await writeAccountOverview(ctx);
  write(`Overview of every tracked RFQ (${overview.rows} rows): ${rel(overview.path)}`);
  write(`Per-file ingestion reports: ${reports.length} in ${rel(config.folders.reports)}`);
  write(`Everything of this run is under ${rel(run.runDir)}`);
  return comparisons.length;
}

/**
 * The response rate of each RFQ's latest comparison: how many of the vendors following its category (the sandbox's
 * vendor directory) quoted. The workbooks' Suppliers sheets list those who did not.
 */
async function responseLines(ctx: Pick<WorkerContext, 'redis' | 'keys'>): Promise<string[]> {
  const store = trackingStore(ctx);
  const lines: string[] = [];
  for (const rec of await store.getMany((await store.trackedIds()).sort((a, b) => a - b))) {
    const v = rec?.comparison?.summary?.vendors;
    if (!rec || !v) continue;
    const category = (await store.getListed(rec.rfqId))?.rfq_category ?? '?';
    const rate = v.following > 0 ? ` (${Math.round((100 * v.quoted) / v.following)}%)` : '';
    lines.push(`  RFQ ${rec.rfqId} (${category}): ${v.quoted} of ${v.following}${rate}`);
  }
  return lines.length > 0
    ? [
        'Vendors following the category who quoted (the workbooks list those who did not, with contact and e-mail):',
        ...lines,
      ]
    : [];
}

/**
 * Of `...-v1.xlsx`, `...-v2.xlsx` for one RFQ keep the highest version (files are named `RFQ-<id>-...-v<n>.<ext>`,
 * an ERP file `...-v<n>-<what>.<ext>`).
 */
function latestVersions(files: string[]): string[] {
  const best = new Map<string, { v: number; f: string }>();
  for (const f of files) {
    const m = /^(.*)-v(\d+)(?:-[^./\\]*)?\.[a-z]+$/i.exec(f);
    const id = /RFQ-(\d+)-/.exec(f)?.[1] ?? f;
    const v = m ? Number(m[2]) : 0;
    const cur = best.get(id);
    if (!cur || v > cur.v) best.set(id, { v, f });
  }
  return [...best.entries()]
    .sort((a, b) => Number(a[0]) - Number(b[0]) || a[0].localeCompare(b[0]))
    .map(([, x]) => x.f);
}

async function listFiles(dir: string, ext: string): Promise<string[]> {
  try {
    return (await readdir(dir))
      .filter((n) => !n.startsWith('.') && n.endsWith(ext))
      .sort()
      .map((n) => join(dir, n));
  } catch {
    return [];
  }
}

/** The ERP files of two shipped profiles, the sandbox's suppliers given ERP vendors by the demo's own cross-reference. */
const DEMO_ERP: Record<string, string> = {
  ERP_OUTPUTS: 'po-lines-csv,sap-po-bapi',
  VENDOR_XREF_FILE: join(PACKAGE_ROOT, 'erp-outputs', 'demo-vendor-xref.csv'),
  ERP_COMPANY_CODE: '1000',
  ERP_PURCHASING_ORG: '1000',
  ERP_PURCHASING_GROUP: '001',
  ERP_PLANT: '1000',
};

/** Procurement and IT each get a digest (every 5 s) of what concerns them, by e-mail to the catcher. */
function demoNotifications(port: number): Record<string, string> {
  return {
    NOTIFY_DIGEST_MS: '5000',
    NOTIFY_CHANNELS: JSON.stringify({
      'demo-mail': {
        type: 'smtp',
        host: '127.0.0.1',
        port,
        security: 'none',
        from: 'rfq-sync demo <rfq-sync@demo.invalid>',
      },
    }),
    NOTIFY_ROUTES: JSON.stringify({
      procurement: {
        channel: 'demo-mail',
        to: 'procurement@demo.invalid',
        events: ['procurement'],
      },
      it: { channel: 'demo-mail', to: 'it@demo.invalid', events: ['it'] },
    }),
  };
}

/** The digests still open are sent now; then where the demo's mails are. */
async function tellMails(
  ctx: Pick<WorkerContext, 'queues'>,
  mail: MailCatcher,
  write: (line: string) => void,
  rel: (p: string) => string,
): Promise<void> {
  await sendOpenDigestsNow(ctx.queues.notify, 10_000);
  write(
    `Notifications: ${mail.count()} e-mail(s) caught by the demo's own SMTP server (nothing was sent out), one .eml file each (open with any mail client): ${rel(mail.dir)}`,
  );
}
