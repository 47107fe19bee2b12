/**
 * A file name that recurs (an export dropped daily under one name) answered with its drops, not their steps: each
 * drop (a file-taken line, by sha256) newest first, with what became of its requisitions (accepted, held, RFQs
 * created, awards final), counted in SQL, PAGE_DROPS per page. The page links each drop to its own steps.
 */
import type { AuditIndex } from './audit-index.ts';
import { parseAuditFileName } from './log-names.ts';
import type { FileDrop, Timeline } from './timeline.ts';

/** Drops per page of a summary. */
export const PAGE_DROPS = 50;

/** How many requisitions the lines of a file name name (past SUMMARY_AT: a summary). */
export function countRequisitionsOfFile(idx: AuditIndex, name: string, account: string): number {
  return (
    idx
      .sql("SELECT COUNT(DISTINCT req) AS n FROM lines WHERE fname = ? AND account IN (?, '') AND req IS NOT NULL")
      .get(name, account) as { n: number }
  ).n;
}

/** The drops of a file name, newest first, each with what became of its requisitions. */
export function fileSummary(
  idx: AuditIndex,
  name: string,
  account: string,
  q: { since?: string; from?: number },
  reqs: number,
): Timeline['summary'] {
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
