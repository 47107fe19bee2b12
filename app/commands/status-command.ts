/** `rfq-sync status`: the tracking facts read from Redis, then the report gathered and printed (status.ts). */
import { statusWebhook } from './status-webhook.ts';
import type { Config } from '../../src/settings/index.ts';
import type { Logger } from '../../src/core/index.ts';
import { storedDialect } from '../../src/account/index.ts';
import { readLostState } from '../../src/redis/index.ts';
import { reconcileStatus } from '../../src/creation/index.ts';
import { requisitionRecords } from '../../src/requisitions/index.ts';
import { type PollResult, trackingStatus } from '../../src/tracking/index.ts';
import { heldErpFiles } from '../../src/awarding/index.ts';
import { listHeldFiles, listCategoryHeldFiles, currentMappingSets, readIntakeFolder } from '../../src/intake/index.ts';
import { lastRetention } from '../../src/outbox/index.ts';
import { EXIT_OK, out } from '../cli-support.ts';
import { collectStatus, formatStatus, type StatusChange, type TrackingFacts } from './status.ts';
import { auditFaults } from '../../src/audit/index.ts';
import { vendorStore } from '../../src/vendors/index.ts';
import { statusErpHeld, statusVendorDirectory, statusWithheld } from './status-vendors.ts';
import { withReadContext, type ReadContext } from './context.ts';
import { withheldAwards } from '../../src/rfqs/index.ts';

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
  const [dialect, recon, lost, retention, withheld, vendors, erpHeld] = await Promise.all([
    storedDialect(ctx.redis, ctx.keys),
    reconcileStatus(ctx.redis, ctx.keys),
    readLostState(ctx.redis, ctx.keys),
    lastRetention(ctx.redis, ctx.keys),
    withheldAwards(ctx),
    vendorStore(ctx).stored(),
    heldErpFiles(ctx),
  ]);
  const [mappingSets, intake, faults] = await Promise.all([
    currentMappingSets(ctx.redis, ctx.keys),
    readIntakeFolder(ctx.redis, ctx.keys),
    auditFaults(ctx),
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
  const store = requisitionRecords(ctx.redis, ctx.keys);
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
    erpFilesHeld: statusErpHeld(erpHeld),
    vendorDirectory: statusVendorDirectory(vendors),
    intake: intake ?? null,
    auditFaults: faults.map((f) => ({ ...f, since: new Date(f.since).toISOString() })),
    webhook: await statusWebhook(ctx),
  };
}

export async function runStatusCommand(config: Config, logger: Logger, o: { json?: boolean }): Promise<number> {
  const report = await withReadContext(config, logger, 'status', (ctx) => collectStatus(ctx, () => trackingFacts(ctx)));
  out(o.json ? JSON.stringify(report, null, 2) : formatStatus(report));
  return EXIT_OK;
}
