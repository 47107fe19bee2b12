/**
 * The bearer token as the worker sees it now: SOURCING_TOKEN (fixed for the life of the process) or
 * SOURCING_TOKEN_FILE, re-read at most every `maxAgeMs` so a replaced file (Docker/Kubernetes secret rotation) is
 * picked up without a restart. The token itself is never logged; `fingerprint` identifies it in Redis and logs.
 * A file that cannot be used (a tab or line break inside, empty, unreadable on two reads in a row) is not taken: the
 * last good token stays, and `problem()` says why (token-problems.ts reports it), naming a position, never the token.
 */
import { createHash } from 'node:crypto';
import { readTokenFile, tokenProblem } from '../settings/index.ts';
import { registerSecret } from '../core/index.ts';

export interface TokenSource {
  /** Current token ('' when none is configured, e.g. the sandbox). */
  get(): string;
  /** Re-read the file now (no-op for a fixed token) and return the token. */
  refresh(): string;
  /** Short sha256 of the current token: safe to store and log. */
  fingerprint(): string;
  /** The file, when the token comes from one. */
  readonly file?: string;
  /** Why the file as last read cannot be used (undefined: it can, or there is no file). */
  problem?(): string | undefined;
}

let lastToken: string | undefined;
let lastFingerprint = '';

/** Asked once per create-rfq job: the last token's fingerprint is kept (the token rarely changes). */
export function tokenFingerprint(token: string): string {
  if (token !== lastToken) {
    lastFingerprint = createHash('sha256').update(token).digest('hex').slice(0, 12);
    lastToken = token;
  }
  return lastFingerprint;
}

export function createTokenSource(o: { token?: string; tokenFile?: string; maxAgeMs?: number }): TokenSource {
  const maxAgeMs = o.maxAgeMs ?? 2_000;
  let current = o.token ?? '';
  let readAt = 0;
  let problem: string | undefined;
  let unreadable = 0;
  registerSecret(current);
  const refresh = (): string => {
    readAt = Date.now();
    if (!o.tokenFile) return current;
    let t: string;
    try {
      t = readTokenFile(o.tokenFile);
      unreadable = 0;
    } catch (err) {
      // A file being replaced may be briefly absent: said only when it stays so.
      if (++unreadable >= 2)
        problem = `cannot read ${o.tokenFile} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`;
      return current;
    }
    const bad = t ? tokenProblem(t) : undefined;
    if (!t) problem = `${o.tokenFile} is empty`;
    else if (bad) problem = `the token in ${o.tokenFile} ${bad}`;
    else {
      registerSecret(t);
      current = t;
      problem = undefined;
    }
    return current;
  };
  if (o.tokenFile) refresh();
  return {
    get: () => (o.tokenFile && Date.now() - readAt > maxAgeMs ? refresh() : current),
    refresh,
    fingerprint: () => tokenFingerprint(current),
    ...(o.tokenFile ? { file: o.tokenFile } : {}),
    problem: () => problem,
  };
}
