/**
 * The session with the sourcing service, shared by every worker through Redis: the token, the auth gate and its
 * re-checks, the rate limiter, the account's dialect and list lag, and the clients' options.
 */
export { type AuthGate, type AuthPauseStatus, createAuthGate, readAuthPause } from './auth-gate.ts';
export { firstPageProbe } from './auth-recheck.ts';
export { createDialectSource, type DialectSource, storedDialect } from './dialect-store.ts';
export { createLagProbe } from './lag-probe.ts';
export { createRateLimiter, type RateLimiter, readsFirst } from './rate-limiter.ts';
export {
  listingClientOptions,
  rateLimitHooks,
  type SourcingClientConfig,
  sourcingClientOptions,
} from './sourcing-clients.ts';
export { createTokenSource, tokenFingerprint, type TokenSource } from './token-source.ts';
