/**
 * A requisition's timeline from the audit log: which lines a `trace <what>` is about, the related lines (the file
 * it came from, its RFQ and supplementary RFQs, their comparisons, awards and notifications), oldest first, and what
 * is still pending and why, from the log alone or with Redis's current state (Current) where Redis answers.
 */
import type { AuditLine } from './events.ts';
import { collectAudit, readAudit, type AuditReadStats } from './reader.ts';

/** Redis's current state of the requisitions and RFQs a trace found (app/ reads it; absent when Redis is down). */
export interface Current {
  requisitions: Record<string, { state: string; reason?: string; rfqId?: number }>;
  rfqs: Record<string, { state: string; dueDate?: number; workbook?: string; awardCsv?: string; version?: number }>;
}

export interface TimelineStep {
  at: string;
  event: AuditLine['event'];
  summary: string;
  host: string;
  requisition?: string;
  rfq_id?: number;
  rfq_no?: number;
  /** Files this step wrote or read, by role (report, workbook, award). */
  files?: Record<string, string>;
}

export interface Timeline {
  query: string;
  /** Where the answer comes from: the log and Redis, or the log alone (and why). */
  source: { redis: 'up' } | { redis: 'down'; reason: string };
  requisitions: string[];
  rfqIds: number[];
  files: string[];
  steps: TimelineStep[];
  pending: string[];
  /** Lines of the log that were not whole (skipped). */
  torn: string[];
}

const requisitionOf = (l: Pick<AuditLine, 'profile' | 'key'>): string | undefined =>
  l.profile !== undefined && l.key !== undefined ? `${l.profile}/${l.key}` : undefined;

/** Does this line name `what` (an external_id, profile/key, RFQ number or _id, file name or sha256)? */
export function namesWhat(what: string): (l: AuditLine) => boolean {
  const q = what.trim();
  const n = /^\d+$/.test(q) ? Number(q) : undefined;
  const sha = /^[0-9a-f]{8,64}$/i.test(q) ? q.toLowerCase() : undefined;
  return (l) =>
    (l.external_ids?.includes(q) ?? false) ||
    requisitionOf(l) === q ||
    l.key === q ||
    (n !== undefined && (l.rfq_id === n || l.rfq_no === n)) ||
    l.file === q ||
    (sha !== undefined && l.file_sha256 !== undefined && l.file_sha256.startsWith(sha));
}

/** The lines of the log about `what` and everything related to it (a few passes over the log, streamed). */
export async function traceLines(
  root: string,
  what: string,
): Promise<{ lines: AuditLine[]; requisitions: string[]; rfqIds: number[]; files: string[]; torn: string[] }> {
  const stats: AuditReadStats = { files: 0, lines: 0, torn: [] };
  const q = what.trim();
  const seeds = await collectAudit(root, namesWhat(q), stats);
  const reqs = new Set<string>();
  const rfqs = new Set<number>();
  const shas = new Set<string>();
  // a file asked for: its requisitions are the answer; else only the file-level steps of the files involved
  const fileQuery = seeds.some(
    (l) => l.file === q || (q.length >= 8 && (l.file_sha256 ?? '').startsWith(q.toLowerCase())),
  );
  const grow = (l: AuditLine): boolean => {
    const before = reqs.size + rfqs.size + shas.size;
    const r = requisitionOf(l);
    const parent = typeof l.parent === 'string' ? l.parent : undefined;
    const mine =
      (r !== undefined && reqs.has(r)) ||
      (parent !== undefined && reqs.has(parent)) ||
      (l.rfq_id !== undefined && rfqs.has(l.rfq_id)) ||
      (fileQuery && l.file_sha256 !== undefined && shas.has(l.file_sha256));
    if (!mine) return false;
    if (r) reqs.add(r);
    if (l.rfq_id !== undefined && l.event !== 'notification-sent') rfqs.add(l.rfq_id);
    if (l.file_sha256 && (r || fileQuery)) shas.add(l.file_sha256);
    return reqs.size + rfqs.size + shas.size > before;
  };
  for (const l of seeds) {
    const r = requisitionOf(l);
    if (r) reqs.add(r);
    if (l.rfq_id !== undefined) rfqs.add(l.rfq_id);
    if (l.file_sha256 && (r || fileQuery)) shas.add(l.file_sha256);
  }
  // a requisition's RFQ and supplementary RFQs, a file's requisitions: until nothing new (at most a few passes)
  for (let pass = 0; pass < 4; pass++) {
    let grew = false;
    for await (const l of readAudit(root)) grew = grow(l) || grew;
    if (!grew) break;
  }
  const related = (l: AuditLine): boolean => {
    const r = requisitionOf(l);
    if (r !== undefined) return reqs.has(r);
    if (l.rfq_id !== undefined) return rfqs.has(l.rfq_id);
    if (Array.isArray(l.rfq_ids)) return (l.rfq_ids as number[]).some((id) => rfqs.has(id));
    return l.file_sha256 !== undefined && shas.has(l.file_sha256); // file-level steps of its files
  };
  const lines = reqs.size + rfqs.size + shas.size === 0 ? [] : await collectAudit(root, related);
  lines.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
  const files = [...new Set(lines.filter((l) => l.event === 'file-taken').map((l) => l.file ?? ''))];
  return {
    lines,
    requisitions: [...reqs].sort(),
    rfqIds: [...rfqs].sort((a, b) => a - b),
    files,
    torn: stats.torn,
  };
}

function stepOf(l: AuditLine): TimelineStep {
  const files: Record<string, string> = {};
  for (const k of ['report', 'workbook', 'award'] as const) if (typeof l[k] === 'string') files[k] = l[k] as string;
  const r = requisitionOf(l);
  return {
    at: l.at,
    event: l.event,
    summary: l.summary,
    host: l.host,
    ...(r ? { requisition: r } : {}),
    ...(l.rfq_id !== undefined ? { rfq_id: l.rfq_id } : {}),
    ...(l.rfq_no !== undefined ? { rfq_no: l.rfq_no } : {}),
    ...(Object.keys(files).length ? { files } : {}),
  };
}

/** The RFQ's due date (Unix ms) as last seen in the log: its lines', else its requisition's. */
function dueOf(lines: AuditLine[], rfqId: number): number | undefined {
  const reqs = new Set(lines.filter((l) => l.rfq_id === rfqId).flatMap((l) => requisitionOf(l) ?? []));
  const withDue = lines.filter(
    (l) => typeof l.due_date === 'number' && (l.rfq_id === rfqId || reqs.has(requisitionOf(l) ?? '')),
  );
  return withDue.at(-1)?.due_date as number | undefined;
}

const day = (ms: number) => new Date(ms).toISOString().replace('T', ' ').slice(0, 16) + ' UTC';

/** What each requisition and RFQ still waits for, from the last step the log knows and Redis's state where known. */
export function pendingOf(lines: AuditLine[], requisitions: string[], current?: Current): string[] {
  const out: string[] = [];
  for (const id of requisitions) {
    const mine = lines.filter((l) => requisitionOf(l) === id);
    const create = mine.filter((l) => l.event === 'create-sent').at(-1);
    const read = mine.filter((l) => l.event === 'requisition-accepted' || l.event === 'requisition-held').at(-1);
    if (read?.event === 'requisition-held') {
      out.push(
        `${id}: held back when ${read.file ?? 'its file'} was read: ${String(read.reason)} (fix it in the ERP and export it again; every problem in the file's report)`,
      );
      continue;
    }
    const now = current?.requisitions[id];
    const state = now?.state ?? (create ? String(create.outcome) : undefined);
    if (state === 'undecided')
      out.push(
        `${id}: parked: needs \`rfq-sync resolve\` (${now?.reason ?? create?.reason ?? 'the match is ambiguous'})`,
      );
    else if (state === 'rejected')
      out.push(`${id}: rejected by the service: ${now?.reason ?? create?.reason ?? 'see `rfq-sync failed list`'}`);
    else if (!create && (now === undefined || ['pending', 'creating'].includes(now.state)))
      out.push(`${id}: waiting to be created (create-rfq queue${now ? `, ${now.state}` : ''})`);
  }
  const rfqIds = [
    ...new Set(lines.flatMap((l) => (l.rfq_id !== undefined && l.event !== 'notification-sent' ? [l.rfq_id] : []))),
  ];
  for (const rfqId of rfqIds) {
    const mine = lines.filter((l) => l.rfq_id === rfqId);
    if (mine.some((l) => l.event === 'award-final')) continue;
    const seen = mine.filter((l) => l.event === 'transition').at(-1);
    const now = current?.rfqs[String(rfqId)];
    const state = now?.state ?? (seen ? String(seen.to) : mine.length ? 'created' : undefined);
    const due = now?.dueDate ?? dueOf(lines, rfqId);
    const rfq = `RFQ ${rfqId}`;
    if (state === 'created' || state === 'open')
      out.push(`${rfq}: waiting for the service to close the RFQ${due !== undefined ? ` (due ${day(due)})` : ''}`);
    else if (state === 'closed')
      out.push(
        mine.some((l) => l.event === 'comparison-written')
          ? `${rfq}: comparison written; waiting for the award (every quotation's qualification decision, or the RFQ completed with its winner)`
          : `${rfq}: closed; waiting for its quotations to be pulled and the comparison written`,
      );
    else if (state === 'completed') out.push(`${rfq}: completed; waiting for the award file (quotations job)`);
    else if (state === 'cancelled') out.push(`${rfq}: cancelled at the service: nothing more will come`);
  }
  return out;
}

export async function buildTimeline(
  root: string,
  what: string,
  source: Timeline['source'],
  current?: (found: { requisitions: string[]; rfqIds: number[] }) => Promise<Current>,
): Promise<Timeline> {
  const t = await traceLines(root, what);
  const now = current ? await current(t) : undefined;
  return {
    query: what,
    source,
    requisitions: t.requisitions,
    rfqIds: t.rfqIds,
    files: t.files,
    steps: t.lines.map(stepOf),
    pending: pendingOf(t.lines, t.requisitions, now),
    torn: t.torn,
  };
}

/** The timeline as `trace` prints it. */
export function formatTimeline(t: Timeline): string {
  const out: string[] = [];
  out.push(
    t.source.redis === 'up'
      ? `trace ${t.query}: from the audit log and Redis's current state`
      : `trace ${t.query}: Redis is down (${t.source.reason}); answered from the audit log alone`,
  );
  if (t.steps.length === 0) {
    out.push(
      `nothing in the audit log names "${t.query}" (an external_id, profile/key, RFQ number or _id, file name or sha256)`,
    );
    return out.join('\n');
  }
  out.push(
    `requisition(s): ${t.requisitions.join(', ') || '-'}; RFQ(s): ${t.rfqIds.join(', ') || '-'}; file(s): ${t.files.join(', ') || '-'}`,
  );
  for (const s of t.steps) {
    out.push(`${s.at}  ${s.event.padEnd(20)} ${s.summary}`);
    for (const [role, path] of Object.entries(s.files ?? {})) out.push(`${' '.repeat(26)}${role}: ${path}`);
  }
  out.push(t.pending.length ? 'pending:' : 'pending: nothing (the award is final)');
  for (const p of t.pending) out.push(`  ${p}`);
  if (t.torn.length) out.push(`warning: ${t.torn.length} line(s) of the audit log were not whole and were skipped`);
  return out.join('\n');
}
