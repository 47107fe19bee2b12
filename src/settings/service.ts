/**
 * Settings: The sourcing service: where it is, the token, time-outs, paging, rate limit, dialect overrides, re-exports.
 * Part of the one configuration schema (src/settings/config.ts); each default is documented above its field, and the table
 * of docs/operations.md is generated from these comments (scripts/config-doc.ts).
 */
import { z } from 'zod';
import { int, url, bool } from './fields.ts';

export const serviceSettings = {
  /** Sourcing service base URL, including any prefix before /v1. Unset: the built-in sandbox (demo/local only). */
  SOURCING_BASE_URL: url(['http:', 'https:']).optional(),
  /** Bearer token. Prefer SOURCING_TOKEN_FILE (Docker secrets). */
  SOURCING_TOKEN: z.string().min(1).optional(),
  /**
   * File holding the bearer token; re-read every AUTH_CHECK_MS, so replacing it resumes work after a 401/403. A file
   * that cannot be used (a tab or line break inside, empty) is not taken: logged and shown in `status`.
   */
  SOURCING_TOKEN_FILE: z.string().min(1).optional(),
  /**
   * Name of the sourcing account, the namespace of every idempotency record in Redis, so two accounts sharing a
   * Redis never collide. Default: derived from SOURCING_BASE_URL (host and path). Two accounts on the same service
   * must set distinct names; replacing the token keeps the name, so records survive token rotation.
   */
  SOURCING_ACCOUNT: z
    .string()
    .regex(/^[A-Za-z0-9_.-]{1,64}$/, 'letters, digits, _ . and - only, at most 64')
    .optional(),
  /** Time to open a connection to the service, ms. Default 5,000. */
  SOURCING_CONNECT_TIMEOUT_MS: int(100, 600_000).default(5_000),
  /** Time until the service's response headers arrive, ms. Default 30,000. */
  SOURCING_HEADERS_TIMEOUT_MS: int(100, 600_000).default(30_000),
  /** Longest pause while a response body arrives, ms. Default 30,000. */
  SOURCING_BODY_TIMEOUT_MS: int(100, 600_000).default(30_000),
  /**
   * The longest one call to the service may take, from the request to the last byte of its answer, ms (the body
   * time-out above restarts with every byte: a body that trickles is cut here). The exactly-once lease of a create
   * is this plus 2 s. Default 60,000.
   */
  SOURCING_CALL_DEADLINE_MS: int(1_000, 600_000).default(60_000),
  /** Retries of a GET on transient failure (POST is never retried by the transport). Default 4. */
  SOURCING_GET_RETRIES: int(0, 20).default(4),
  /** Keep-alive connections to the service. Default 16. */
  SOURCING_CONNECTIONS: int(1, 1024).default(16),
  /** Highest page number a listing may walk, so a looping `next` cannot run forever. Default 10,000. */
  SOURCING_MAX_PAGES: int(1, 1_000_000).default(10_000),
  /** Pages fetched at once when `links.last` is known. Default 4. */
  SOURCING_PAGE_CONCURRENCY: int(1, 64).default(4),
  /** Calls per second to the service across all workers sharing this Redis: every HTTP attempt (creates, list pages, quotation pulls, retries) takes a permit. Default 10. */
  RATE_LIMIT_PER_SECOND: int(1, 100_000).default(10),

  /**
   * How the status filter is written: `auto` detects it per account (the form whose filtered totals add up to the
   * unfiltered total, records carrying that state), `lower` (status=open), `capitalised` (status=Open), or `none`
   * (walk the unfiltered list and take each RFQ's state from its record's label). Default `auto`.
   */
  SOURCING_STATUS_FILTER: z.enum(['auto', 'lower', 'capitalised', 'none']).default('auto'),
  /** Whether list lines echo the external_id sent on creation: `auto` learns it from our own RFQs. Default `auto`. */
  SOURCING_EXTERNAL_ID_ECHO: z.enum(['auto', 'yes', 'no']).default('auto'),
  /** Whether GET /v1/rfqs/{id} (the detail call) exists: `auto` tries it once on a listed RFQ. Default `auto`. */
  SOURCING_DETAIL_CALL: z.enum(['auto', 'yes', 'no']).default('auto'),
  /** Whether PUT /v1/rfqs/{id} (the edit call) exists: `auto` learns it on first use (PUSH_HEADER_CHANGES). Default `auto`. */
  SOURCING_EDIT_CALL: z.enum(['auto', 'yes', 'no']).default('auto'),
  /**
   * A re-export that changes the title, due date, required date or description of a requisition whose RFQ exists:
   * `true` pushes the change with the edit call where the service has one; `false` only reports it (file report,
   * status, log). Line changes are always only reported. Default `false`: the RFQ is the buyer's once published.
   */
  PUSH_HEADER_CHANGES: bool.default(false),
  /**
   * How often a worker compares the state epoch in Redis with the one in the data folder, ms: a Redis that lost its
   * state (FLUSHALL, a restart without persistence) is seen within this time and creation pauses. Default 15,000.
   */
  STATE_CHECK_MS: int(200, 3_600_000).default(15_000),
};

/** A setting's default as declared above. */
function defaultOf<K extends keyof typeof serviceSettings>(key: K): z.output<(typeof serviceSettings)[K]> {
  return serviceSettings[key].parse(undefined) as z.output<(typeof serviceSettings)[K]>;
}

/**
 * The defaults of the sourcing transport and client (src/sourcing) for options a caller leaves out: the schema's,
 * so a client built by hand (bench, tools, tests) runs as a configured worker does, with no second literal.
 */
export const SOURCING_DEFAULTS = {
  connectTimeoutMs: defaultOf('SOURCING_CONNECT_TIMEOUT_MS'),
  headersTimeoutMs: defaultOf('SOURCING_HEADERS_TIMEOUT_MS'),
  bodyTimeoutMs: defaultOf('SOURCING_BODY_TIMEOUT_MS'),
  callDeadlineMs: defaultOf('SOURCING_CALL_DEADLINE_MS'),
  getRetries: defaultOf('SOURCING_GET_RETRIES'),
  connections: defaultOf('SOURCING_CONNECTIONS'),
  maxPages: defaultOf('SOURCING_MAX_PAGES'),
  pageConcurrency: defaultOf('SOURCING_PAGE_CONCURRENCY'),
} as const;
