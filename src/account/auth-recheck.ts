/**
 * The refused token, checked again on a back-off (docs/architecture.md#errors-and-retries). While creation and polling
 * are paused (auth-gate.ts), the same token is tried with one cheap authenticated call (the first page of the open
 * list): first AUTH_CHECK_MS after the pause, then twice as long after each check, at most every 15 minutes. A
 * service whose login was down, or an account suspended and restored, so resumes the work by itself; `rfq-sync resume`
 * asks for a check now. One worker of all makes each check: the pause record in Redis holds the schedule (when the
 * next check is due, how many were made), claimed by a Lua script on Redis's clock.
 */
import type { Redis } from 'ioredis';
import { AuthError, RfqSyncError } from '../core/index.ts';
import { defineScript, loadScript, type ScriptFlag } from '../redis/index.ts';
import type { SourcingPort } from '../sourcing/index.ts';

/** The longest wait between two checks of the same token. */
export const AUTH_CHECK_MAX_MS = 15 * 60_000;

/** When this call paused (ms), 0 when a pause was recorded already. */
const PAUSE = loadScript<number>('authPause-1.lua');
const CLAIM = loadScript<[n: number, nextCheckAt: number]>('authCheckClaim-1.lua');
const RECORD = loadScript<ScriptFlag>('authCheckRecord-1.lua');

export interface CheckClaim {
  /** The number of this check in the pause (1, 2, ...); 0: not due yet; -1: nothing is paused. */
  n: number;
  /** When the check after this one is due (Unix ms, Redis's clock). */
  nextCheckAt: number;
}

export interface AuthRecheck {
  /** Record a refusal: when this call paused (the first of all workers; Unix ms), undefined when it joined a pause. */
  pause(reason: string, tokenFingerprint: string): Promise<number | undefined>;
  /** Claim the next check: due by the back-off, or at once when `now` (a person asked, a worker started). */
  claim(now: boolean): Promise<CheckClaim>;
  /** Keep what a check got, while the pause lasts. */
  record(result: string): Promise<void>;
}

export function authRecheck(redis: Redis, key: string, baseMs: number, longestMs = AUTH_CHECK_MAX_MS): AuthRecheck {
  // an AUTH_CHECK_MS above 15 minutes is the longest wait itself
  const maxMs = Math.max(baseMs, longestMs);
  const pause = defineScript(redis, PAUSE);
  const claim = defineScript(redis, CLAIM);
  const record = defineScript(redis, RECORD);
  return {
    async pause(reason, tokenFingerprint) {
      const since = await pause([key], [reason, tokenFingerprint, baseMs]);
      return since > 0 ? since : undefined;
    },
    async claim(now) {
      const [n, nextCheckAt] = await claim([key], [baseMs, maxMs, now ? '1' : '0']);
      return { n, nextCheckAt };
    },
    async record(result) {
      await record([key], [result]);
    },
  };
}

/**
 * One cheap authenticated call: the first page of the open list (a 401/403 throws AuthError). A broken record on it
 * is no answer about the token: without `onInvalid` it would fail every check, and the pause would never end.
 */
export async function firstPageProbe(port: Pick<SourcingPort, 'listRfqPages'>): Promise<void> {
  for await (const page of port.listRfqPages('open', { onInvalid: () => undefined })) {
    void page;
    break;
  }
}

/** What a failed check got, in words for the log and `status` (never the token). */
export function checkFailure(err: unknown): string {
  if (err instanceof AuthError) return `still refused (HTTP ${err.status})`;
  const message = err instanceof RfqSyncError || err instanceof Error ? err.message : String(err);
  const line = message.split('\n')[0] ?? '';
  return `no answer that says (${line.length > 200 ? `${line.slice(0, 197)}...` : line})`;
}
