/**
 * The operator commands that act on a running installation through its Redis (and, for `poll` and `compare`, the
 * sourcing service): status, failed, ingest, poll, compare. They never start a sandbox or a private Redis: without
 * REDIS_URL there is no installation to act on.
 */
import { statusWebhook } from './status-webhook.ts';
import { userInfo } from 'node:os';
import { resolvedBy } from '../../src/audit/index.ts';
import { Redis } from 'ioredis';
import { displayRedisUrl, type Config, type WorkerConfig } from '../../src/settings/index.ts';
import { ConfigError, redisUnreachable, type Logger, type RequisitionLine } from '../../src/core/index.ts';
import { readAuthPause, type AuthPauseStatus, storedDialect } from '../../src/account/index.ts';
import type { WorkerContext } from '../../src/worker/index.ts';
import { closeWorkerContext, openContext, resolveRuntime } from '../runtime/index.ts';
import {
  redisOptionsFromUrl,
  bullPrefix,
  createQueues,
  type Queues,
  type RedisConnectionOptions,
  redisKeys,
  type RedisKeys,
  accountsInRedis,
  readLostState,
} from '../../src/redis/index.ts';
import { enqueueCreateRfq, enqueuePollNow } from '../../src/queues/index.ts';
import { createIdempotencyStore, reconcileStatus, type ParkedEntry, contentHashOf } from '../../src/creation/index.ts';
import { reconcilerOf } from '../../jobs/index.ts';
import {
  trackRfq,
  writeComparisonNow,
  runPoll,
  type PollResult,
  trackingStatus,
  withheldAwards,
} from '../../src/tracking/index.ts';
import { listFailed, retryFailed } from './failed-jobs.ts';
import {
  listHeldFiles,
  listCategoryHeldFiles,
  currentMappingSets,
  ingestOneFile,
  assertIntakeFolder,
  readIntakeFolder,
} from '../../src/intake/index.ts';
import { lastRetention } from '../../src/outbox/index.ts';
import { EXIT_CONFIG, EXIT_FAILED, EXIT_OK } from '../cli-support.ts';
import { collectStatus, formatStatus, type StatusChange, type TrackingFacts } from './status.ts';
import { vendorDirectoryJson, vendorDirectoryLines } from './doctor-vendors.ts';
import { vendorStore } from '../../src/vendors/index.ts';
import { statusVendorDirectory, statusWithheld } from './status-vendors.ts';

const INGEST_WAYS_OUT =
  "Run `rfq-sync ingest` on a host of the intake folder, or copy the file into that folder's inbox.";

const out = (line: string) => process.stdout.write(`${line}\n`);

/** What the Redis-only commands need: no sourcing client, and no auth gate (whose start-up check may lift a pause). */
export interface ReadContext {
  config: WorkerConfig;
  logger: Logger;
  redis: Redis;
  keys: RedisKeys;
  queues: Queues;
  authGate: { status(): Promise<AuthPauseStatus> };
}

/** Open a read context on REDIS_URL, run `fn`, close it. */
export async function withReadContext<T>(
  given: Config,
  logger: Logger,
  command: string,
  fn: (ctx: ReadContext) => Promise<T>,
): Promise<T> {
  let config = given;
  if (!config.REDIS_URL)
    throw new ConfigError([`REDIS_URL: required for \`${command}\` (it reads the queues and records in your Redis)`]);
  const base = redisOptionsFromUrl(config.REDIS_URL);
  const redis = new Redis({
    ...base,
    maxRetriesPerRequest: 1,
    connectTimeout: 5_000,
    retryStrategy: (n) => (n > 3 ? null : 200 * n),
  });
  let lastError: Error | undefined;
  redis.on('error', (err: Error) => {
    lastError = err;
  });
  try {
    await redis.ping().catch((err: Error) => {
      throw redisUnreachable(displayRedisUrl(config.REDIS_URL!), (lastError ?? err).message);
    });
    if (!config.accountGiven) {
      const account = await onlyAccount(redis, config.REDIS_PREFIX);
      process.stderr.write(
        `rfq-sync: account ${account} (the only one in Redis; --account or SOURCING_ACCOUNT to choose)\n`,
      );
      config = { ...config, account, accountGiven: true };
    }
  } catch (err) {
    await redis.quit().catch(() => redis.disconnect());
    throw err;
  }
  const keys = redisKeys(config.REDIS_PREFIX, config.account);
  const connection = { ...base, maxRetriesPerRequest: 1 } as RedisConnectionOptions;
  const queues = createQueues(connection, bullPrefix(config.REDIS_PREFIX, config.account), {
    attempts: config.JOB_ATTEMPTS,
    backoffMs: config.JOB_BACKOFF_MS,
  });
  const authGate = { status: () => readAuthPause(redis, keys) };
  try {
    return await fn({ config, logger, redis, keys, queues, authGate });
  } finally {
    await queues.close();
    await redis.quit().catch(() => redis.disconnect());
  }
}

/**
 * The account when none was given (no SOURCING_ACCOUNT, no SOURCING_BASE_URL): the one whose keys Redis holds. The
 * workers register theirs (keys: `<prefix>:accounts`); installations older than that are found by their keys.
 * None or several: a configuration error naming them.
 */
async function onlyAccount(redis: Redis, prefix: string): Promise<string> {
  const accounts = await accountsInRedis(redis, prefix);
  if (accounts.length === 1) return accounts[0]!;
  throw new ConfigError([
    accounts.length === 0
      ? `SOURCING_ACCOUNT: no account in Redis under prefix ${prefix} yet; set SOURCING_ACCOUNT (or SOURCING_BASE_URL) or --account`
      : `SOURCING_ACCOUNT: Redis holds several accounts (${accounts.join(', ')}): choose one with --account or SOURCING_ACCOUNT`,
  ]);
}

/** Open a full context (Redis and the sourcing service, no embedded fallback), run `fn`, close everything. */
export async function withContext<T>(
  config: Config,
  logger: Logger,
  command: string,
  fn: (ctx: WorkerContext) => Promise<T>,
): Promise<T> {
  const runtime = await resolveRuntime(config, logger, { allowEmbedded: false, command });
  try {
    const ctx = await openContext(config, logger, runtime);
    try {
      return await fn(ctx);
    } finally {
      await closeWorkerContext(ctx);
    }
  } finally {
    await runtime.stop();
  }
}

function describeInvalid(b: PollResult['invalid'][number] | undefined): string {
  if (!b) return '?';
  return `${b.rfqId !== undefined ? `RFQ ${b.rfqId}` : `item ${b.index} of page ${b.page}`} (${b.status}) field ${b.field}`;
}

export async function trackingFacts(ctx: ReadContext): Promise<TrackingFacts> {
  const t = await trackingStatus(ctx);
  const p = t.lastPoll;
  const rfqs: Record<string, number> = {};
  for (const [state, n] of Object.entries(t.byState)) if (n > 0) rfqs[state] = n;
  let detail: string | undefined;
  if (p) {
    const listed = Object.entries(p.listed)
      .map(([s, n]) => `${s} ${n}`)
      .join(', ');
    // invalidCount is absent from results stored before it existed.
    const bad = p.invalidCount
      ? `; ${p.invalidCount} listed RFQ(s) break the schema, e.g. ${describeInvalid(p.invalid[0])}`
      : '';
    const u = p.unreadable?.[0];
    const unreadable = u
      ? `; ${p.unreadableCount ?? 1} field(s) of listed RFQs cannot be read and are left out, e.g. RFQ ${u.rfqId} field ${u.field}`
      : '';
    const overview = p.overview && 'error' in p.overview ? `; overview.xlsx NOT written: ${p.overview.error}` : '';
    // results stored before the listing strategies lack `listing`
    const gone = p.listing?.missing ?? [];
    const cost = p.listing
      ? `; ${p.listing.requests} request(s) to the service${gone.length ? `; in no list: RFQ ${gone.slice(0, 5).join(', ')}` : ''}`
      : '';
    detail =
      p.error ??
      p.skipped ??
      `${p.tracked} tracked, ${p.transitionCount ?? p.transitions.length} change(s)${listed ? `; listed ${listed}` : ''}${cost}${bad}${unreadable}${overview}`;
  }
  const [dialect, recon, lost, retention, withheld, vendors] = await Promise.all([
    storedDialect(ctx.redis, ctx.keys),
    reconcileStatus(ctx.redis, ctx.keys),
    readLostState(ctx.redis, ctx.keys),
    lastRetention(ctx.redis, ctx.keys),
    withheldAwards(ctx),
    vendorStore(ctx).stored(),
  ]);
  const [mappingSets, intake] = await Promise.all([
    currentMappingSets(ctx.redis, ctx.keys),
    readIntakeFolder(ctx.redis, ctx.keys),
  ]);
  const heldFiles = (await listHeldFiles(ctx.redis, ctx.keys, ctx.config.folders.inbox)).map((h) => ({
    inboxName: h.inboxName,
    file: h.file,
    profiles: h.profiles,
    report: h.report,
    at: new Date(h.at).toISOString(),
  }));
  const categoryHeldFiles = (await listCategoryHeldFiles(ctx.redis, ctx.keys, ctx.config.folders.inbox)).map(
    ({ inboxName, file, requisitions, reason, at, report }) => ({
      ...{ inboxName, file, requisitions, reason, report },
      at: new Date(at).toISOString(),
    }),
  );
  const store = createIdempotencyStore(ctx.redis, ctx.keys);
  const changes: StatusChange[] = [];
  for (const { id, at } of await store.recentlyChanged(20)) {
    const rec = await store.get(id);
    if (!rec) continue;
    const lineChanges = (rec.changes ?? []).filter((c) => c.kind === 'changed');
    const h = rec.headerChanges;
    changes.push({
      requisition: id,
      rfqId: rec.rfqId ?? null,
      at: new Date(at).toISOString(),
      lines: lineChanges.map((c) => ({ externalId: c.externalId, fields: (c.fields ?? []).map((f) => f.field) })),
      header: h
        ? { fields: h.changes.map((c) => c.field), pushed: h.pushed, ...(h.reason ? { reason: h.reason } : {}) }
        : null,
    });
  }
  const undecided = recon.parked.map((e) => ({ requisition: e.id, reason: e.reason, rfqIds: e.rfqIds }));
  return {
    rfqs,
    lastPoll: p ? { at: new Date(p.finishedAt).toISOString(), ok: p.ok, ...(detail ? { detail } : {}) } : null,
    ...(t.flagged.length ? { flagged: t.flagged } : {}),
    dialect: dialect ?? null,
    undecided,
    reconcile: {
      pending: recon.pending,
      gate: recon.gate ? { reason: recon.gate.reason, until: new Date(recon.gate.until).toISOString() } : null,
    },
    stateLost: lost ? { detectedAt: new Date(lost.detectedAt).toISOString(), reason: lost.reason } : null,
    retention,
    mappingSets,
    changes,
    heldFiles,
    categoryHeldFiles,
    awardsWithheld: statusWithheld(withheld),
    vendorDirectory: statusVendorDirectory(vendors),
    intake: intake ?? null,
    webhook: await statusWebhook(ctx),
  };
}

export async function runStatusCommand(config: Config, logger: Logger, o: { json?: boolean }): Promise<number> {
  const report = await withReadContext(config, logger, 'status', (ctx) => collectStatus(ctx, () => trackingFacts(ctx)));
  out(o.json ? JSON.stringify(report, null, 2) : formatStatus(report));
  return EXIT_OK;
}

export async function runFailedList(
  config: Config,
  logger: Logger,
  o: { json?: boolean; limit: number },
): Promise<number> {
  const jobs = await withReadContext(config, logger, 'failed list', (ctx) => listFailed(ctx, { limit: o.limit }));
  if (o.json) {
    out(JSON.stringify(jobs, null, 2));
    return EXIT_OK;
  }
  if (jobs.length === 0) {
    out('no failed jobs');
    return EXIT_OK;
  }
  for (const j of jobs) {
    const at = j.failedAt ? new Date(j.failedAt).toISOString() : '?';
    out(`${j.ref}  ${at}  attempts ${j.attemptsMade}${j.subject ? `  ${j.subject}` : ''}`);
    out(`    ${j.failedReason.split('\n')[0]}`);
  }
  out(`${jobs.length} failed job(s); \`rfq-sync failed retry REF\` or \`rfq-sync failed retry --all\` runs them again`);
  return EXIT_OK;
}

export async function runFailedRetry(
  config: Config,
  logger: Logger,
  ref: string | undefined,
  o: { all?: boolean },
): Promise<number> {
  if (!ref && !o.all) {
    process.stderr.write('rfq-sync: name a failed job (REF from `rfq-sync failed list`) or pass --all\n');
    return EXIT_CONFIG;
  }
  const r = await withReadContext(config, logger, 'failed retry', (ctx) => retryFailed(ctx, o.all ? 'all' : ref!));
  for (const id of r.retried) out(`retried ${id}`);
  for (const id of r.notFound) process.stderr.write(`rfq-sync: no failed job ${id}\n`);
  if (r.retried.length === 0 && r.notFound.length === 0) out('no failed jobs');
  return r.notFound.length ? EXIT_FAILED : EXIT_OK;
}

export async function runIngestCommand(
  config: Config,
  logger: Logger,
  file: string,
  o: { mapping?: string; move?: boolean },
): Promise<number> {
  const { r, workers, account } = await withReadContext(config, logger, 'ingest', async (ctx) => ({
    // a file put into a processing/ folder no intake worker reads would never be read
    r: await assertIntakeFolder(ctx, INGEST_WAYS_OUT).then(() =>
      ingestOneFile(ctx, file, { mapping: o.mapping, move: o.move }),
    ),
    workers: await ctx.queues.ingest.getWorkersCount(),
    account: ctx.config.account,
  }));
  if (r.status === 'enqueued')
    out(
      `${file}: queued for ingestion (job ${r.jobId}); a running worker reads it and writes its report to ${config.folders.reports}`,
    );
  if (r.status === 'enqueued' && workers === 0) {
    out(
      `no worker of account ${account} is running: the file waits in ${config.folders.processing} until one starts (rfq-sync worker)`,
    );
  } else if (r.status === 'duplicate')
    out(`${file}: same bytes as ${r.first.name}: archived as a duplicate, nothing created (report ${r.report})`);
  else if (r.status === 'waiting')
    out(
      `${file}: the same bytes (${r.first.name}) are still being read: this copy waits in ${config.folders.processing} and is read, or archived as a duplicate, once that one is done`,
    );
  else out(`${file}: taken by another worker meanwhile`);
  return EXIT_OK;
}

export async function runPollCommand(config: Config, logger: Logger, o: { enqueue?: boolean }): Promise<number> {
  return withContext(config, logger, 'poll', async (ctx) => {
    if (o.enqueue) {
      out(`poll queued (job ${await enqueuePollNow(ctx)}); a running worker runs it`);
      return EXIT_OK;
    }
    const now = Date.now();
    const r = await runPoll(ctx, { slot: `now~${now}`, scheduledAt: now });
    if (r.skipped) out(`poll skipped: ${r.skipped}`);
    const listed = Object.entries(r.listed)
      .map(([s, n]) => `${s} ${n}`)
      .join(', ');
    out(`listed: ${listed || 'nothing'}; tracked ${r.tracked}, found ${r.found}, missing ${r.missing}`);
    for (const t of r.transitions) out(`  RFQ ${t.rfqId}: ${t.from} -> ${t.to}`);
    if (r.enqueued.quotations + r.enqueued.award > 0)
      out(
        `queued: ${r.enqueued.quotations} quotation pull(s), ${r.enqueued.award} award pull(s) (a running worker does them)`,
      );
    if (!r.ok) {
      process.stderr.write(`rfq-sync: poll failed: ${r.error ?? 'unknown'}\n`);
      return EXIT_FAILED;
    }
    return EXIT_OK;
  });
}

export async function runCompareCommand(
  config: Config,
  logger: Logger,
  rfqId: number,
  o: { out?: string },
): Promise<number> {
  const r = await withContext(config, logger, 'compare', (ctx) => writeComparisonNow(ctx, rfqId, { out: o.out }));
  out(r.workbook);
  process.stderr.write(
    `RFQ ${rfqId} (${r.state}): ${r.quotations} quotation(s)${r.invalid ? `, ${r.invalid} unreadable` : ''}${r.winnerKey ? `, winner ${r.winnerKey}` : ''}\n`,
  );
  return EXIT_OK;
}

/**
 * `rfq-sync doctor`: detect the account's dialect now (about 10 requests) and read its vendor directory, store both,
 * and print them with their evidence (the categories with the number of vendors following each).
 */
export async function runDoctorCommand(config: Config, logger: Logger, o: { json?: boolean }): Promise<number> {
  const [d, vendors] = await withContext(
    config,
    logger,
    'doctor',
    async (ctx) => [await ctx.dialects.refresh(), await vendorStore(ctx).refresh(ctx.client)] as const,
  );
  if (o.json) out(JSON.stringify({ ...d, vendorDirectory: vendorDirectoryJson(vendors) }, null, 2));
  else {
    out(
      [
        `status filter:      ${d.filter} (${d.filterBasis})`,
        `unfiltered list:    ${d.unfiltered}`,
        `external_id echo:   ${d.echo}`,
        `detail call:        ${d.detail}`,
        `edit call:          ${d.edit}`,
        ...(d.unknownLabels.length ? [`unknown labels:     ${d.unknownLabels.join(', ')}`] : []),
        'evidence:',
        ...d.evidence.map((e) => `  - ${e}`),
        ...vendorDirectoryLines(vendors, config.CATEGORY_CHECK),
      ].join('\n'),
    );
  }
  return EXIT_OK;
}

/**
 * `rfq-sync resolve REQUISITION --rfq ID | --post`: a person settles a requisition parked after an ambiguous
 * reconcile. `--rfq`: that RFQ is the requisition's (recorded and tracked, nothing posted). `--post`: none is; the
 * requisition is posted once more (a new create-rfq job).
 */
export async function runResolveCommand(
  config: Config,
  logger: Logger,
  requisition: string,
  o: { rfq?: number; post?: boolean },
): Promise<number> {
  if ((o.rfq === undefined) === !o.post) throw new ConfigError(['resolve: give exactly one of --rfq ID or --post']);
  return withContext(config, logger, 'resolve', async (ctx) => {
    const store = createIdempotencyStore(ctx.redis, ctx.keys);
    const reconciler = reconcilerOf(ctx);
    const entry = await reconciler.parked(requisition);
    const rec = await store.get(requisition);
    if (!entry || rec?.state !== 'undecided') {
      out(`${requisition}: not waiting for a decision (state ${rec?.state ?? 'unknown'})`);
      return EXIT_FAILED;
    }
    const r = entry.requisition;
    // queued again: a worker compares what the export holds now with what exists (lines the RFQ lacks become a
    // supplementary RFQ), or posts it once more
    const again = () =>
      enqueueCreateRfq(ctx.queues.createRfq, r, contentHashOf(r), { why: 'resolved', at: Date.now() });
    if (o.rfq !== undefined) {
      const lines = resolvedLines(entry, o.rfq);
      const kept = new Set(lines.map((l) => l.line.external_id));
      const res = await store.record(
        r,
        o.rfq,
        lines,
        'adopted',
        entry.externalIds.filter((e) => !kept.has(e)),
      );
      await trackRfq(ctx, { rfqId: o.rfq, requisition: r });
      await reconciler.unpark(requisition);
      await ctx.audit.write(resolvedBy(r, userInfo().username, { rfqId: o.rfq, lines }));
      await again();
      out(
        res.status === 'duplicate'
          ? `${requisition}: already recorded as RFQ ${res.existingRfqId}`
          : `${requisition}: recorded as RFQ ${o.rfq}; nothing posted`,
      );
      return EXIT_OK;
    }
    await store.unparkToPost(requisition);
    await reconciler.unpark(requisition);
    await ctx.audit.write(resolvedBy(r, userInfo().username));
    await again();
    out(`${requisition}: will be posted again by a worker`);
    return EXIT_OK;
  });
}

/**
 * The lines `resolve --rfq` records for that RFQ: those of the body posted that it matched (or the only body posted,
 * or the last), at their positions: what was posted, never a later export.
 */
function resolvedLines(entry: ParkedEntry, rfqId: number): Array<{ line: RequisitionLine; position: number }> {
  const fp = entry.bodies?.[rfqId];
  const body = entry.posted.find((b) => b.fp === fp) ?? entry.posted[entry.posted.length - 1];
  if (!body) return entry.requisition.lines.map((line, position) => ({ line, position }));
  return body.lines.map((l, position) => ({ line: { ...l, row: 0 }, position }));
}
