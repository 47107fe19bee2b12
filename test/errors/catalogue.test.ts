/**
 * One error catalogue (issue 15 item 4): every error src raises on purpose is an RfqSyncError from src/core/errors.ts,
 * with a stable `code` and a kind, so logs, reports, metrics and exit codes can rely on them. A source scan keeps it
 * so: no bare `throw new Error(`, no error class defined elsewhere, no code made up inline.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  AttemptBusyError,
  ReconcileUnstableError,
  RfqSyncError,
  SandboxError,
  SheetNotFoundError,
  ThrottledError,
  isRetryablePageError,
  kindOf,
} from '../../src/core/errors.ts';

const ROOT = resolve(import.meta.dirname, '../..');
function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? tsFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}
const sources = ['src', 'app']
  .flatMap((d) => tsFiles(join(ROOT, d)))
  .map((p) => ({ path: relative(ROOT, p), text: readFileSync(p, 'utf8') }));
const lines = (re: RegExp, except: (path: string) => boolean = () => false) =>
  sources
    .filter((s) => !except(s.path))
    .flatMap((s) => s.text.split('\n').flatMap((l, i) => (re.test(l) ? [`${s.path}:${i + 1}: ${l.trim()}`] : [])));

describe('the source keeps to the one catalogue', () => {
  it('no bare `throw new Error(` in src', () => {
    expect(lines(/throw new Error\(/)).toEqual([]);
  });

  it('no error class defined outside src/core/errors.ts', () => {
    // ingest-file.ts's CallbackFailure is a private envelope, unwrapped before it leaves the module (never seen).
    const found = lines(/class \w+ extends \w*Error\b/, (p) => p === 'src/core/errors.ts').filter(
      (l) => !l.includes('class CallbackFailure'),
    );
    expect(found).toEqual([]);
  });

  it('no error code made up inline: new RfqSyncError(...) only in src/core/errors.ts', () => {
    expect(lines(/new RfqSyncError\(/, (p) => p === 'src/core/errors.ts')).toEqual([]);
  });
});

describe('the classes that moved in keep what callers rely on', () => {
  it('codes, kinds, fields', () => {
    const cases: Array<[RfqSyncError, string, string]> = [
      [new AttemptBusyError('p/PR-1', 700), 'E_ATTEMPT_BUSY', 'transient'],
      [new ReconcileUnstableError('lists kept changing', 900), 'E_RECONCILE_UNSTABLE', 'transient'],
      [new ThrottledError(2500), 'E_THROTTLED', 'transient'],
      [new SheetNotFoundError('PRs', ['Sheet1']), 'E_SHEET_NOT_FOUND', 'data'],
      [new SandboxError(404, 'no RFQ 9'), 'E_SANDBOX_REFUSED', 'data'],
    ];
    for (const [err, code, kind] of cases) {
      expect(err).toBeInstanceOf(RfqSyncError);
      expect(err).toBeInstanceOf(Error);
      expect({ name: err.name, code: err.code, kind: kindOf(err) }).toEqual({ name: err.constructor.name, code, kind });
    }
    const unstable = new ReconcileUnstableError('lists kept changing', 900);
    expect(unstable).toBeInstanceOf(AttemptBusyError); // the create job sets both aside the same way
    expect(unstable.waitMs).toBe(900);
    expect(unstable.reason).toBe('lists kept changing');
    expect(unstable.message).toBe(
      'reconcile search inconclusive (lists kept changing); nothing posted, looking again in 900 ms',
    );
    expect(new AttemptBusyError('p/PR-1', 700).message).toBe(
      'requisition p/PR-1 is being created by another attempt; looking again in 700 ms',
    );
    expect(new ThrottledError(2500).waitMs).toBe(2500);
    expect(new SheetNotFoundError('PRs', ['Sheet1']).message).toBe('has no sheet named "PRs" (sheets: "Sheet1")');
    expect(new SandboxError(404, 'no RFQ 9').status).toBe(404);
  });

  it('a job set aside (throttled, busy) is not a list page to ask again in place', () => {
    expect(isRetryablePageError(new ThrottledError(2500))).toBe(false);
    expect(isRetryablePageError(new AttemptBusyError('p/PR-1', 700))).toBe(false);
    expect(isRetryablePageError(new ReconcileUnstableError('x', 1))).toBe(false);
  });
});
