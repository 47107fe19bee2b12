/**
 * The checks behind /readyz: Redis answers PING, the sourcing service answers HTTP, calls are not paused for auth.
 * Each check is cheap and bounded in time, so a scrape every few seconds costs nothing and never hangs.
 */
import { Redis } from 'ioredis';
import { request } from 'undici';
import { redisOptionsFromUrl, parseInfo } from '../../src/redis/index.ts';
import type { OpsMetrics } from './metrics.ts';

/** How long a read of maxmemory-policy is trusted, ms (a scrape every few seconds costs one INFO a minute). */
const POLICY_TTL_MS = 30_000;

export interface CheckResult {
  ok: boolean;
  detail: string;
  /** Working, with a part out: ready (still 200), said as degraded. */
  degraded?: boolean;
}
export type ReadinessCheck = () => Promise<CheckResult>;

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    p,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

/**
 * A dedicated Redis connection for readiness: no offline queue (a PING while disconnected fails at once instead of
 * waiting), and reconnecting every ≤2 s so /readyz turns green again soon after Redis comes back.
 */
export function redisReadiness(redisUrl: string): { check: ReadinessCheck; close(): Promise<void> } {
  const client = new Redis({
    ...redisOptionsFromUrl(redisUrl),
    connectionName: 'rfq-sync-readyz',
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: 2_000,
    retryStrategy: (times) => Math.min(times * 200, 2_000),
  });
  let lastError = '';
  let policy: { at: number; value: string | undefined } | undefined;
  client.on('error', (err: Error) => {
    lastError = err.message;
  });
  return {
    async check() {
      try {
        // Just started or reconnecting: give the connection a moment instead of failing at once.
        if (client.status !== 'ready') {
          let onReady: (() => void) | undefined;
          await withTimeout(
            new Promise<void>((r) => client.once('ready', (onReady = r))),
            2_000,
            'Redis connection',
          ).finally(() => {
            if (onReady) client.off('ready', onReady);
          });
        }
        const pong = await withTimeout(client.ping(), 2_000, 'Redis PING');
        if (pong !== 'PONG') return { ok: false, detail: `PING answered ${pong}` };
        // checked at start and here too: a policy changed at run time may evict idempotency records or jobs
        if (!policy || Date.now() - policy.at > POLICY_TTL_MS) {
          const info = parseInfo(await withTimeout(client.info('memory'), 2_000, 'Redis INFO'));
          policy = { at: Date.now(), value: info.maxmemory_policy };
        }
        if (policy.value !== undefined && policy.value !== 'noeviction') {
          return {
            ok: false,
            detail: `Redis maxmemory-policy is ${policy.value}: it may evict idempotency records or jobs (set noeviction)`,
          };
        }
        return { ok: true, detail: 'PING answered' };
      } catch (err) {
        return { ok: false, detail: `Redis unreachable: ${lastError || (err as Error).message}` };
      }
    },
    async close() {
      client.disconnect();
    },
  };
}

/**
 * The sourcing service is reachable when a real call answered with an HTTP status in the last 30 s, or else when an
 * unauthenticated GET of the base URL gets any HTTP answer within 3 s (the token is never sent by this probe).
 * Probe results are cached for 10 s so frequent scrapes do not become traffic.
 */
export function serviceReadiness(baseUrl: string, metrics?: OpsMetrics): ReadinessCheck {
  let cached: { at: number; result: CheckResult } | undefined;
  return async () => {
    const failing = permanentlyFailing(metrics?.recentApiCalls() ?? []);
    if (failing) return { ok: false, detail: failing };
    const last = metrics?.lastApiCall();
    if (last && typeof last.status === 'number' && last.status < 500 && Date.now() - last.at < 30_000) {
      return { ok: true, detail: `last call ${last.operation} answered HTTP ${last.status}` };
    }
    if (cached && Date.now() - cached.at < 10_000) return cached.result;
    let result: CheckResult;
    try {
      const res = await request(baseUrl, {
        method: 'GET',
        headersTimeout: 3_000,
        bodyTimeout: 3_000,
        signal: AbortSignal.timeout(3_500),
      });
      await res.body.dump();
      result =
        res.statusCode >= 500
          ? { ok: false, detail: `sourcing service answered HTTP ${res.statusCode}` }
          : { ok: true, detail: `sourcing service answered HTTP ${res.statusCode}` };
    } catch (err) {
      result = { ok: false, detail: `sourcing service unreachable: ${(err as Error).message}` };
    }
    cached = { at: Date.now(), result };
    return result;
  };
}

/** Red while calls are paused because the service refused the token. */
export function authReadiness(paused: () => Promise<{ paused: boolean; reason?: string }>): ReadinessCheck {
  return async () => {
    try {
      const p = await paused();
      return p.paused
        ? { ok: false, detail: `paused: the sourcing service refused the token${p.reason ? ` (${p.reason})` : ''}` }
        : { ok: true, detail: 'not paused' };
    } catch (err) {
      return { ok: false, detail: `auth state unknown: ${(err as Error).message}` };
    }
  };
}

/** Calls within this window count for "every call fails". */
const FAILING_WINDOW_MS = 5 * 60_000;
const FAILING_MIN_CALLS = 3;

/**
 * Every recent call (at least FAILING_MIN_CALLS in FAILING_WINDOW_MS, none succeeded) refused for good: a 404 (a
 * wrong path prefix in SOURCING_BASE_URL), a redirect, an HTML page instead of JSON (a login page): the service
 * "answers", yet nothing can work. Undefined when that is not the case.
 */
export function permanentlyFailing(
  calls: ReadonlyArray<{ status: number | 'error' | 'invalid'; at: number; operation: string }>,
  now = Date.now(),
): string | undefined {
  const inWindow = calls.filter((c) => now - c.at < FAILING_WINDOW_MS);
  if (inWindow.length < FAILING_MIN_CALLS) return undefined;
  const permanent = (s: number | 'error' | 'invalid') =>
    s === 'invalid' ||
    (typeof s === 'number' && s >= 300 && s < 500 && s !== 401 && s !== 403 && s !== 408 && s !== 429);
  if (!inWindow.every((c) => permanent(c.status))) return undefined;
  const counts = new Map<string, number>();
  for (const c of inWindow) counts.set(String(c.status), (counts.get(String(c.status)) ?? 0) + 1);
  const what = [...counts]
    .map(([s, n]) => `${s === 'invalid' ? 'not JSON (a login or error page?)' : `HTTP ${s}`} x${n}`)
    .join(', ');
  const hint = counts.has('404')
    ? ' (a wrong path prefix in SOURCING_BASE_URL?)'
    : counts.has('invalid')
      ? ' (a proxy or login page in front of the service?)'
      : '';
  return `the last ${inWindow.length} calls to the service all failed for good: ${what}${hint}`;
}

/**
 * Polling works: not ready when the last POLL_FAILS polls all failed (a poll that hangs is ended by POLL_MAX_MS and
 * fails), saying the last error. `recentPolls` gives the newest first (the poll history in Redis).
 */
export function pollReadiness(
  recentPolls: () => Promise<Array<{ ok: boolean; error?: string; skipped?: string; finishedAt: number }>>,
): ReadinessCheck {
  return async () => {
    try {
      const polls = (await recentPolls()).filter((p) => !p.skipped).slice(0, POLL_FAILS);
      if (polls.length < POLL_FAILS || polls.some((p) => p.ok))
        return {
          ok: true,
          detail: polls[0]
            ? `last poll ${new Date(polls[0].finishedAt).toISOString()} ${polls[0].ok ? 'ok' : 'failed'}`
            : 'no poll yet',
        };
      return { ok: false, detail: `the last ${POLL_FAILS} polls failed: ${polls[0]!.error ?? 'unknown error'}` };
    } catch (err) {
      return { ok: false, detail: `poll state unknown: ${(err as Error).message}` };
    }
  };
}
const POLL_FAILS = 3;

/** Not ready while Redis's state is lost (src/redis/state-epoch.ts): creation is paused until `rfq-sync recover`. */
export function stateReadiness(lost: () => { detectedAt: number; reason: string } | undefined): ReadinessCheck {
  return async () => {
    const l = lost();
    return l
      ? {
          ok: false,
          detail: `Redis lost its state (seen ${new Date(l.detectedAt).toISOString()}: ${l.reason}): creation paused; run rfq-sync recover --since ...`,
        }
      : { ok: true, detail: 'Redis state matches the data folder' };
  };
}

/**
 * Not ready while the audit log cannot be written (src/audit/writer.ts): no step can be recorded, so the jobs wait.
 * Each check looks at the folder again (makes it when missing), naming the folder and the error.
 */
export function auditReadiness(audit: {
  check(): Promise<{ error: string; since: number } | undefined>;
  dir: string;
}): ReadinessCheck {
  return async () => {
    const f = await audit.check();
    return f
      ? {
          ok: false,
          detail: `the audit log cannot be written since ${new Date(f.since).toISOString()}: ${f.error}; jobs wait until it can`,
        }
      : { ok: true, detail: `${audit.dir} can be written` };
  };
}

/**
 * Degraded, not down, while a mapping profile is broken: it is skipped, files only it could take are held in the
 * inbox, every other profile works.
 */
export function mappingsReadiness(broken: () => ReadonlyArray<{ name: string; reason: string }>): ReadinessCheck {
  return async () => {
    const b = broken();
    return b.length === 0
      ? { ok: true, detail: 'every mapping profile loads' }
      : {
          ok: true,
          degraded: true,
          detail: `${b.length} mapping profile(s) broken and skipped (files only they could take are held in the inbox): ${b.map((x) => x.reason).join('; ')}`,
        };
  };
}

export async function runChecks(
  checks: Record<string, ReadinessCheck>,
): Promise<{ ready: boolean; degraded: boolean; checks: Record<string, CheckResult> }> {
  const names = Object.keys(checks);
  const results: CheckResult[] = await Promise.all(
    names.map((n) => checks[n]!().catch((err: Error) => ({ ok: false, detail: err.message }))),
  );
  const out: Record<string, CheckResult> = {};
  names.forEach((n, i) => {
    out[n] = results[i]!;
  });
  return { ready: results.every((r) => r.ok), degraded: results.some((r) => r.degraded === true), checks: out };
}
