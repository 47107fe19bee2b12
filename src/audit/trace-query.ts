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
import { relatedLines, type Related, type Row } from './trace-related.ts';
import { countRequisitionsOfFile, fileSummary } from './trace-summary.ts';
import {
  type Digest,
  digestLine,
  type LogCoverage,
  newDigest,
  stepOf,
  type Timeline,
  type TimelineStep,
} from './timeline.ts';

/** Requisitions above which a file name is answered with its drops, not their steps. */
export const SUMMARY_AT = 50;
/** Per page: steps, and bytes of their lines. */
export const PAGE_LINES = 1_000;
export const PAGE_BYTES = 512 * 1024;
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
  /** The digest of every line of the answer (absent past PENDING_MAX_LINES: what is pending is not said). */
  digest?: Digest;
};

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
  const seeds = seedQuery(what);
  // which accounts the query names, counted in SQL (a recurring file name names tens of thousands of lines)
  const byAccount = new Map(
    (
      idx
        .sql(`SELECT account, COUNT(*) AS n FROM (${seeds.sql}) GROUP BY account`)
        .all(...seeds.args) as unknown as Array<{ account: string; n: number }>
    ).map((r) => [r.account, r.n]),
  );
  if (byAccount.size === 0) return base;
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
  const others = accounts.filter((a) => a !== account).sort();
  const withAccount = { ...base, account, ...(others.length ? { otherAccounts: others } : {}) };
  const byName = idx.sql("SELECT 1 FROM lines WHERE fname = ? AND account IN (?, '') LIMIT 1").get(what, account);
  if (byName && !q.all) {
    const reqs = countRequisitionsOfFile(idx, what, account);
    if (reqs > SUMMARY_AT)
      return { ...withAccount, answer: 'summary', summary: fileSummary(idx, what, account, q, reqs) };
  }
  const sha = /^[0-9a-f]{8,64}$/i.test(what) ? what.toLowerCase() : undefined;
  const fileQuery =
    Boolean(byName) ||
    (sha !== undefined &&
      idx
        .sql("SELECT 1 FROM lines WHERE sha >= ? AND sha < ? AND account IN (?, '') LIMIT 1")
        .get(sha, `${sha}g`, account) !== undefined);
  const related = relatedLines(idx, seeds, account, fileQuery, q.since);
  if (related.total === 0 && related.requisitions.length === 0 && related.rfqIds.length === 0) return withAccount;
  const found: TraceAnswer = {
    ...withAccount,
    answer: 'timeline',
    requisitions: related.requisitions,
    rfqIds: related.rfqIds,
    files: related.files,
  };
  stream?.head(found);
  return { ...found, ...readSteps(idx, related, q, stream) };
}

/** The lines that name `what`, of every account: one SELECT of their ids and accounts, and its arguments. */
function seedQuery(what: string): { sql: string; args: Array<string | number> } {
  const n = /^\d{1,15}$/.test(what) ? Number(what) : undefined;
  const sha = /^[0-9a-f]{8,64}$/i.test(what) ? what.toLowerCase() : undefined;
  const parts: Array<[string, Array<string | number>]> = [
    ['SELECT id, account FROM lines WHERE req = ?', [what]],
    ['SELECT id, account FROM lines WHERE key = ?', [what]],
    ['SELECT id, account FROM lines WHERE fname = ?', [what]],
    ['SELECT id, account FROM lines WHERE req IN (SELECT req FROM ext WHERE x = ?)', [what]],
  ];
  if (n !== undefined) {
    parts.push(['SELECT id, account FROM lines WHERE rfq_id = ?', [n]]);
    parts.push(['SELECT id, account FROM lines WHERE rfq_no = ?', [n]]);
  }
  if (sha) parts.push(['SELECT id, account FROM lines WHERE sha >= ? AND sha < ?', [sha, `${sha}g`]]);
  return { sql: parts.map((p) => p[0]).join(' UNION '), args: parts.flatMap((p) => p[1]) };
}

/**
 * Read the answer's lines (only those), oldest first: every one into the digest of what is pending (up to
 * PENDING_MAX_LINES; past that, only the page's), and the page of steps asked for, under its caps; with a stream,
 * every step to it.
 */
function readSteps(
  idx: AuditIndex,
  related: Related,
  q: TraceQuery,
  stream?: TraceStream,
): Pick<TraceAnswer, 'steps' | 'digest' | 'page'> {
  const emit = stream?.step;
  const from = Math.max(0, q.from ?? 0);
  const maxLines = q.all || emit ? Infinity : (q.maxLines ?? PAGE_LINES);
  const maxBytes = q.all || emit ? Infinity : (q.maxBytes ?? PAGE_BYTES);
  const whole = Boolean(emit) || related.total <= PENDING_MAX_LINES;
  const digest = newDigest();
  const steps: TimelineStep[] = [];
  let bytes = 0;
  let next: number | undefined;
  let j = whole ? 0 : from;
  for (const chunk of batchesOf(whole ? related.rows() : related.rows(from, maxLines + 1))) {
    const lines = readRows(idx, chunk);
    chunk.forEach((r, k) => {
      const at = j++;
      const l = lines[k];
      if (!l) return; // changed under us since it was indexed: caught up next time
      if (whole) digestLine(digest, l);
      if (at < from || next !== undefined) return;
      if (emit) return emit(stepOf(l));
      if (steps.length >= maxLines || (steps.length > 0 && bytes + r.len > maxBytes)) {
        next = at;
        return;
      }
      bytes += r.len;
      steps.push(stepOf(l));
    });
  }
  const paged = !emit && (from > 0 || next !== undefined);
  return {
    steps,
    ...(whole ? { digest } : {}),
    ...(paged ? { page: { from, total: related.total, ...(next !== undefined ? { next } : {}) } } : {}),
  };
}

function* batchesOf<T>(it: Iterable<T>): Generator<T[]> {
  let b: T[] = [];
  for (const x of it) {
    b.push(x);
    if (b.length === BATCH) {
      yield b;
      b = [];
    }
  }
  if (b.length) yield b;
}

/** The lines of these rows, read from their files by offset (grouped per file), in the rows' order. */
function readRows(idx: AuditIndex, rows: Row[]): Array<AuditLine | undefined> {
  const out: Array<AuditLine | undefined> = new Array(rows.length);
  const byFile = new Map<string, number[]>();
  rows.forEach((r, i) => {
    const at = byFile.get(r.file);
    if (at) at.push(i);
    else byFile.set(r.file, [i]);
  });
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
function coverage(idx: AuditIndex): TraceAnswer['log'] {
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
