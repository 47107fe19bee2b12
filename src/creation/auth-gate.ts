/**
 * Auth pause: when the service refuses the token (401/403), creation and polling stop instead of failing jobs.
 *
 * - State lives in Redis (`keys.authPause`: reason, since, tokenFingerprint), so every worker on every host sees it,
 *   and the create-rfq and poll queues are paused with BullMQ's global pause (no worker fetches from them).
 * - The worker that pauses logs ONE error line saying what happened and how to fix it; the others stay quiet.
 * - Every gate checks every `checkMs` (default 5 s): while paused, it re-reads the token (SOURCING_TOKEN_FILE); when
 *   its fingerprint differs from the one that was refused, it resumes. A restart with a new SOURCING_TOKEN resumes
 *   the same way (checked at start). `resume()` is also there for an operator command.
 */
import type { Redis } from 'ioredis';
import type { Logger } from '../logger.ts';
import type { Queue } from 'bullmq';
import type { RedisKeys } from '../redis/redis-keys.ts';
import type { TokenSource } from './token-source.ts';

export interface AuthPauseStatus {
  paused: boolean;
  reason?: string;
  /** Unix ms. */
  since?: number;
  /** Fingerprint of the refused token (never the token). */
  tokenFingerprint?: string;
}

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
  /** Run one check now (resume when the token changed). */
  check(): Promise<void>;
  close(): void;
}

export interface AuthGateOptions {
  redis: Redis;
  keys: RedisKeys;
  /** Queues paused while the token is refused: create-rfq and poll. */
  queues: Queue[];
  tokens: TokenSource;
  logger: Logger;
  checkMs?: number;
  /** Told once per pause, by the worker that paused (a notification). */
  onPaused?: (reason: string, since: number) => Promise<void>;
}

export async function createAuthGate(o: AuthGateOptions): Promise<AuthGate> {
  let paused = false;
  let timer: NodeJS.Timeout | undefined;

  const status = async (): Promise<AuthPauseStatus> => {
    const h = await o.redis.hgetall(o.keys.authPause);
    if (!h.reason) return { paused: false };
    return { paused: true, reason: h.reason, since: Number(h.since), tokenFingerprint: h.tokenFingerprint };
  };

  const resume = async (why: string): Promise<void> => {
    const removed = await o.redis.del(o.keys.authPause);
    await Promise.all(o.queues.map((q) => q.resume()));
    // Jobs set aside while paused wait as delayed: run them now (a job delayed for another reason looks again
    // and is delayed again, which is harmless).
    await Promise.all(o.queues.map((q) => q.promoteJobs().catch(() => undefined)));
    if (paused || removed > 0)
      o.logger.info({ event: 'auth.resumed' }, `sourcing token accepted again (${why}): creation and polling resumed`);
    paused = false;
  };

  const check = async (): Promise<void> => {
    const s = await status();
    if (!s.paused) {
      paused = false;
      return;
    }
    paused = true;
    o.tokens.refresh();
    if (o.tokens.fingerprint() !== s.tokenFingerprint) await resume('the token was replaced');
  };

  const gate: AuthGate = {
    async pause(reason, tokenFingerprint) {
      const fp = tokenFingerprint ?? o.tokens.fingerprint();
      const since = Date.now();
      // HSETNX on `reason` decides which worker pauses (and logs) first; the others join silently.
      const [[, first]] = (await o.redis
        .multi()
        .hsetnx(o.keys.authPause, 'reason', reason)
        .hsetnx(o.keys.authPause, 'since', String(since))
        .hsetnx(o.keys.authPause, 'tokenFingerprint', fp)
        .exec()) as [[Error | null, number]];
      paused = true;
      await Promise.all(o.queues.map((q) => q.pause()));
      if (first === 1) {
        o.logger.error(
          { event: 'auth.paused', tokenFingerprint: fp },
          `AUTH REFUSED: ${reason}. RFQ creation and polling are paused, jobs are kept. Replace the token ` +
            '(SOURCING_TOKEN_FILE is re-read every few seconds, or restart with a new SOURCING_TOKEN) to resume.',
        );
        await o.onPaused?.(reason, since);
      }
      return first === 1;
    },
    resume,
    isPaused: () => paused,
    status,
    check,
    close() {
      if (timer) clearInterval(timer);
      timer = undefined;
    },
  };

  await check(); // a restart with a new token resumes here
  timer = setInterval(() => {
    check().catch((err: unknown) => o.logger.warn({ err }, 'auth pause check failed (will retry)'));
  }, o.checkMs ?? 5_000);
  timer.unref();
  return gate;
}
