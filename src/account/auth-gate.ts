/**
 * Auth pause: when the service refuses the token (401/403), creation and polling stop instead of failing jobs.
 *
 * - State lives in Redis (`keys.authPause`: reason, since, tokenFingerprint, and the re-check schedule), so every
 *   worker on every host sees it, and the create-rfq and poll queues are paused with BullMQ's global pause (no worker
 *   fetches from them).
 * - The worker that pauses logs ONE error line saying what happened and how to fix it; the others stay quiet.
 * - Every gate checks every `checkMs` (AUTH_CHECK_MS): it re-reads the token (SOURCING_TOKEN_FILE) and reports a file
 *   that cannot be used (token-problems.ts); while paused, a token whose fingerprint differs from the refused one
 *   resumes at once, and the same token is tried again on a back-off (auth-recheck.ts), so a pause lifts itself
 *   when the service accepts it again. A restart with a new SOURCING_TOKEN resumes the same way (checked at start).
 * - `checkNow()` checks the same token at once (`rfq-sync resume`, a worker that starts and finds a pause).
 */
import type { Redis } from 'ioredis';
import type { Logger } from '../core/index.ts';
import type { Queue } from 'bullmq';
import type { RedisKeys } from '../redis/index.ts';
import { AUTH_CHECK_MAX_MS, authRecheck, checkFailure, type AuthRecheck, type CheckClaim } from './auth-recheck.ts';
import type { TokenSource } from './token-source.ts';
import { readTokenProblems, tokenProblemReporter, type TokenProblem } from './token-problems.ts';

export interface AuthPauseStatus {
  paused: boolean;
  reason?: string;
  /** Unix ms. */
  since?: number;
  /** Fingerprint of the refused token (never the token). */
  tokenFingerprint?: string;
  /** The last check of the same token during this pause: when (Unix ms) and what it got. */
  lastCheck?: { at: number; result: string };
  /** When the next check is due (Unix ms). */
  nextCheckAt?: number;
  /** Checks made during this pause. */
  checks?: number;
  /** Token files the workers could not use (a bad character, empty, unreadable). */
  tokenProblems?: TokenProblem[];
}

export type CheckOutcome =
  | { outcome: 'not-paused' }
  | { outcome: 'resumed'; why: string }
  | { outcome: 'still-paused'; result: string; nextCheckAt: number };

export interface AuthGate {
  /**
   * Record the refusal and pause creation and polling. Returns true when this call did the pausing.
   * `tokenFingerprint`: of the token the refused call was sent with, when the caller knows it (taken before the
   * call): a token replaced while that call was on its way must not be recorded as the refused one.
   */
  pause(reason: string, tokenFingerprint?: string): Promise<boolean>;
  /** Lift the pause and resume the queues. */
  resume(why: string): Promise<void>;
  /** Local, cheap view (refreshed by the periodic check and by pause/resume). */
  isPaused(): boolean;
  /** Read from Redis. */
  status(): Promise<AuthPauseStatus>;
  /** Run one periodic check now: the token file, a replaced token, the same token when its check is due. */
  check(): Promise<void>;
  /** Check the same token now, whatever the back-off says. */
  checkNow(): Promise<CheckOutcome>;
  close(): void;
}

export interface AuthGateOptions {
  redis: Redis;
  keys: RedisKeys;
  /** Queues paused while the token is refused: create-rfq and poll. */
  queues: Queue[];
  /** Queues whose delayed jobs run at once when the pause lifts (those that wait out a refusal). Default `queues`. */
  promote?: Queue[];
  tokens: TokenSource;
  logger: Logger;
  /** One cheap authenticated call with the current token (throws AuthError when refused). */
  probe: () => Promise<void>;
  /** How often the gate checks, and the first wait of the back-off, ms. Default 5,000. */
  checkMs?: number;
  /** The longest wait between two checks of the same token, ms. Default 15 minutes. */
  maxCheckMs?: number;
  /** Told once per pause, by the worker that paused (a notification). */
  onPaused?: (reason: string, since: number) => Promise<void>;
}

/** The pause as Redis holds it (also for commands that open no gate). */
export async function readAuthPause(redis: Redis, keys: RedisKeys): Promise<AuthPauseStatus> {
  const [h, tokenProblems] = await Promise.all([redis.hgetall(keys.authPause), readTokenProblems(redis, keys)]);
  const problems = tokenProblems.length > 0 ? { tokenProblems } : {};
  if (!h.reason) return { paused: false, ...problems };
  return {
    paused: true,
    reason: h.reason,
    since: Number(h.since),
    tokenFingerprint: h.tokenFingerprint,
    ...(h.lastCheckAt ? { lastCheck: { at: Number(h.lastCheckAt), result: h.lastCheckResult ?? '' } } : {}),
    ...(h.nextCheckAt ? { nextCheckAt: Number(h.nextCheckAt) } : {}),
    checks: Number(h.checks ?? 0),
    ...problems,
  };
}

export async function createAuthGate(o: AuthGateOptions): Promise<AuthGate> {
  let paused = false;
  let timer: NodeJS.Timeout | undefined;
  const checkMs = o.checkMs ?? 5_000;
  const recheck = authRecheck(o.redis, o.keys.authPause, checkMs, o.maxCheckMs ?? AUTH_CHECK_MAX_MS);
  const tokenReports = o.tokens.file
    ? tokenProblemReporter({ redis: o.redis, keys: o.keys, logger: o.logger, file: o.tokens.file })
    : undefined;
  const status = () => readAuthPause(o.redis, o.keys);

  const resume = async (why: string): Promise<void> => {
    const removed = await o.redis.del(o.keys.authPause);
    const was = paused;
    // Open before any job is let go: a promoted job that still saw the gate paused would be set aside for
    // AUTH_RETRY_MS again (seen: the resumed poll ran 30 s late, 1 run in 4).
    paused = false;
    await Promise.all(o.queues.map((q) => q.resume()));
    // Jobs set aside while paused wait as delayed: run them now (a job delayed for another reason looks again
    // and is delayed again, which is harmless).
    await Promise.all((o.promote ?? o.queues).map((q) => q.promoteJobs().catch(() => undefined)));
    if (was || removed > 0)
      o.logger.info(
        { event: 'auth.resumed', why },
        `sourcing token accepted again (${why}): creation and polling resumed`,
      );
  };

  /** The same token, tried once (the check was claimed): resumes on success, keeps the result otherwise. */
  const tryToken = async (claim: CheckClaim): Promise<CheckOutcome> => {
    try {
      await o.probe();
    } catch (err) {
      const result = checkFailure(err);
      await recheck.record(result);
      const inS = Math.max(0, Math.round((claim.nextCheckAt - Date.now()) / 1000));
      o.logger.warn(
        { event: 'auth.still-paused', check: claim.n, result, nextCheckAt: new Date(claim.nextCheckAt).toISOString() },
        `sourcing calls still paused: check ${claim.n} of the same token: ${result}; next check in about ${inS} s ` +
          '(replace the token, or `rfq-sync resume` to check now)',
      );
      return { outcome: 'still-paused', result, nextCheckAt: claim.nextCheckAt };
    }
    const why = `check ${claim.n}: the service accepts the same token again`;
    await resume(why);
    return { outcome: 'resumed', why };
  };

  /** The token file read again (its problem reported), the pause read; a replaced token resumes at once. */
  const look = async (): Promise<'not-paused' | 'replaced' | 'same'> => {
    o.tokens.refresh();
    await tokenReports?.report(o.tokens.problem?.());
    const s = await status();
    paused = s.paused;
    if (!s.paused) return 'not-paused';
    if (o.tokens.fingerprint() === s.tokenFingerprint) return 'same';
    await resume('the token was replaced');
    return 'replaced';
  };

  const check = async (): Promise<void> => {
    if ((await look()) !== 'same') return;
    const claim = await recheck.claim(false);
    if (claim.n > 0) await tryToken(claim);
  };

  const checkNow = async (): Promise<CheckOutcome> => {
    const seen = await look();
    if (seen === 'not-paused') return { outcome: 'not-paused' };
    if (seen === 'replaced') return { outcome: 'resumed', why: 'the token was replaced' };
    const claim = await recheck.claim(true);
    if (claim.n < 0) return { outcome: 'not-paused' };
    return tryToken(claim);
  };

  const gate: AuthGate = {
    async pause(reason, tokenFingerprint) {
      paused = true;
      return recordPause(o, recheck, reason, tokenFingerprint ?? o.tokens.fingerprint(), checkMs);
    },
    resume,
    isPaused: () => paused,
    status,
    check,
    checkNow,
    close() {
      if (timer) clearInterval(timer);
      timer = undefined;
    },
  };

  await look(); // a restart with a new token resumes here
  timer = setInterval(() => {
    check().catch((err: unknown) => o.logger.warn({ err }, 'auth pause check failed (will retry)'));
  }, checkMs);
  timer.unref();
  return gate;
}

/**
 * A refusal recorded and the queues paused; the script decides which worker pauses first: that one logs the one error
 * line and notifies, the others join silently. True for the first.
 */
async function recordPause(
  o: AuthGateOptions,
  recheck: AuthRecheck,
  reason: string,
  tokenFingerprint: string,
  checkMs: number,
): Promise<boolean> {
  const since = await recheck.pause(reason, tokenFingerprint);
  await Promise.all(o.queues.map((q) => q.pause()));
  if (since === undefined) return false;
  logPaused(o.logger, reason, tokenFingerprint, checkMs);
  await o.onPaused?.(reason, since);
  return true;
}

/** The one error line of a pause, by the worker that paused first. */
function logPaused(logger: Logger, reason: string, tokenFingerprint: string, checkMs: number): void {
  logger.error(
    { event: 'auth.paused', tokenFingerprint },
    `AUTH REFUSED: ${reason}. RFQ creation and polling are paused, jobs are kept. The same token is checked ` +
      `again after ${checkMs < 1_000 ? `${checkMs} ms` : `${Math.round(checkMs / 1000)} s`}, then less and less often (at most every 15 minutes): work ` +
      'resumes by itself once the service accepts it. Replace the token (SOURCING_TOKEN_FILE is re-read every ' +
      'few seconds, or restart with a new SOURCING_TOKEN), or run `rfq-sync resume` to check now.',
  );
}
