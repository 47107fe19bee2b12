/**
 * The bearer token as the worker sees it now: SOURCING_TOKEN (fixed for the life of the process) or
 * SOURCING_TOKEN_FILE, re-read at most every `maxAgeMs` so a replaced file (Docker/Kubernetes secret rotation) is
 * picked up without a restart. The token itself is never logged; `fingerprint` identifies it in Redis and logs.
 */
import { createHash } from 'node:crypto';
import { readTokenFile, tokenProblem } from '../config.ts';
import { registerSecret } from '../logger.ts';

export interface TokenSource {
  /** Current token ('' when none is configured, e.g. the sandbox). */
  get(): string;
  /** Re-read the file now (no-op for a fixed token) and return the token. */
  refresh(): string;
  /** Short sha256 of the current token: safe to store and log. */
  fingerprint(): string;
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
  registerSecret(current);
  const refresh = (): string => {
    readAt = Date.now();
    if (!o.tokenFile) return current;
    try {
      const t = readTokenFile(o.tokenFile);
      // a rotated file with a line break inside is not taken: the last good token stays (loadConfig refuses it at start)
      if (t && !tokenProblem(t)) {
        registerSecret(t);
        current = t;
      }
    } catch {
      // A file being replaced may be briefly absent: keep the last good token.
    }
    return current;
  };
  if (o.tokenFile) refresh();
  return {
    get: () => (o.tokenFile && Date.now() - readAt > maxAgeMs ? refresh() : current),
    refresh,
    fingerprint: () => tokenFingerprint(current),
  };
}
