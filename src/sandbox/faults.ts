/**
 * Fault injection of the sandbox: what a real service and the network between do to a client on a bad day.
 * Every decision draws from one seeded generator so a test run is repeatable.
 */

export interface SandboxFaults {
  /** Added to every API answer. */
  latencyMs?: number;
  /** Share 0..1 of API calls answered 5xx (before doing anything). */
  errorRate?: number;
  /** The next `burst` calls are answered 429 with Retry-After. */
  rateLimit?: { burst: number; retryAfterSeconds: number } | null;
  /** Answer 429 (Retry-After: 1) above this many API calls per second. */
  maxRequestsPerSecond?: number | null;
  /** POST only: the RFQ is stored, then the answer is lost. */
  commitThenFail?: { rate: number; mode: '502' | 'drop' | 'stall' | 'mixed'; stallMs?: number } | null;
  /** POST only: answered 502 before anything is stored (to the client, as ambiguous as a 502 after commit). */
  failBeforeCommit?: { rate: number } | null;
  /** Share of GETs answered 200 with a broken JSON body. */
  invalidJsonRate?: number;
  /** Share of listed RFQs / quotations with a field of the wrong type. */
  schemaBreakRate?: number;
  /** Refuse every API call with 503. */
  down?: boolean;
  /** Refuse every token with 401 (the service's login down, an account suspended): the same token works once lifted. */
  refuseTokens?: boolean;
}

export type Rejection = { status: number; retryAfterSeconds?: number; reason: string };

/** mulberry32: small, fast, seedable. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export class FaultInjector {
  private faults: SandboxFaults = {};
  private burstLeft = 0;
  private burstRetryAfter = 1;
  private recent: number[] = [];
  readonly random: () => number;

  constructor(faults: SandboxFaults = {}, random: () => number = Math.random) {
    this.random = random;
    this.set(faults);
  }

  /** Replaces the fault set; a `rateLimit` given here starts a new burst. */
  set(f: SandboxFaults): void {
    this.faults = { ...f };
    if (f.rateLimit) {
      this.burstLeft = f.rateLimit.burst;
      this.burstRetryAfter = f.rateLimit.retryAfterSeconds;
    } else {
      this.burstLeft = 0;
    }
  }

  get(): SandboxFaults {
    return {
      ...this.faults,
      rateLimit: this.burstLeft > 0 ? { burst: this.burstLeft, retryAfterSeconds: this.burstRetryAfter } : null,
    };
  }

  get latencyMs(): number {
    return Math.max(0, this.faults.latencyMs ?? 0);
  }

  /** Decides whether an API call is refused before it is handled. */
  beforeCall(now: number): Rejection | null {
    if (this.faults.down) return { status: 503, reason: 'down' };
    if (this.faults.refuseTokens) return { status: 401, reason: 'token refused (fault: refuseTokens)' };
    if (this.burstLeft > 0) {
      this.burstLeft--;
      return { status: 429, retryAfterSeconds: this.burstRetryAfter, reason: 'rate limit burst' };
    }
    const max = this.faults.maxRequestsPerSecond;
    if (max != null && max > 0) {
      while (this.recent.length > 0 && this.recent[0]! <= now - 1000) this.recent.shift();
      if (this.recent.length >= max) return { status: 429, retryAfterSeconds: 1, reason: 'rate' };
      this.recent.push(now);
    }
    if (this.chance(this.faults.errorRate)) {
      const statuses = [500, 502, 503, 504] as const;
      return { status: statuses[Math.floor(this.random() * statuses.length)]!, reason: 'injected 5xx' };
    }
    return null;
  }

  /** For a POST that was stored: how its answer is lost, if it is. */
  commitThenFail(): { mode: '502' | 'drop' | 'stall'; stallMs: number } | null {
    const c = this.faults.commitThenFail;
    if (!c || !this.chance(c.rate)) return null;
    const modes = ['502', 'drop', 'stall'] as const;
    const mode = c.mode === 'mixed' ? modes[Math.floor(this.random() * modes.length)]! : c.mode;
    return { mode, stallMs: c.stallMs ?? 60_000 };
  }

  /** For a valid POST: whether it is answered 502 without being stored. */
  failBeforeCommit(): boolean {
    return this.chance(this.faults.failBeforeCommit?.rate);
  }

  invalidJson(): boolean {
    return this.chance(this.faults.invalidJsonRate);
  }

  schemaBreak(): boolean {
    return this.chance(this.faults.schemaBreakRate);
  }

  private chance(rate: number | undefined | null): boolean {
    return rate != null && rate > 0 && this.random() < rate;
  }
}
