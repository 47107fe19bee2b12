/**
 * The auth part of `rfq-sync status`: the pause with the checks of the same token made during it (when, what they
 * got, when the next is due), and token files a worker could not use (the position of the bad character, never the
 * token). Read from the auth gate's record (src/account/auth-gate.ts).
 */
import type { AuthPauseStatus } from '../../src/account/index.ts';

export interface StatusPause {
  paused: boolean;
  reason?: string;
  since?: string;
  /** The last check of the same token during the pause: when, and what it got. */
  lastCheck?: { at: string; result: string };
  /** When the next check is due. */
  nextCheckAt?: string;
  /** Checks of the same token made during the pause. */
  checks?: number;
}

export interface StatusTokenProblem {
  host: string;
  file: string;
  problem: string;
  /** When a worker first saw it. */
  at: string;
}

const iso = (ms: number) => new Date(ms).toISOString();

export function pauseReport(a: AuthPauseStatus): StatusPause {
  return {
    paused: a.paused,
    ...(a.reason ? { reason: a.reason } : {}),
    ...(a.since ? { since: iso(a.since) } : {}),
    ...(a.lastCheck ? { lastCheck: { at: iso(a.lastCheck.at), result: a.lastCheck.result } } : {}),
    ...(a.nextCheckAt ? { nextCheckAt: iso(a.nextCheckAt) } : {}),
    ...(a.paused ? { checks: a.checks ?? 0 } : {}),
  };
}

export function tokenProblemsReport(a: AuthPauseStatus): StatusTokenProblem[] {
  return (a.tokenProblems ?? []).map((p) => ({ host: p.host, file: p.file, problem: p.problem, at: iso(p.at) }));
}

/** The pause (or that calls run), then every token file that cannot be used. */
export function authLines(p: StatusPause, problems: StatusTokenProblem[]): string[] {
  const lines: string[] = [];
  if (p.paused) {
    lines.push(
      `PAUSED: the sourcing service refused the token${p.since ? ` since ${p.since}` : ''}: ${p.reason ?? ''}`.trimEnd(),
    );
    const last = p.lastCheck
      ? `last check of the same token ${p.lastCheck.at}: ${p.lastCheck.result} (${p.checks ?? 0} check(s))`
      : 'the same token not checked again yet';
    lines.push(
      `  ${last}; next check ${p.nextCheckAt ?? 'soon'}: work resumes by itself once the service accepts it.`,
      '  Replace the token (SOURCING_TOKEN_FILE is re-read) or run `rfq-sync resume` to check now; jobs are kept.',
    );
  } else {
    lines.push('Sourcing calls: running (not paused for auth)');
  }
  for (const t of problems)
    lines.push(
      `TOKEN FILE UNUSABLE on ${t.host} (since ${t.at}): ${t.problem}; the last good token stays in use. Write the token alone into ${t.file}.`,
    );
  return lines;
}
