/**
 * The worker's services: what the job processors and CLI commands share, built once per process by app/
 * (app/runtime/worker-context.ts). With the settings its parts read they are the worker context (WorkerContext,
 * jobs/worker.ts). Each job and src/ module names the part of it it reads (a Pick, or its own deps type that a
 * WorkerContext fits), so what a module depends on is written in its signature.
 */
import type { Redis } from 'ioredis';
import type { Logger } from '../core/index.ts';
import type { SourcingClient } from '../sourcing/client/index.ts';
import type { AuthGate, DialectSource, RateLimiter, TokenSource } from '../account/index.ts';
import type { StateEpoch, Queues, RedisKeys } from '../redis/index.ts';
import type { Notifier } from '../notify/index.ts';
import type { AuditLog } from '../audit/index.ts';
import type { ErpOutputs } from '../erp/index.ts';

export interface WorkerServices {
  logger: Logger;
  /**
   * ioredis client for our own keys (idempotency commands are defined on it by the idempotency store), fail-fast:
   * commands error while Redis is down, the job fails its attempt and is retried with back-off.
   */
  redis: Redis;
  keys: RedisKeys;
  queues: Queues;
  client: SourcingClient;
  /**
   * A second client for the reconcile search of create-rfq: one page at a time, a failed page retried in place
   * (GET retries with back-off; a ~80-page search must not restart for one 5xx). Like `client`, every call takes a
   * permit of `limiter` and every Retry-After holds everyone off (src/account/sourcing-clients.ts rateLimitHooks).
   */
  listingClient: SourcingClient;
  /**
   * Calls per second to the service, shared by every worker (RATE_LIMIT_PER_SECOND), and the Retry-After hold-off.
   * Both clients take their permits themselves, except a create's: the create protocol takes it.
   */
  limiter: RateLimiter;
  authGate: AuthGate;
  /** The account's dialect (filter form, unfiltered list, echo, detail/edit calls), detected once and shared. */
  dialects: DialectSource;
  /** Lost Redis state, detected (state-epoch.ts); checked only where a pipeline runs against a real Redis. */
  state: StateEpoch;
  /**
   * The fingerprint of the bearer token the clients send (a create notes it, so a pause names the token refused);
   * the token itself stays with the clients and the auth gate.
   */
  tokens: Pick<TokenSource, 'fingerprint'>;
  /** Tells people (NOTIFY_ROUTES): events go on the notify queue, never waiting for a mail server. */
  notify: Notifier;
  /**
   * The audit log (src/audit/writer.ts): one line per step of a requisition, appended and flushed before the step is
   * reported done (`rfq-sync trace`); its fault (a folder that cannot be written) holds the jobs (jobs/worker.ts).
   */
  audit: AuditLog;
  /**
   * The ERP's purchase-order files of each final award (ERP_OUTPUTS: the profiles, the vendor cross-reference, the
   * ERP_* constants), loaded and checked at start; none when ERP_OUTPUTS names no profile.
   */
  erp?: ErpOutputs;
}
