/**
 * A trace's answer and what is pending: the Timeline (`rfq-sync trace`, the lookup page), the steps as shown, and
 * what each requisition and RFQ still waits for and why, from the log's digest of their last steps
 * (trace-query.ts keeps it while it reads their lines) and Redis's current state (Current) where Redis answers.
 * Pure: no file, no Redis.
 */
import type { AuditLine } from './events.ts';
import { requisitionOf } from './line-shape.ts';

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

/** What the answer read: the folder, how it was chosen, the days its files cover, and what could not be read. */
export interface LogCoverage {
  folder: string;
  /** Where the folder's setting came from (RFQ_SYNC_DIR from the environment, a config file, or the default). */
  setting?: string;
  files: number;
  hosts: string[];
  /** The first and last UTC day of the files, and how many days have a file. */
  days?: { first: string; last: string; count: number };
  /** The index's file, or why it was built in memory. */
  index: string;
  /** Lines skipped: torn (not whole) or not a line of the log; `unreadableAt` names the first ones (path:line). */
  unreadable: number;
  unreadableAt: string[];
  /** Lines lost: numbers a writing process gave and the log lacks (torn lines whose retry carried the number aside). */
  missing: number;
}

/** One drop of a file by its name: when it was taken and what became of its requisitions. */
export interface FileDrop {
  sha256: string;
  takenAt: string;
  host: string;
  requisitions: number;
  held: number;
  rfqs: number;
  awards: number;
}

export interface Timeline {
  query: string;
  /**
   * `timeline`: the steps; `summary`: the query names many requisitions (a recurring file name): its files, newest
   * first, with their counts; `accounts`: it names RFQs of several accounts, one must be chosen; `nothing`: the log
   * names nothing (`redis` then says what Redis knows, if anything).
   */
  answer: 'timeline' | 'summary' | 'accounts' | 'nothing';
  /** Where the answer comes from: the log and Redis, or the log alone (and why). */
  source: { redis: 'up' } | { redis: 'down'; reason: string };
  log: LogCoverage;
  /** The account the answer is about, and the other accounts whose lines also name the query. */
  account?: string;
  otherAccounts?: string[];
  requisitions: string[];
  rfqIds: number[];
  files: string[];
  steps: TimelineStep[];
  pending: string[];
  /** Why `pending` is not said (an answer of more lines than are read for it). */
  pendingUnknown?: string;
  /** Steps paged: the first shown (0-based), how many there are, where the next page starts. */
  page?: { from: number; total: number; next?: number };
  summary?: { file: string; requisitions: number; drops: FileDrop[]; total: number; from: number; next?: number };
  accounts?: Array<{ account: string; lines: number }>;
  /** What Redis knows of the query when the log names nothing (sentences). */
  redis?: string[];
}

/** The last steps of each requisition and RFQ that say what is pending, kept while the lines are read in order. */
export interface Digest {
  requisitions: Map<string, ReqFacts>;
  rfqs: Map<number, RfqFacts>;
}
interface ReqFacts {
  create?: { outcome: string; reason?: string };
  read?: { event: string; file?: string; reason?: string };
  due?: { value: number; at: string };
}
interface RfqFacts {
  award: boolean;
  comparison: boolean;
  transitionTo?: string;
  due?: { value: number; at: string };
  requisitions: Set<string>;
}

export function newDigest(): Digest {
  return { requisitions: new Map(), rfqs: new Map() };
}

/** Take one line (lines come oldest first). */
export function digestLine(d: Digest, l: AuditLine): void {
  const r = requisitionOf(l);
  const due = typeof l.due_date === 'number' ? { value: l.due_date, at: l.at } : undefined;
  if (r) {
    let f = d.requisitions.get(r);
    if (!f) d.requisitions.set(r, (f = {}));
    if (l.event === 'create-sent')
      f.create = { outcome: String(l.outcome), ...(l.reason !== undefined ? { reason: String(l.reason) } : {}) };
    if (l.event === 'requisition-accepted' || l.event === 'requisition-held')
      f.read = {
        event: l.event,
        ...(l.file !== undefined ? { file: l.file } : {}),
        ...(l.reason !== undefined ? { reason: String(l.reason) } : {}),
      };
    if (due) f.due = due;
  }
  if (l.rfq_id === undefined || l.event === 'notification-sent') return;
  let f = d.rfqs.get(l.rfq_id);
  if (!f) d.rfqs.set(l.rfq_id, (f = { award: false, comparison: false, requisitions: new Set() }));
  if (l.event === 'award-final') f.award = true;
  if (l.event === 'comparison-written') f.comparison = true;
  if (l.event === 'transition') f.transitionTo = String(l.to);
  if (r) f.requisitions.add(r);
  if (due) f.due = due;
}

/** The step as shown: the line's time, event, sentence and host, its requisition and RFQ, the files it names. */
export function stepOf(l: AuditLine): TimelineStep {
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

/** The RFQ's due date (Unix ms) as last seen in the log: its lines', or its requisitions'. */
function dueOf(d: Digest, f: RfqFacts): number | undefined {
  let best = f.due;
  for (const r of f.requisitions) {
    const due = d.requisitions.get(r)?.due;
    if (due && (!best || due.at >= best.at)) best = due;
  }
  return best?.value;
}

const day = (ms: number) => new Date(ms).toISOString().replace('T', ' ').slice(0, 16) + ' UTC';

/** What each requisition and RFQ still waits for, from the last step the log knows and Redis's state where known. */
export function pendingOf(d: Digest, requisitions: string[], current?: Current): string[] {
  const out: string[] = [];
  for (const id of requisitions) {
    const f = d.requisitions.get(id);
    const create = f?.create;
    const read = f?.read;
    if (read?.event === 'requisition-held') {
      out.push(
        `${id}: held back when ${read.file ?? 'its file'} was read: ${String(read.reason)} (fix it in the ERP and export it again; every problem in the file's report)`,
      );
      continue;
    }
    const now = current?.requisitions[id];
    const state = now?.state ?? create?.outcome;
    if (state === 'undecided')
      out.push(
        `${id}: parked: needs \`rfq-sync resolve\` (${now?.reason ?? create?.reason ?? 'the match is ambiguous'})`,
      );
    else if (state === 'rejected')
      out.push(`${id}: rejected by the service: ${now?.reason ?? create?.reason ?? 'see `rfq-sync failed list`'}`);
    else if (!create && (now === undefined || ['pending', 'creating'].includes(now.state)))
      out.push(`${id}: waiting to be created (create-rfq queue${now ? `, ${now.state}` : ''})`);
  }
  for (const [rfqId, f] of d.rfqs) {
    if (f.award) continue;
    const now = current?.rfqs[String(rfqId)];
    const state = now?.state ?? f.transitionTo ?? 'created';
    const due = now?.dueDate ?? dueOf(d, f);
    const rfq = `RFQ ${rfqId}`;
    if (state === 'created' || state === 'open')
      out.push(`${rfq}: waiting for the service to close the RFQ${due !== undefined ? ` (due ${day(due)})` : ''}`);
    else if (state === 'closed')
      out.push(
        f.comparison
          ? `${rfq}: comparison written; waiting for the award (every quotation's qualification decision, or the RFQ completed with its winner)`
          : `${rfq}: closed; waiting for its quotations to be pulled and the comparison written`,
      );
    else if (state === 'completed') out.push(`${rfq}: completed; waiting for the award file (quotations job)`);
    else if (state === 'cancelled') out.push(`${rfq}: cancelled at the service: nothing more will come`);
  }
  return out;
}
