/**
 * `trace <what>` on the index (audit-index.ts): the lines that name `what` (an external_id, profile/key, key, RFQ
 * number or `_id`, file name or sha256 prefix), grown to everything related (a requisition's RFQ and supplementary
 * RFQs; a file's requisitions and their RFQs; the file-level steps of their files), then only those lines read from
 * the files, oldest first. Every answer is about one account (RFQ numbers and requisitions are the account's own:
 * two sandbox runs both have an RFQ 1); the others that the query names are listed.
 *
 * Bounded: a file name whose drops hold more than SUMMARY_AT requisitions (an export that recurs daily) answers with
 * its drops, newest first, with their counts, paged; a timeline answers with at most `maxLines` steps and `maxBytes`
 * of their lines per page. `all` lifts both (the CLI's --all, which streams); `since` keeps the lines and drops from
 * that time. Synchronous (node:sqlite): run in the lookup page's thread or the `trace` command's own process.
 */
import { join } from 'node:path';
import type { AuditLine } from './events.ts';
import type { AuditIndex } from './audit-index.ts';
import { parseAuditLine, requisitionOf } from './line-shape.ts';
import { readLinesAtSync } from './log-file.ts';
import { parseAuditFileName } from './log-names.ts';
import {
  type Digest,
  digestLine,
  type FileDrop,
  type LogCoverage,
  newDigest,
  stepOf,
  type Timeline,
  type TimelineStep,
} from './timeline.ts';

/** Requisitions above which a file name is answered with its drops, not their steps. */
export const SUMMARY_AT = 50;
/** Per page: steps, bytes of their lines, drops of a summary. */
export const PAGE_LINES = 1_000;
export const PAGE_BYTES = 512 * 1024;
export const PAGE_DROPS = 50;
/** Related lines above which what is pending is not worked out (ask for one requisition). */
const PENDING_MAX_LINES = 50_000;
const BATCH = 400;

export interface TraceQuery {
  what: string;
  /** The account asked for (--account, the page's `account`): only it. */
  account?: string;
  /** This worker's account: chosen when the query names several and none was asked for. */
  preferAccount?: string;
  /** ISO 8601: only lines (and drops) from then on. */
  since?: string;
  /** Every step, no summary, no page (the CLI's --all). */
  all?: boolean;
  /** The first step (or drop, for a summary) of the page. */
  from?: number;
  maxLines?: number;
  maxBytes?: number;
}

/** The log's part of a Timeline (Redis's state and the pending sentences are added by the caller). */
export type TraceAnswer = Omit<Timeline, 'source' | 'pending' | 'log'> & {
  log: Omit<LogCoverage, 'folder' | 'setting'>;
  digest: Digest;
};

interface Row {
  id: number;
  file: string;
  off: number;
  len: number;
  at: string;
  event: string;
  account: string;
  req: string | null;
  parent: string | null;
  rfq_id: number | null;
  fname: string | null;
  sha: string | null;
}
const COLS = 'id, file, off, len, at, event, account, req, parent, rfq_id, fname, sha';

/** Streaming: `head` gets the answer before its steps, `step` each step in order (the answer then holds none). */
export interface TraceStream {
  head(a: TraceAnswer): void;
  step(s: TimelineStep): void;
}

/** The answer to `q`; with `stream`, every step goes there in order instead of the answer holding a page of them. */
export function queryTrace(idx: AuditIndex, q: TraceQuery, stream?: TraceStream): TraceAnswer {
  const what = q.what.trim();
  const base: TraceAnswer = {
    query: q.what,
    answer: 'nothing',
    log: coverage(idx),
    requisitions: [],
    rfqIds: [],
    files: [],
    steps: [],
    digest: newDigest(),
  };
  const seeds = seedRows(idx, what);
  if (seeds.length === 0) return base;
  const byAccount = new Map<string, number>();
  for (const r of seeds) byAccount.set(r.account, (byAccount.get(r.account) ?? 0) + 1);
  // a line without an account (written without one) goes with any account
  const accounts = [...byAccount.keys()].filter((a) => a !== '');
  if (accounts.length === 0) accounts.push('');
  const account =
    q.account !== undefined
      ? q.account
      : accounts.length === 1
        ? accounts[0]!
        : q.preferAccount !== undefined && byAccount.has(q.preferAccount)
          ? q.preferAccount
          : undefined;
  if (account === undefined)
    return {
      ...base,
      answer: 'accounts',
      accounts: accounts.sort().map((a) => ({ account: a, lines: byAccount.get(a)! })),
    };
  const mine = seeds.filter((r) => r.account === account || r.account === '');
  const others = accounts.filter((a) => a !== account).sort();
  const withAccount = { ...base, account, ...(others.length ? { otherAccounts: others } : {}) };
  if (mine.length === 0) return withAccount;
  const sha = /^[0-9a-f]{8,64}$/i.test(what) ? what.toLowerCase() : undefined;
  const byName = mine.some((r) => r.fname === what);
  const fileQuery = byName || (sha !== undefined && mine.some((r) => r.sha?.startsWith(sha)));
  if (byName && !q.all) {
    const reqs = countRequisitionsOfFile(idx, what, account);
    if (reqs > SUMMARY_AT)
      return { ...withAccount, answer: 'summary', summary: fileSummary(idx, what, account, q, reqs) };
  }
  const grown = grow(idx, account, mine, fileQuery);
  const rows = relatedRows(idx, account, grown, q.since);
  const found: TraceAnswer = {
    ...withAccount,
    answer: 'timeline',
    requisitions: [...grown.reqs].sort(),
    rfqIds: [...grown.rfqs].sort((a, b) => a - b),
    files: [...new Set(rows.flatMap((r) => (r.event === 'file-taken' ? [r.fname ?? ''] : [])))],
  };
  stream?.head(found);
  return { ...found, ...readSteps(idx, rows, q, stream) };
}

/** The lines that name `what`, of every account. */
function seedRows(idx: AuditIndex, what: string): Row[] {
  const n = /^\d{1,15}$/.test(what) ? Number(what) : undefined;
  const sha = /^[0-9a-f]{8,64}$/i.test(what) ? what.toLowerCase() : undefined;
  const parts: Array<[string, unknown[]]> = [
    [`SELECT ${COLS} FROM lines WHERE req = ?`, [what]],
    [`SELECT ${COLS} FROM lines WHERE key = ?`, [what]],
    [`SELECT ${COLS} FROM lines WHERE fname = ?`, [what]],
    [`SELECT ${COLS} FROM lines WHERE req IN (SELECT req FROM ext WHERE x = ?)`, [what]],
  ];
  if (n !== undefined) {
    parts.push([`SELECT ${COLS} FROM lines WHERE rfq_id = ?`, [n]]);
    parts.push([`SELECT ${COLS} FROM lines WHERE rfq_no = ?`, [n]]);
  }
  if (sha) parts.push([`SELECT ${COLS} FROM lines WHERE sha >= ? AND sha < ?`, [sha, `${sha}g`]]);
  const out = new Map<number, Row>();
  for (const [sql, args] of parts)
    for (const r of idx.sql(sql).all(...(args as [string])) as unknown as Row[]) out.set(r.id, r);
  return [...out.values()];
}

function countRequisitionsOfFile(idx: AuditIndex, name: string, account: string): number {
  return (
    idx
      .sql("SELECT COUNT(DISTINCT req) AS n FROM lines WHERE fname = ? AND account IN (?, '') AND req IS NOT NULL")
      .get(name, account) as { n: number }
  ).n;
}

/** The drops of a file name, newest first, each with what became of its requisitions. */
function fileSummary(idx: AuditIndex, name: string, account: string, q: TraceQuery, reqs: number): Timeline['summary'] {
  const since = q.since ?? '';
  const taken = idx
    .sql(
      `SELECT sha, MIN(at) AS at, file FROM lines WHERE fname = ? AND account IN (?, '') AND event = 'file-taken'
       AND sha IS NOT NULL AND at >= ? GROUP BY sha ORDER BY at DESC`,
    )
    .all(name, account, since) as unknown as Array<{ sha: string; at: string; file: string }>;
  const from = Math.max(0, q.from ?? 0);
  const page = taken.slice(from, from + PAGE_DROPS);
  const counts = idx.sql(
    `SELECT COUNT(DISTINCT CASE WHEN event = 'requisition-accepted' THEN req END) AS accepted,
            COUNT(DISTINCT CASE WHEN event = 'requisition-held' THEN COALESCE(req, id) END) AS held
     FROM lines WHERE sha = ? AND account IN (?, '')`,
  );
  const outcomes = idx.sql(
    `SELECT COUNT(DISTINCT c.rfq_id) AS rfqs, COUNT(DISTINCT w.rfq_id) AS awards
     FROM (SELECT DISTINCT req FROM lines WHERE sha = ? AND account IN (?, '') AND event = 'requisition-accepted') a
     JOIN lines c ON c.req = a.req AND c.account IN (?, '') AND c.event = 'create-sent' AND c.rfq_id IS NOT NULL
     LEFT JOIN lines w ON w.rfq_id = c.rfq_id AND w.account = c.account AND w.event = 'award-final'`,
  );
  const drops: FileDrop[] = page.map((d) => {
    const c = counts.get(d.sha, account) as { accepted: number; held: number };
    const o = outcomes.get(d.sha, account, account) as { rfqs: number; awards: number };
    return {
      sha256: d.sha,
      takenAt: d.at,
      host: parseAuditFileName(d.file)?.host ?? '',
      requisitions: c.accepted,
      held: c.held,
      rfqs: o.rfqs,
      awards: o.awards,
    };
  });
  const next = from + page.length < taken.length ? from + page.length : undefined;
  return { file: name, requisitions: reqs, drops, total: taken.length, from, ...(next !== undefined ? { next } : {}) };
}

interface Grown {
  reqs: Set<string>;
  rfqs: Set<number>;
  shas: Set<string>;
}

/** Everything related to the seed lines, until nothing new (each new requisition, RFQ or file looked up once). */
function grow(idx: AuditIndex, account: string, seeds: Row[], fileQuery: boolean): Grown {
  const g: Grown = { reqs: new Set(), rfqs: new Set(), shas: new Set() };
  const todo = { reqs: [] as string[], rfqs: [] as number[], shas: [] as string[] };
  const add = (r: Row) => {
    if (r.req && !g.reqs.has(r.req)) {
      g.reqs.add(r.req);
      todo.reqs.push(r.req);
    }
    if (r.rfq_id !== null && r.event !== 'notification-sent' && !g.rfqs.has(r.rfq_id)) {
      g.rfqs.add(r.rfq_id);
      todo.rfqs.push(r.rfq_id);
    }
    if (r.sha && (r.req || fileQuery) && !g.shas.has(r.sha)) {
      g.shas.add(r.sha);
      if (fileQuery) todo.shas.push(r.sha);
    }
  };
  seeds.forEach(add);
  while (todo.reqs.length || todo.rfqs.length || todo.shas.length) {
    const reqs = todo.reqs.splice(0);
    const rfqs = todo.rfqs.splice(0);
    const shas = todo.shas.splice(0);
    for (const b of batches(reqs)) {
      inList(idx, 'req', b, account).forEach(add);
      inList(idx, 'parent', b, account).forEach(add);
    }
    for (const b of batches(rfqs)) inList(idx, 'rfq_id', b, account).forEach(add);
    for (const b of batches(shas)) inList(idx, 'sha', b, account).forEach(add);
  }
  return g;
}

function* batches<T>(xs: T[]): Generator<T[]> {
  for (let i = 0; i < xs.length; i += BATCH) yield xs.slice(i, i + BATCH);
}

function inList(idx: AuditIndex, col: string, values: Array<string | number>, account: string): Row[] {
  if (values.length === 0) return [];
  const marks = values.map(() => '?').join(',');
  return idx
    .sql(`SELECT ${COLS} FROM lines WHERE ${col} IN (${marks}) AND account IN (?, '')`)
    .all(...(values as string[]), account) as unknown as Row[];
}

/**
 * The lines of the answer: each requisition's, each RFQ's that names no other requisition, the notifications that
 * name one of the RFQs, and the file-level steps (no requisition, no RFQ) of the files involved; oldest first.
 */
function relatedRows(idx: AuditIndex, account: string, g: Grown, since?: string): Row[] {
  const out = new Map<number, Row>();
  const keep = (r: Row) => {
    if (since !== undefined && r.at < since) return;
    if (r.req !== null) {
      if (g.reqs.has(r.req)) out.set(r.id, r);
    } else if (r.rfq_id !== null) {
      if (g.rfqs.has(r.rfq_id)) out.set(r.id, r);
    } else if (r.sha !== null && g.shas.has(r.sha)) out.set(r.id, r);
  };
  for (const b of batches([...g.reqs])) inList(idx, 'req', b, account).forEach(keep);
  for (const b of batches([...g.rfqs])) {
    inList(idx, 'rfq_id', b, account).forEach(keep);
    const marks = b.map(() => '?').join(',');
    for (const r of idx
      .sql(
        `SELECT ${COLS.replace(/(\w+)/g, 'l.$1')} FROM mentions m JOIN lines l ON l.id = m.line
         WHERE m.rfq_id IN (${marks}) AND m.account IN (?, '')`,
      )
      .all(...(b as unknown as string[]), account) as unknown as Row[])
      if (r.req === null && (since === undefined || r.at >= since)) out.set(r.id, r);
  }
  for (const b of batches([...g.shas])) inList(idx, 'sha', b, account).forEach(keep);
  return [...out.values()].sort((a, b) =>
    a.at < b.at ? -1 : a.at > b.at ? 1 : a.file < b.file ? -1 : a.file > b.file ? 1 : a.off - b.off,
  );
}

/** Read the answer's lines (only those), keep the digest over all of them, and the page of steps asked for. */
function readSteps(
  idx: AuditIndex,
  rows: Row[],
  q: TraceQuery,
  stream?: TraceStream,
): Pick<TraceAnswer, 'steps' | 'digest' | 'page'> {
  const emit = stream?.step;
  const from = Math.max(0, q.from ?? 0);
  const maxLines = q.all || emit ? Infinity : (q.maxLines ?? PAGE_LINES);
  const maxBytes = q.all || emit ? Infinity : (q.maxBytes ?? PAGE_BYTES);
  const digest = newDigest();
  const steps: TimelineStep[] = [];
  const withPending = rows.length <= PENDING_MAX_LINES;
  let bytes = 0;
  let next: number | undefined;
  for (let i = 0; i < rows.length; i += BATCH) {
    const chunk = rows.slice(i, i + BATCH);
    const inPage = (j: number) => j >= from && next === undefined;
    if (!withPending && !chunk.some((_, k) => inPage(i + k))) continue;
    const lines = readRows(idx, chunk);
    chunk.forEach((r, k) => {
      const l = lines[k];
      if (!l) return; // changed under us since it was indexed: caught up next time
      if (withPending) digestLine(digest, l);
      const j = i + k;
      if (!inPage(j)) return;
      if (emit) return emit(stepOf(l));
      if (steps.length >= maxLines || (steps.length > 0 && bytes + r.len > maxBytes)) {
        next = j;
        return;
      }
      bytes += r.len;
      steps.push(stepOf(l));
    });
  }
  const paged = !emit && (from > 0 || next !== undefined);
  return {
    steps,
    digest,
    ...(paged ? { page: { from, total: rows.length, ...(next !== undefined ? { next } : {}) } } : {}),
  };
}

/** The lines of these rows, read from their files by offset (grouped per file), in the rows' order. */
function readRows(idx: AuditIndex, rows: Row[]): Array<AuditLine | undefined> {
  const out: Array<AuditLine | undefined> = new Array(rows.length);
  const byFile = new Map<string, number[]>();
  rows.forEach((r, i) => byFile.set(r.file, [...(byFile.get(r.file) ?? []), i]));
  for (const [file, at] of byFile) {
    let bufs: Buffer[];
    try {
      bufs = readLinesAtSync(
        join(idx.dir, file),
        at.map((i) => rows[i]!),
      );
    } catch {
      continue; // removed since (retention): its lines are gone
    }
    at.forEach((i, k) => {
      const l = parseAuditLine(bufs[k]!.toString('utf8'));
      const r = rows[i]!;
      out[i] = l && l.at === r.at && l.event === r.event && (requisitionOf(l) ?? null) === r.req ? l : undefined;
    });
  }
  return out;
}

/** What the index covers: files, hosts, days, and the lines it could not read or knows to be missing. */
export function coverage(idx: AuditIndex): TraceAnswer['log'] {
  const names = (
    idx.sql('SELECT name, tail FROM files ORDER BY name').all() as unknown as Array<{
      name: string;
      tail: number;
    }>
  ).map((r) => ({ ...parseAuditFileName(r.name)!, name: r.name, tail: r.tail }));
  const days = [...new Set(names.map((n) => n.day))].sort();
  const bad = idx.sql('SELECT file, lineno FROM unreadable ORDER BY file, off LIMIT 20').all() as unknown as Array<{
    file: string;
    lineno: number;
  }>;
  const badCount = (idx.sql('SELECT COUNT(*) AS n FROM unreadable').get() as { n: number }).n;
  const tails = names.filter((n) => n.tail > 0);
  const missing = (
    idx
      .sql(
        `SELECT COALESCE(SUM(hi - lo + 1 - n), 0) AS missing FROM
         (SELECT MIN(seq) AS lo, MAX(seq) AS hi, COUNT(DISTINCT seq) AS n FROM lines WHERE writer IS NOT NULL
          AND seq IS NOT NULL GROUP BY writer)`,
      )
      .get() as { missing: number }
  ).missing;
  return {
    files: names.length,
    hosts: [...new Set(names.map((n) => n.host))].sort(),
    ...(days.length ? { days: { first: days[0]!, last: days.at(-1)!, count: days.length } } : {}),
    index: 'file' in idx.where ? idx.where.file : `in memory (${idx.where.memory})`,
    unreadable: badCount + tails.length,
    unreadableAt: [
      ...bad.map((b) => `${join(idx.dir, b.file)}:${b.lineno}`),
      ...tails.map((t) => `${join(idx.dir, t.name)}: its last line (not ended)`),
    ].slice(0, 20),
    missing,
  };
}
