/**
 * `rfq-sync status`: what IT looks at when something seems wrong. Read-only; everything comes from Redis, so it
 * shows the shared state of every worker. The JSON shape (`--json`) is a promise to scripts and monitoring:
 *   { queues: { <queue>: { waiting, active, delayed, prioritized, waiting-children, failed, completed } },
 *     rfqs: { <state>: n }, lastPoll: { at, ok, detail } | null, flagged: [rfqId], failures: [{ queue, jobId, name, reason, at,
 *     attempts }], files: [{ file, outcome, reason, report, at }],
 *     paused: { paused, reason?, since?, lastCheck?: { at, result }, nextCheckAt?, checks? } (app/commands/status-auth.ts),
 *     tokenProblems: [{ host, file, problem, at }], intake: { id, host, path, since } | null,
 *     dialect: Dialect | null (src/sourcing/dialect.ts), undecided: [{ requisition, reason, rfqIds }],
 *     reconcile: { pending, gate: { reason, until } | null } (src/creation/reconcile-coordinator.ts),
 *     stateLost: { detectedAt, reason } | null (src/redis/state-epoch.ts),
 *     auditFaults: [{ host, dir, code, error, since }] (audit logs that cannot be written: src/audit/fault-record.ts),
 *     retention: { at, days, outboxDays, removed: {...}, errors } | null (src/outbox/retention.ts),
 *     mappingSets: [[{ worker, files, hash, at, broken }]] (one group per distinct set; more than one: they differ),
 *     brokenProfiles: [{ name, file, reason, workers }] (skipped; the others work),
 *     heldFiles: [{ inboxName, file, profiles: [{ name, file, reason }], at, report }] (held for a broken profile),
 *     categoryHeldFiles: [{ inboxName, file, requisitions, reason, at, report }] (held until the vendor directory is read),
 *     changes: [{ requisition, rfqId, at, lines: [{ externalId, fields }], header: { fields, pushed, reason } }],
 *     awardsWithheld: [{ rfqId, version, reason, at }], erpFilesHeld: [{ rfqId, version, suppliers, since }], vendorDirectory: { outcome, path?, vendors, readAt?, detail? } | null,
 *     notifyRetrying: [{ route, channel, messages, attempts, maxAttempts, reason, at }] (app/commands/status-notify.ts),
 *     webhook: { received, checked, transitions, pollsWoken, requests, closeToWorkbook: { count, meanS, p50AtMostS,
 *     p95AtMostS, buckets } } (app/commands/status-webhook.ts), generatedAt }
 * `files` lists the input files of the last day that were refused whole, had rows rejected (a requisition held by
 * CATEGORY_CHECK=hold among them) or sent requisitions whose category no vendor follows (CATEGORY_CHECK=warn): their ingest job
 * succeeded (the file was settled and reported), so they are not among the failures, yet IT has to act on them.
 */
import { webhookLines, type StatusWebhook } from './status-webhook.ts';
import type { AuthPauseStatus } from '../../src/account/index.ts';
import { describeFolder, type IntakeFolder, type HeldFile, type MappingSet } from '../../src/intake/index.ts';
import {
  authLines,
  pauseReport,
  tokenProblemsReport,
  type StatusPause,
  type StatusTokenProblem,
} from './status-auth.ts';
import type { Dialect } from '../../src/sourcing/index.ts';
import { type Queues, queueCounts } from '../../src/redis/index.ts';
import type { RetentionResult } from '../../src/outbox/index.ts';
import {
  vendorStatusLines,
  type StatusCategoryHeldFile,
  type StatusVendorDirectory,
  type StatusErpHeld,
  type StatusWithheldAward,
} from './status-vendors.ts';
import { notifyRetrying, notifyRetryingLines, type NotifyRetrying } from './status-notify.ts';
import { QUEUE_NAMES } from '../../src/queues/index.ts';

type QueuesCtx = { queues: Pick<Queues, 'all'> };

export interface StatusFailure {
  queue: string;
  jobId: string;
  name: string;
  reason: string;
  /** ISO time of the last failure. */
  at: string | null;
  attempts: number;
}

export interface StatusFileProblem {
  /** The file's name as dropped in the inbox. */
  file: string;
  outcome: 'refused' | 'rows rejected' | 'category not followed';
  /** Why it was refused, or how many rows were rejected (and the first problem when known). */
  reason: string;
  /** File name in outbox/reports/ with every detail. */
  report: string;
  at: string | null;
}

export interface StatusReport {
  generatedAt: string;
  queues: Record<string, Record<string, number>>;
  rfqs: Record<string, number>;
  lastPoll: { at: string; ok: boolean; detail?: string } | null;
  /** RFQs missing from every status list for several polls (still tracked; look at them on the service). */
  flagged: number[];
  failures: StatusFailure[];
  files: StatusFileProblem[];
  paused: StatusPause;
  /** Token files a worker could not use (the bad character's position, never the token). */
  tokenProblems: StatusTokenProblem[];
  /** Which data folder does intake for the account (src/intake/intake-folder.ts); null before the first worker. */
  intake: IntakeFolder | null;
  /** The webhook path: hints received, RFQs checked and transitions found by hint, polls woken, close-to-workbook. */
  webhook?: StatusWebhook | null;
  /** The account's sourcing dialect as last detected (src/sourcing/dialect.ts), with its evidence; null before. */
  dialect: Dialect | null;
  /** Requisitions parked after an ambiguous reconcile: nothing posted until `rfq-sync resolve`. */
  undecided: Array<{ requisition: string; reason: string; rfqIds: number[] }>;
  /**
   * Lost create answers waiting for a walk of the lists, and the gate: while it is closed, new POSTs of the account
   * wait (at most until `until`) so a walk can read the lists still, and why.
   */
  reconcile: ReconcileStatus;
  /** Redis lost its state (src/redis/state-epoch.ts): creation is paused until `rfq-sync recover`. */
  stateLost: { detectedAt: string; reason: string } | null;
  /** Workers whose audit log cannot be written (its folder and the error): their jobs wait. */
  auditFaults?: StatusAuditFault[];
  /** The last retention run (src/outbox/retention.ts), or null before the first (or with retention off). */
  retention: RetentionResult | null;
  /** The mapping profiles of the workers seen lately, one group per distinct set (src/intake/mapping-sets.ts). */
  mappingSets: MappingSet[][];
  /** Re-exports that changed a requisition after its RFQ existed, latest first (at most 20). */
  changes: StatusChange[];
  /** RFQs whose award file was withheld: their listed lines no longer match what was posted (latest first). */
  awardsWithheld: StatusWithheldAward[];
  /** Awards whose ERP files wait for the vendor cross-reference to know a winner (oldest first). */
  erpFilesHeld: StatusErpHeld[];
  /** The account's vendor directory as last read; null before the first read. */
  vendorDirectory: StatusVendorDirectory | null;
  /** Mapping profiles that do not load, as the workers seen lately report them: skipped, the others work. */
  brokenProfiles: BrokenProfileStatus[];
  /** Notifications waiting for another attempt, per route (app/commands/status-notify.ts): a channel failing or stalled. */
  notifyRetrying?: NotifyRetrying[];
  /** Files held in the inbox until a broken profile is fixed (src/intake/held-files.ts). */
  heldFiles: Array<Pick<HeldFile, 'inboxName' | 'file' | 'profiles' | 'report'> & { at: string }>;
  /** Files held in the inbox until the vendor directory is read (CATEGORY_CHECK=hold, src/intake/category-held-files.ts). */
  categoryHeldFiles?: StatusCategoryHeldFile[];
}

export interface StatusAuditFault {
  host: string;
  dir: string;
  code: string;
  error: string;
  since: string;
}

export interface BrokenProfileStatus {
  name: string;
  file: string;
  reason: string;
  workers: string[];
}

export interface StatusChange {
  requisition: string;
  rfqId: number | null;
  at: string;
  lines: Array<{ externalId: string; fields: string[] }>;
  header: { fields: string[]; pushed: boolean; reason?: string } | null;
}

export interface ReconcileStatus {
  pending: number;
  gate: { reason: string; until: string } | null;
}

/** Tracking facts come from the tracking module when it is wired in (see bin/rfq-sync.ts). */
export interface TrackingFacts {
  rfqs: Record<string, number>;
  lastPoll: { at: string; ok: boolean; detail?: string } | null;
  flagged?: number[];
  dialect?: Dialect | null;
  undecided?: StatusReport['undecided'];
  reconcile?: ReconcileStatus;
  stateLost?: StatusReport['stateLost'];
  auditFaults?: StatusAuditFault[];
  retention?: RetentionResult | null;
  mappingSets?: MappingSet[][];
  changes?: StatusChange[];
  heldFiles?: StatusReport['heldFiles'];
  categoryHeldFiles?: StatusCategoryHeldFile[];
  awardsWithheld?: StatusWithheldAward[];
  erpFilesHeld?: StatusErpHeld[];
  vendorDirectory?: StatusVendorDirectory | null;
  intake?: IntakeFolder | null;
  webhook?: StatusWebhook | null;
}

export async function recentFailures(ctx: QueuesCtx, limit = 10): Promise<StatusFailure[]> {
  const all: StatusFailure[] = [];
  for (const q of ctx.queues.all) {
    const jobs = await q.getFailed(0, limit - 1);
    for (const j of jobs) {
      if (!j) continue;
      all.push({
        queue: q.name,
        jobId: String(j.id),
        name: j.name,
        reason: firstLine(j.failedReason ?? 'unknown'),
        at: j.finishedOn ? new Date(j.finishedOn).toISOString() : null,
        attempts: j.attemptsMade,
      });
    }
  }
  return all.sort((a, b) => (b.at ?? '').localeCompare(a.at ?? '')).slice(0, limit);
}

/** How many of the latest completed ingest jobs are looked at for refused files and rejected rows. */
const FILE_JOBS_SCANNED = 200;
/** Files shown by the human view (`--json` has every one found). */
const FILES_SHOWN = 10;

export async function recentFileProblems(ctx: QueuesCtx, limit = 10): Promise<StatusFileProblem[]> {
  const ingest = ctx.queues.all.find((q) => q.name === QUEUE_NAMES.ingest);
  if (!ingest) return [];
  const out: StatusFileProblem[] = [];
  for (const j of await ingest.getCompleted(0, FILE_JOBS_SCANNED - 1)) {
    const v = j?.returnvalue as
      | {
          status?: string;
          file?: string;
          reason?: string;
          report?: string;
          rejectedRows?: number;
          heldRequisitions?: number;
          firstProblem?: string;
          categoryWarnings?: number;
          firstCategoryWarning?: string;
        }
      | undefined;
    if (!j || !v || typeof v.file !== 'string') continue;
    const at = j.finishedOn ? new Date(j.finishedOn).toISOString() : null;
    if (v.status === 'refused') {
      // The refusal names the file first ("x.csv: is empty"); the entry names it already.
      const reason = (v.reason ?? 'unknown').startsWith(`${v.file}: `)
        ? v.reason!.slice(v.file.length + 2)
        : (v.reason ?? 'unknown');
      out.push({ file: v.file, outcome: 'refused', reason: firstLine(reason), report: v.report ?? '', at });
    } else if (v.status === 'done' && (v.rejectedRows ?? 0) > 0) {
      const counts = `${v.rejectedRows} row(s) rejected, ${v.heldRequisitions ?? 0} requisition(s) held back`;
      out.push({
        file: v.file,
        outcome: 'rows rejected',
        reason: firstLine(v.firstProblem ? `${counts}; first: ${v.firstProblem}` : counts),
        report: v.report ?? '',
        at,
      });
    } else if (v.status === 'done' && (v.categoryWarnings ?? 0) > 0) {
      // sent, but their RFQs may reach nobody: IT and procurement should know (CATEGORY_CHECK=warn)
      out.push({
        file: v.file,
        outcome: 'category not followed',
        reason: firstLine(
          `${v.categoryWarnings} requisition(s) sent with a category no vendor follows; first: ${v.firstCategoryWarning ?? ''}`,
        ),
        report: v.report ?? '',
        at,
      });
    }
  }
  return out.sort((a, b) => (b.at ?? '').localeCompare(a.at ?? '')).slice(0, limit);
}

export async function collectStatus(
  ctx: QueuesCtx & { authGate: { status(): Promise<AuthPauseStatus> } },
  tracking?: () => Promise<TrackingFacts>,
): Promise<StatusReport> {
  const [queues, failures, files, auth, facts, retrying] = await Promise.all([
    queueCounts(ctx),
    recentFailures(ctx),
    recentFileProblems(ctx, FILE_JOBS_SCANNED),
    ctx.authGate.status(),
    tracking ? tracking() : Promise.resolve<TrackingFacts>({ rfqs: {}, lastPoll: null }),
    notifyRetrying(ctx),
  ]);
  return {
    generatedAt: new Date().toISOString(),
    queues,
    rfqs: facts.rfqs,
    lastPoll: facts.lastPoll,
    flagged: facts.flagged ?? [],
    failures,
    files,
    dialect: facts.dialect ?? null,
    undecided: facts.undecided ?? [],
    reconcile: facts.reconcile ?? { pending: 0, gate: null },
    stateLost: facts.stateLost ?? null,
    auditFaults: facts.auditFaults ?? [],
    retention: facts.retention ?? null,
    mappingSets: facts.mappingSets ?? [],
    changes: facts.changes ?? [],
    brokenProfiles: brokenProfiles(facts.mappingSets ?? []),
    heldFiles: facts.heldFiles ?? [],
    categoryHeldFiles: facts.categoryHeldFiles ?? [],
    awardsWithheld: facts.awardsWithheld ?? [],
    erpFilesHeld: facts.erpFilesHeld ?? [],
    vendorDirectory: facts.vendorDirectory ?? null,
    paused: pauseReport(auth),
    tokenProblems: tokenProblemsReport(auth),
    intake: facts.intake ?? null,
    notifyRetrying: retrying,
    webhook: facts.webhook ?? null,
  };
}

/** The broken profiles the workers reported, each once with the workers that skip it. */
function brokenProfiles(groups: MappingSet[][]): BrokenProfileStatus[] {
  const byKey = new Map<string, BrokenProfileStatus>();
  for (const set of groups.flat())
    for (const b of set.broken ?? []) {
      const k = `${b.file}\0${b.reason}`;
      const known = byKey.get(k) ?? { ...b, workers: [] };
      known.workers.push(set.worker);
      byKey.set(k, known);
    }
  return [...byKey.values()];
}

function firstLine(s: string): string {
  const line = s.split('\n')[0] ?? '';
  return line.length > 300 ? `${line.slice(0, 297)}...` : line;
}

/** The human view: a few aligned blocks, most urgent first. */
export function formatStatus(r: StatusReport): string {
  return [
    ...alertLines(r),
    '',
    ...queueLines(r.queues),
    '',
    ...trackingLines(r),
    ...vendorStatusLines(r),
    ...changeLines(r.changes),
    '',
    ...failureLines(r.failures, failedJobs(r.queues)),
    '',
    ...fileProblemLines(r.files),
  ].join('\n');
}

/** What stops or may stop work: Redis state lost, an audit log not writable, differing mappings, the auth pause. */
function alertLines(r: StatusReport): string[] {
  const lines: string[] = [];
  if (r.stateLost) {
    lines.push(
      `STATE LOST: Redis lost its state (seen ${r.stateLost.detectedAt}: ${r.stateLost.reason}); creation is paused.`,
    );
    lines.push(
      '  Recover: rfq-sync recover --since <when the loss may have begun> (reconciles before any post);',
      '  see docs/operations.md#when-redis-loses-its-state.',
    );
  }
  for (const f of r.auditFaults ?? [])
    lines.push(
      `AUDIT LOG CANNOT BE WRITTEN on ${f.host} since ${f.since}: ${f.error}; its jobs wait until it can (no attempt spent).`,
    );
  if (r.mappingSets.length > 1) {
    lines.push(
      `MAPPINGS DIFFER between the workers of this account (a file may be refused by one and taken by another):`,
    );
    for (const g of r.mappingSets)
      lines.push(`  ${g.map((m) => m.worker).join(', ')}: ${g[0]!.files.join(' ')} (${g[0]!.hash})`);
  }
  lines.push(...mappingAlertLines(r));
  lines.push(...authLines(r.paused, r.tokenProblems), ...notifyRetryingLines(r.notifyRetrying ?? []));
  lines.push(...intakeLines(r.intake));
  return lines;
}

function intakeLines(intake: IntakeFolder | null): string[] {
  if (!intake) return ['Intake: no data folder recorded yet (the first worker with INTAKE on records its own)'];
  const since = intake.since ? ` since ${new Date(intake.since).toISOString()}` : '';
  return [`Intake: ${describeFolder(intake)}${since} (\`rfq-sync intake\`)`];
}

/** Broken mapping profiles (skipped, the others work) and the files held in the inbox for them. */
function mappingAlertLines(r: StatusReport): string[] {
  const lines: string[] = [];
  if (r.brokenProfiles.length > 0) {
    lines.push(`MAPPING PROFILES BROKEN (skipped; every other profile works; fix them and they are reloaded):`);
    for (const b of r.brokenProfiles) lines.push(`  ${b.name}: ${firstLine(b.reason)}`);
  }
  if (r.heldFiles.length > 0) {
    lines.push(`HELD IN THE INBOX until their broken profile is fixed (read then, nothing lost):`);
    for (const h of r.heldFiles)
      lines.push(
        `  ${h.at}  ${h.inboxName}: for ${h.profiles.map((p) => `"${p.name}"`).join(', ')}  [report ${h.report}]`,
      );
  }
  return lines;
}

function queueLines(queues: StatusReport['queues']): string[] {
  const lines = ['Queues           waiting  active  delayed  failed  completed'];
  for (const [name, c] of Object.entries(queues)) {
    const waiting = (c.waiting ?? 0) + (c.prioritized ?? 0) + (c['waiting-children'] ?? 0);
    lines.push(
      `  ${name.padEnd(14)} ${String(waiting).padStart(7)} ${String(c.active ?? 0).padStart(7)} ${String(c.delayed ?? 0).padStart(8)} ${String(c.failed ?? 0).padStart(7)} ${String(c.completed ?? 0).padStart(10)}`,
    );
  }
  return lines;
}

/** The RFQs tracked, the last poll, the sourcing dialect, undecided requisitions and the last retention run. */
function trackingLines(r: StatusReport): string[] {
  const lines: string[] = [];
  const states = Object.entries(r.rfqs);
  lines.push(`RFQs tracked: ${states.length === 0 ? 'none' : states.map(([s, n]) => `${s} ${n}`).join(', ')}`);
  if (r.flagged.length)
    lines.push(
      `Flagged (missing from every list; ${shown(r.flagged.length, 20)}): ${r.flagged.slice(0, 20).join(', ')}`,
    );
  lines.push(
    `Last poll: ${r.lastPoll ? `${r.lastPoll.at} ${r.lastPoll.ok ? 'ok' : 'FAILED'}${r.lastPoll.detail ? ` (${r.lastPoll.detail})` : ''}` : 'never'}`,
  );
  lines.push(...webhookLines(r.webhook));
  if (r.dialect) {
    const d = r.dialect;
    lines.push(
      `Sourcing dialect: status filter ${d.filter} (${d.filterBasis}), unfiltered list ${d.unfiltered}, external_id echo ${d.echo}, detail call ${d.detail}, edit call ${d.edit}, list lag ${d.listLagMs !== undefined ? `${d.listLagMs} ms` : 'not measured yet'} (\`rfq-sync doctor\` for the evidence)`,
    );
  }
  if (r.reconcile.pending > 0) lines.push(`Lost create answers being reconciled: ${r.reconcile.pending}`);
  if (r.reconcile.gate)
    lines.push(
      `NEW POSTS HELD until ${r.reconcile.gate.until} so the lists can be read still: ${r.reconcile.gate.reason}`,
    );
  if (r.undecided.length > 0) {
    lines.push(
      `NEEDS A DECISION (${shown(r.undecided.length, 20)}; nothing posted; \`rfq-sync resolve REQUISITION --rfq ID | --post\`):`,
    );
    for (const u of r.undecided.slice(0, 20)) lines.push(`  ${u.requisition}: ${u.reason}`);
  }
  if (r.retention) {
    const rm = r.retention.removed;
    lines.push(
      `Retention (last ${r.retention.at}, ${r.retention.days || 'off'} days, outbox ${r.retention.outboxDays || 'kept'}): removed archive ${rm.archive}, failed ${rm.failed}, reports ${rm.reports}, ledger ${rm.ledger}, comparisons ${rm.comparisons}, awards ${rm.awards}${r.retention.errors.length ? `; ${r.retention.errors.length} could not be removed` : ''}`,
    );
  }
  return lines;
}

/** Re-exports that changed an existing RFQ: none shown when there are none. */
function changeLines(changes: StatusChange[]): string[] {
  if (changes.length === 0) return [];
  const lines = [
    `Re-exports that changed an existing RFQ (latest ${changes.length}; the file reports' Changes sheets have every field):`,
  ];
  for (const c of changes) {
    const parts = [
      ...(c.lines.length
        ? [
            `${c.lines.length} line(s) changed (${[...new Set(c.lines.flatMap((l) => l.fields))].join(', ')}): change at the service by hand`,
          ]
        : []),
      ...(c.header
        ? [`${c.header.fields.join(', ')} ${c.header.pushed ? 'pushed' : `not pushed: ${c.header.reason ?? ''}`}`]
        : []),
    ];
    lines.push(`  ${c.at}  ${c.requisition} (RFQ ${c.rfqId ?? '?'}): ${parts.join('; ')}`);
  }
  return lines;
}

/** "N", or "N, showing M" when a list of N shows only its first M. */
function shown(total: number, max: number): string {
  return total > max ? `${total}, showing ${max}` : String(total);
}

const failedJobs = (queues: StatusReport['queues']): number =>
  Object.values(queues).reduce((n, c) => n + (c.failed ?? 0), 0);

function failureLines(failures: StatusFailure[], failedInAll: number): string[] {
  if (failures.length === 0) return ['Recent failures: none'];
  const total = Math.max(failedInAll, failures.length);
  return [
    `Recent failures (${shown(total, failures.length)}; \`rfq-sync failed list\` for all, \`rfq-sync failed retry ID|--all\` to re-run):`,
    ...failures.map((f) => `  ${f.at ?? '?'}  ${f.queue}  ${f.jobId}: ${f.reason}`),
  ];
}

function fileProblemLines(files: StatusFileProblem[]): string[] {
  if (files.length === 0) return ['Files refused or with rejected rows (last day): none'];
  return [
    `Files refused or with rejected rows (last day, latest first; ${shown(files.length, FILES_SHOWN)}; details in outbox/reports/):`,
    ...files
      .slice(0, FILES_SHOWN)
      .map(
        (f) =>
          `  ${f.at ?? '?'}  ${f.file}: ${f.outcome === 'refused' ? 'REFUSED, ' : ''}${f.reason}  [report ${f.report}]`,
      ),
  ];
}
