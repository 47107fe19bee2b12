/**
 * The index of the audit log (docs/architecture.md#the-audit-index): an SQLite file beside the log,
 * `audit/index.<host>.sqlite`, through Node's own `node:sqlite`. It maps every identity a line carries (external_id,
 * requisition, key, RFQ `_id` and number with the account, file name and sha256) to the line's place in its file
 * (file, byte offset, length), so `trace` reads the index and then only the lines it names. The JSONL files stay the
 * record: the index is never the source of truth and is caught up from them whenever it is behind (per file: the
 * bytes indexed so far, the file's inode; a file removed or replaced is dropped and read again), and rebuilt whole
 * when missing, of another schema, or broken.
 *
 * Each host keeps its own index (SQLite over a network share is not trusted with several hosts' locks); it indexes
 * every host's files. The writer indexes its own line after the line is durable, only when that is cheap and the
 * database is free (never waiting on a lock: the worker's event loop must not stall); whatever it leaves is caught
 * up by the next reader (the `trace` command, or the lookup page's own thread). WAL journal: readers never block
 * the writer. Synchronous, as node:sqlite is: callers other than the writer run it off the worker's event loop.
 */
import { chmodSync, existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import type { AuditLine } from './events.ts';
import { parseAuditLine, requisitionOf } from './line-shape.ts';
import { AUDIT_FILE_MODE, readWholeLinesSync, type RawLine, wholeLines } from './log-file.ts';
import { parseAuditFileName } from './log-names.ts';

const SCHEMA_VERSION = '1';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (k TEXT PRIMARY KEY, v TEXT);
CREATE TABLE IF NOT EXISTS files (name TEXT PRIMARY KEY, ino INTEGER NOT NULL, indexed INTEGER NOT NULL,
  tail INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS lines (id INTEGER PRIMARY KEY, file TEXT NOT NULL, off INTEGER NOT NULL,
  len INTEGER NOT NULL, at TEXT NOT NULL, event TEXT NOT NULL, account TEXT NOT NULL, req TEXT, key TEXT,
  parent TEXT, rfq_id INTEGER, rfq_no INTEGER, fname TEXT, sha TEXT, writer TEXT, seq INTEGER);
CREATE INDEX IF NOT EXISTS lines_file ON lines(file);
CREATE INDEX IF NOT EXISTS lines_at ON lines(at);
CREATE INDEX IF NOT EXISTS lines_req ON lines(req) WHERE req IS NOT NULL;
CREATE INDEX IF NOT EXISTS lines_key ON lines(key) WHERE key IS NOT NULL;
CREATE INDEX IF NOT EXISTS lines_parent ON lines(parent) WHERE parent IS NOT NULL;
CREATE INDEX IF NOT EXISTS lines_rfq ON lines(rfq_id, account) WHERE rfq_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS lines_rfq_no ON lines(rfq_no, account) WHERE rfq_no IS NOT NULL;
CREATE INDEX IF NOT EXISTS lines_fname ON lines(fname) WHERE fname IS NOT NULL;
CREATE INDEX IF NOT EXISTS lines_sha ON lines(sha) WHERE sha IS NOT NULL;
CREATE INDEX IF NOT EXISTS lines_seq ON lines(writer, seq) WHERE writer IS NOT NULL;
CREATE TABLE IF NOT EXISTS ext (x TEXT NOT NULL, req TEXT NOT NULL, PRIMARY KEY (x, req)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS mentions (rfq_id INTEGER NOT NULL, account TEXT NOT NULL, line INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS mentions_rfq ON mentions(rfq_id, account);
CREATE TABLE IF NOT EXISTS unreadable (file TEXT NOT NULL, off INTEGER NOT NULL, lineno INTEGER);
`;

/** The index's file for this host, in the log's folder. */
export function indexFileOf(dir: string, host: string): string {
  return join(dir, `index.${host}.sqlite`);
}

export class AuditIndex {
  readonly db: DatabaseSync;
  /** The index's file, or why it is held in memory (the folder cannot hold it). */
  readonly where: { file: string } | { memory: string };
  private readonly stmts = new Map<string, StatementSync>();

  readonly dir: string;

  constructor(dir: string, db: DatabaseSync, where: AuditIndex['where']) {
    this.dir = dir;
    this.db = db;
    this.where = where;
  }

  /** A prepared statement, prepared once. */
  sql(text: string): StatementSync {
    let s = this.stmts.get(text);
    if (!s) {
      s = this.db.prepare(text);
      this.stmts.set(text, s);
    }
    return s;
  }

  close(): void {
    this.stmts.clear();
    if (this.db.isOpen) this.db.close();
  }

  /** Bring the index up to the files: new bytes of every file read, files removed or replaced dropped. */
  catchUp(): void {
    const names = existsSync(this.dir) ? readdirSync(this.dir).filter((n) => parseAuditFileName(n)) : [];
    const present = new Set(names);
    const known = new Map(
      (this.sql('SELECT name, ino, indexed, tail FROM files').all() as unknown as FileRow[]).map((r) => [r.name, r]),
    );
    const gone = [...known.keys()].filter((n) => !present.has(n));
    if (gone.length) {
      this.transaction(() => {
        for (const n of gone) this.dropFile(n);
        this.sql('DELETE FROM ext WHERE req NOT IN (SELECT req FROM lines WHERE req IS NOT NULL)').run();
      });
    }
    for (const name of names) {
      const path = join(this.dir, name);
      let st;
      try {
        st = statSync(path);
      } catch {
        continue; // removed meanwhile (retention on another host)
      }
      const row = known.get(name);
      if (row && row.ino === st.ino && row.indexed + row.tail === st.size) continue;
      this.transaction(() => {
        const now = this.sql('SELECT name, ino, indexed, tail FROM files WHERE name = ?').get(name) as
          FileRow | undefined;
        let from = now?.indexed ?? 0;
        if (now && (now.ino !== st.ino || st.size < now.indexed)) {
          this.dropFile(name); // replaced or cut: read again from its start
          from = 0;
        }
        let lineno = from === 0 ? 0 : this.linesBefore(name);
        const { end, tail } = readWholeLinesSync(path, from, st.size, (lines) => {
          lineno = this.addLines(name, lines, lineno);
        });
        this.sql('INSERT OR REPLACE INTO files (name, ino, indexed, tail) VALUES (?, ?, ?, ?)').run(
          name,
          st.ino,
          end,
          tail,
        );
      });
    }
  }

  /**
   * The writer's step: the bytes of its file from `from` (what the index held) to the file's end, read after its
   * append. Indexed only when the index is where the writer left it and the database is free now; else left to
   * the next reader. Returns whether it indexed them.
   */
  addAppended(name: string, ino: number, from: number, bytes: Buffer): boolean {
    const row = this.sql('SELECT ino, indexed, tail FROM files WHERE name = ?').get(name) as FileRow | undefined;
    if ((row?.indexed ?? 0) !== from || (row && row.ino !== ino)) return false;
    let done = false;
    this.transaction(() => {
      const now = this.sql('SELECT indexed FROM files WHERE name = ?').get(name) as { indexed: number } | undefined;
      if ((now?.indexed ?? 0) !== from) return;
      const { lines, rest } = wholeLines(bytes, from);
      this.addLines(name, lines, from === 0 ? 0 : this.linesBefore(name));
      this.sql('INSERT OR REPLACE INTO files (name, ino, indexed, tail) VALUES (?, ?, ?, ?)').run(
        name,
        ino,
        from + rest,
        bytes.length - rest,
      );
      done = true;
    });
    return done;
  }

  /** Where the index stands for a file (0 when it knows nothing of it). */
  indexedUpTo(name: string): number {
    return (
      (this.sql('SELECT indexed FROM files WHERE name = ?').get(name) as { indexed: number } | undefined)?.indexed ?? 0
    );
  }

  private linesBefore(name: string): number {
    const a = this.sql('SELECT COUNT(*) AS n FROM lines WHERE file = ?').get(name) as { n: number };
    const b = this.sql('SELECT COUNT(*) AS n FROM unreadable WHERE file = ?').get(name) as { n: number };
    return a.n + b.n;
  }

  private dropFile(name: string): void {
    this.sql('DELETE FROM mentions WHERE line IN (SELECT id FROM lines WHERE file = ?)').run(name);
    this.sql('DELETE FROM lines WHERE file = ?').run(name);
    this.sql('DELETE FROM unreadable WHERE file = ?').run(name);
    this.sql('DELETE FROM files WHERE name = ?').run(name);
  }

  /** Index whole lines of one file; `lineno` counts the lines before them (for "path:line" of what is unreadable). */
  private addLines(file: string, lines: RawLine[], lineno: number): number {
    const insert = this.sql(
      `INSERT INTO lines (file, off, len, at, event, account, req, key, parent, rfq_id, rfq_no, fname, sha, writer, seq)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const ext = this.sql('INSERT OR IGNORE INTO ext (x, req) VALUES (?, ?)');
    const mention = this.sql('INSERT INTO mentions (rfq_id, account, line) VALUES (?, ?, ?)');
    const bad = this.sql('INSERT INTO unreadable (file, off, lineno) VALUES (?, ?, ?)');
    let n = lineno;
    for (const raw of lines) {
      n++;
      if (raw.len === 0) continue; // an empty line: a newline mended twice by two processes, nothing lost
      const l = parseAuditLine(raw.bytes.toString('utf8'));
      if (!l) {
        bad.run(file, raw.off, n);
        continue;
      }
      const account = l.account ?? '';
      const req = requisitionOf(l) ?? null;
      const id = insert.run(
        file,
        raw.off,
        raw.len,
        l.at,
        l.event,
        account,
        req,
        l.key ?? null,
        typeof l.parent === 'string' ? l.parent : null,
        l.rfq_id ?? null,
        l.rfq_no ?? null,
        l.file ?? null,
        l.file_sha256?.toLowerCase() ?? null,
        l.writer ?? null,
        l.seq ?? null,
      ).lastInsertRowid;
      if (req) for (const x of l.external_ids ?? []) ext.run(x, req);
      for (const r of mentionedRfqs(l)) mention.run(r, account, id);
    }
    return n;
  }

  /** `fn` in one write transaction (BEGIN IMMEDIATE: the lock is taken first, waiting as the connection allows). */
  transaction(fn: () => void): void {
    this.db.exec('BEGIN IMMEDIATE');
    try {
      fn();
      this.db.exec('COMMIT');
    } catch (err) {
      if (this.db.isTransaction) this.db.exec('ROLLBACK');
      throw err;
    }
  }
}

interface FileRow {
  name: string;
  ino: number;
  indexed: number;
  tail: number;
}

/** The RFQs a notification names beside its own `rfq_id` (a digest of several). */
function mentionedRfqs(l: AuditLine): number[] {
  const ids = Array.isArray(l.rfq_ids) ? (l.rfq_ids as number[]) : [];
  return ids.filter((id) => id !== l.rfq_id);
}

/** SQLite's answer that the file is not a database, or a broken one. */
function isBroken(err: unknown): boolean {
  const code = (err as { errcode?: number }).errcode;
  return code === 11 || code === 26; // SQLITE_CORRUPT, SQLITE_NOTADB
}

/**
 * Open the index of the log in `dir` for `host`. A reader (`busyMs` > 0) makes it when missing, and starts it over
 * when it is of another schema or broken; when the folder cannot hold it (read-only, missing), it is built in
 * memory from the files, and `where` says why. A writer (`busyMs` 0: never waits) opens what is there and returns
 * undefined when it is not usable as it is.
 */
export function openAuditIndex(
  dir: string,
  host: string,
  o: { busyMs: number; writer?: boolean },
): AuditIndex | undefined {
  const file = indexFileOf(dir, host);
  if (o.writer && !existsSync(dir)) return undefined; // a writer never makes the folder: the missing folder is its fault
  let why: string;
  try {
    const opened = openAt(dir, file, o);
    if (typeof opened !== 'string') return opened;
    why = opened;
  } catch (err) {
    why = `${file}: ${(err as Error).message.split('\n')[0]}`;
    if (!isBroken(err) && !o.writer) return inMemory(dir, why);
  }
  if (o.writer) return undefined;
  try {
    for (const f of [file, `${file}-wal`, `${file}-shm`]) rmSync(f, { force: true });
    const again = openAt(dir, file, o);
    if (typeof again !== 'string') return again;
  } catch {
    // fall through to memory
  }
  return inMemory(dir, why);
}

/** An index in memory, built from the files, when the folder cannot hold one (`why`). */
function inMemory(dir: string, why: string): AuditIndex {
  const db = new DatabaseSync(':memory:');
  db.exec(SCHEMA);
  return new AuditIndex(dir, db, { memory: why });
}

/** The index in `file`, made when new; a file of another schema is closed and said (a string), to be started over. */
function openAt(dir: string, file: string, o: { busyMs: number }): AuditIndex | string {
  const db = new DatabaseSync(file, { timeout: o.busyMs });
  try {
    db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;');
    const version = (() => {
      try {
        return (db.prepare("SELECT v FROM meta WHERE k = 'schema'").get() as { v: string } | undefined)?.v;
      } catch {
        return undefined; // a new file: no meta table yet
      }
    })();
    if (version !== undefined && version !== SCHEMA_VERSION) {
      db.close();
      return `${file}: an index of schema ${version}`;
    }
    if (version === undefined) {
      if (file !== ':memory:') chmodSync(file, AUDIT_FILE_MODE); // as the log's files, whatever the umask
      db.exec(SCHEMA);
      db.prepare("INSERT OR REPLACE INTO meta (k, v) VALUES ('schema', ?)").run(SCHEMA_VERSION);
    }
    return new AuditIndex(dir, db, { file });
  } catch (err) {
    db.close();
    throw err;
  }
}
