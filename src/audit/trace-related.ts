/**
 * What a trace is about, grown in the index (trace-query.ts): from the lines that name the query, a requisition's
 * RFQ and supplementary RFQs, an RFQ's requisition, a file's requisitions (when a file was asked for), until nothing
 * new; then the lines of the answer: each requisition's, each RFQ's that names no requisition, the notifications that
 * name one of the RFQs, the file-level steps (no requisition, no RFQ) of the files involved. The sets are temporary
 * tables of the connection and the lines come out of SQLite in order, one at a time: a query that names ten
 * thousand requisitions holds none of their lines in memory.
 */
import type { StatementSync } from 'node:sqlite';
import type { AuditIndex } from './audit-index.ts';

/** A line of the answer, as the index has it. */
export interface Row {
  id: number;
  file: string;
  off: number;
  len: number;
  at: string;
  event: string;
  req: string | null;
  fname: string | null;
}

export interface Related {
  requisitions: string[];
  rfqIds: number[];
  /** The names of the files taken among the answer's lines. */
  files: string[];
  /** How many lines the answer has. */
  total: number;
  /** The answer's lines from `from` on, oldest first. */
  rows(from?: number, limit?: number): IterableIterator<Row>;
}

const TABLES = `
CREATE TEMP TABLE IF NOT EXISTS g_req (req TEXT PRIMARY KEY) WITHOUT ROWID;
CREATE TEMP TABLE IF NOT EXISTS g_rfq (rfq INTEGER PRIMARY KEY);
CREATE TEMP TABLE IF NOT EXISTS g_sha (sha TEXT PRIMARY KEY) WITHOUT ROWID;
DELETE FROM g_req; DELETE FROM g_rfq; DELETE FROM g_sha;`;

// CROSS JOIN keeps the small set outside the loop (SQLite's planner, without statistics, would scan the lines).

/** The lines "mine" by the growth's rules: of a requisition or parent in g_req, of an RFQ in g_rfq, of a file. */
const MINE = (fileQuery: boolean) => `
  SELECT l.req, l.rfq_id, l.sha, l.event FROM g_req g CROSS JOIN lines l ON l.req = g.req WHERE l.account IN (:a, '')
  UNION SELECT l.req, l.rfq_id, l.sha, l.event FROM g_req g CROSS JOIN lines l ON l.parent = g.req WHERE l.account IN (:a, '')
  UNION SELECT l.req, l.rfq_id, l.sha, l.event FROM g_rfq g CROSS JOIN lines l ON l.rfq_id = g.rfq WHERE l.account IN (:a, '')
  ${fileQuery ? "UNION SELECT l.req, l.rfq_id, l.sha, l.event FROM g_sha g CROSS JOIN lines l ON l.sha = g.sha WHERE l.account IN (:a, '')" : ''}`;

/** The ids of the answer's lines. */
const RELATED = `
  SELECT l.id FROM g_req g CROSS JOIN lines l ON l.req = g.req
  UNION SELECT l.id FROM g_rfq g CROSS JOIN lines l ON l.rfq_id = g.rfq WHERE l.req IS NULL
  UNION SELECT l.id FROM g_rfq g CROSS JOIN mentions m ON m.rfq_id = g.rfq CROSS JOIN lines l ON l.id = m.line WHERE l.req IS NULL
  UNION SELECT l.id FROM g_sha g CROSS JOIN lines l ON l.sha = g.sha WHERE l.req IS NULL AND l.rfq_id IS NULL`;

/**
 * Grow from the seed lines (`seedIds`: a SELECT of line ids with its arguments) of `account`, then the answer's
 * lines (from `since` on).
 */
export function relatedLines(
  idx: AuditIndex,
  seed: { sql: string; args: Array<string | number> },
  account: string,
  fileQuery: boolean,
  since = '',
): Related {
  idx.db.exec(TABLES);
  const seedRows = `SELECT req, rfq_id, sha, event FROM lines WHERE id IN (SELECT id FROM (${seed.sql})) AND account IN (?, '')`;
  const add = (from: string, args: Array<string | number>) => {
    idx.sql(`INSERT OR IGNORE INTO g_req SELECT req FROM (${from}) WHERE req IS NOT NULL`).run(...(args as [string]));
    idx
      .sql(
        `INSERT OR IGNORE INTO g_rfq SELECT rfq_id FROM (${from}) WHERE rfq_id IS NOT NULL AND event != 'notification-sent'`,
      )
      .run(...(args as [string]));
    idx
      .sql(
        `INSERT OR IGNORE INTO g_sha SELECT sha FROM (${from}) WHERE sha IS NOT NULL AND (req IS NOT NULL OR ${fileQuery ? 1 : 0})`,
      )
      .run(...(args as [string]));
  };
  const size = () =>
    (
      idx
        .sql('SELECT (SELECT COUNT(*) FROM g_req) + (SELECT COUNT(*) FROM g_rfq) + (SELECT COUNT(*) FROM g_sha) AS n')
        .get() as { n: number }
    ).n;
  add(seedRows, [...seed.args, account]);
  // a requisition's RFQ, its supplementary RFQs, a file's requisitions: until nothing new (a few passes)
  for (let before = -1, now = size(); now !== before; before = now, now = size()) {
    const mine = MINE(fileQuery);
    for (const sql of [
      `INSERT OR IGNORE INTO g_req SELECT req FROM (${mine}) WHERE req IS NOT NULL`,
      `INSERT OR IGNORE INTO g_rfq SELECT rfq_id FROM (${mine}) WHERE rfq_id IS NOT NULL AND event != 'notification-sent'`,
      `INSERT OR IGNORE INTO g_sha SELECT sha FROM (${mine}) WHERE sha IS NOT NULL AND (req IS NOT NULL OR ${fileQuery ? 1 : 0})`,
    ])
      idx.sql(sql).run({ a: account });
  }
  const where = `id IN (${RELATED}) AND account IN (:a, '') AND at >= :since`;
  const total = (idx.sql(`SELECT COUNT(*) AS n FROM lines WHERE ${where}`).get({ a: account, since }) as { n: number })
    .n;
  const ordered: StatementSync = idx.sql(
    `SELECT id, file, off, len, at, event, req, fname FROM lines WHERE ${where} ORDER BY at, file, off LIMIT :limit OFFSET :from`,
  );
  return {
    requisitions: (idx.sql('SELECT req FROM g_req ORDER BY req').all() as Array<{ req: string }>).map((r) => r.req),
    rfqIds: (idx.sql('SELECT rfq FROM g_rfq ORDER BY rfq').all() as Array<{ rfq: number }>).map((r) => r.rfq),
    files: (
      idx
        .sql(
          `SELECT fname, MIN(at) AS at FROM lines WHERE ${where} AND event = 'file-taken' GROUP BY fname ORDER BY at`,
        )
        .all({ a: account, since }) as Array<{ fname: string | null }>
    ).map((r) => r.fname ?? ''),
    total,
    rows: (from = 0, limit = -1) =>
      ordered.iterate({ a: account, since, from, limit }) as unknown as IterableIterator<Row>,
  };
}
