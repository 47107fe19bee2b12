/**
 * Configuration: one zod schema, parsed once at start. Sources, later wins:
 *   1. defaults (documented here, next to each field),
 *   2. an optional config file (`RFQ_SYNC_CONFIG`, YAML or JSON, same keys as the environment variables),
 *   3. environment variables.
 * Every problem is reported on its own line naming the variable and what is wrong (ConfigError.problems).
 */
import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { ConfigError } from './errors.ts';
import { registerSecret } from './logger.ts';
import { completeRedisSettings, redisPassword } from './config-redis.ts';
import { httpTokenFromFile, sourcingToken } from './config-secrets.ts';

// Split out of this file to keep it short; importers keep reaching them here.
export { displayRedisUrl, redisPassword, sentinelUrl } from './config-redis.ts';
export { readTokenFile, tokenProblem } from './config-secrets.ts';

/** Root of the installed package (holds the shipped mappings/ and samples/). */
export const PACKAGE_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

const bool = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off'])])
  .transform((v) => v === true || v === 'true' || v === '1' || v === 'yes' || v === 'on');
const int = (min: number, max: number) =>
  z.coerce
    .number({ error: `must be a whole number from ${min} to ${max}` })
    .int(`must be a whole number from ${min} to ${max}`)
    .min(min, `must be at least ${min}`)
    .max(max, `must be at most ${max}`);
const url = (protocols: string[]) =>
  z.string().refine(
    (s) => {
      try {
        return protocols.includes(new URL(s).protocol);
      } catch {
        return false;
      }
    },
    `must be a URL starting with ${protocols.map((p) => `${p}//`).join(' or ')}`,
  );
/** An IANA time zone name as Intl knows it, in its canonical spelling (`europe/berlin` -> `Europe/Berlin`). */
const timeZone = z
  .string()
  .trim()
  .transform((tz, c) => {
    try {
      return new Intl.DateTimeFormat('en', { timeZone: tz }).resolvedOptions().timeZone;
    } catch {
      c.addIssue({ code: 'custom', message: 'must be an IANA time zone name such as Europe/Berlin or UTC' });
      return z.NEVER;
    }
  });
const cron = z.string().regex(/^(\S+\s+){4,5}\S+$/, 'must be a cron expression with 5 or 6 fields');

/** The queues a worker can work on (WORKER_QUEUES), by their BullMQ names (src/redis/queues.ts QUEUE_NAMES). */
export const WORKER_QUEUE_NAMES = ['ingest', 'create-rfq', 'poll', 'quotations', 'comparison'] as const;
export type WorkerQueueName = (typeof WORKER_QUEUE_NAMES)[number];

/** The raw, flat schema: keys are the environment variable names. */
export const rawConfigSchema = z.object({
  /** Sourcing service base URL, including any prefix before /v1. Unset: the built-in sandbox (demo/local only). */
  SOURCING_BASE_URL: url(['http:', 'https:']).optional(),
  /** Bearer token. Prefer SOURCING_TOKEN_FILE (Docker secrets). */
  SOURCING_TOKEN: z.string().min(1).optional(),
  /** File holding the bearer token; re-read when the service answers 401/403, so replacing it resumes work. */
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

  /** Redis URL (redis:// or rediss:// for TLS, password allowed). Unset: a private redis-server (demo/local only). */
  REDIS_URL: z
    .string()
    .superRefine((s, c) => {
      // never echo any part of it: an unencoded password would show
      // an '@' after the host part means a password with an unencoded / ? or # (the rest would read as a path)
      if (/^rediss?:\/\//.test(s) && (!URL.canParse(s) || /^rediss?:\/\/[^/?#]*[/?#].*@/.test(s))) {
        c.addIssue({
          code: 'custom',
          message:
            'is not a valid URL: a password holding : / @ # ? % must be percent-encoded (/ as %2F, @ as %40, : as %3A)',
        });
      } else if (!URL.canParse(s) || !['redis:', 'rediss:'].includes(new URL(s).protocol)) {
        c.addIssue({ code: 'custom', message: 'must be a URL starting with redis:// or rediss://' });
      }
    })
    .optional(),
  /**
   * Redis under Sentinel instead of REDIS_URL: the sentinels as `host:port` separated by commas (at least one; give
   * all of them). Every connection (BullMQ's included) asks them for the current primary and follows a failover.
   * Unset by default. Setting it together with REDIS_URL is refused.
   */
  REDIS_SENTINELS: z
    .string()
    .regex(/^\s*[^\s,:]+:\d{1,5}\s*(,\s*[^\s,:]+:\d{1,5}\s*)*$/, 'must be host:port[,host:port...]')
    .optional(),
  /** The primary's name as the sentinels know it (`sentinel monitor <name> ...`). Default `mymaster`. */
  REDIS_SENTINEL_NAME: z
    .string()
    .regex(/^[A-Za-z0-9_.-]+$/, 'letters, digits, _ . and - only')
    .default('mymaster'),
  /** Password of the Redis primary and replicas under Sentinel (requirepass). Unset: none. */
  REDIS_PASSWORD: z.string().min(1).optional(),
  /** File holding REDIS_PASSWORD (one line; a trailing newline is trimmed). */
  REDIS_PASSWORD_FILE: z.string().min(1).optional(),
  /** Password of the sentinels themselves (Sentinel's requirepass). Unset: none. */
  REDIS_SENTINEL_PASSWORD: z.string().min(1).optional(),
  /** File holding REDIS_SENTINEL_PASSWORD. */
  REDIS_SENTINEL_PASSWORD_FILE: z.string().min(1).optional(),
  /**
   * Replicas that must hold a claim before its POST goes out (Redis WAIT): a primary that dies before replicating
   * would otherwise forget the claim of an RFQ already posted. Default 1 with REDIS_SENTINELS, 0 otherwise.
   */
  REDIS_WAIT_REPLICAS: int(0, 16).optional(),
  /** How long a claim waits for those replicas before the POST is put off (the job retries), ms. Default 2,000. */
  REDIS_WAIT_TIMEOUT_MS: int(10, 60_000).default(2_000),
  /** Prefix of every Redis key and BullMQ queue. Default `rfq-sync`. */
  REDIS_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, _ and - only')
    .default('rfq-sync'),

  /** Root of inbox/ processing/ archive/ failed/ outbox/. Default `./rfq-sync-data`. */
  RFQ_SYNC_DIR: z.string().min(1).default('./rfq-sync-data'),
  /** Where ERP exports are dropped. Default `<RFQ_SYNC_DIR>/inbox`; must be on the same file system as PROCESSING_DIR. */
  INBOX_DIR: z.string().min(1).optional(),
  /** Files being read. Default `<RFQ_SYNC_DIR>/processing`. */
  PROCESSING_DIR: z.string().min(1).optional(),
  /** Files read (even with rejected rows). Default `<RFQ_SYNC_DIR>/archive`. */
  ARCHIVE_DIR: z.string().min(1).optional(),
  /** Files that could not be read at all. Default `<RFQ_SYNC_DIR>/failed`. */
  FAILED_DIR: z.string().min(1).optional(),
  /** comparisons/*.xlsx, awards/*.csv, reports/*. Default `<RFQ_SYNC_DIR>/outbox`. */
  OUTBOX_DIR: z.string().min(1).optional(),
  /** Mapping profiles. Default: the `mappings/` shipped with rfq-sync. */
  MAPPINGS_DIR: z.string().min(1).optional(),

  /** Watch the inbox by polling (SMB/NFS shares, where file events do not arrive). Default false. */
  WATCH_POLLING: bool.default(false),
  /** Polling interval of the watcher when WATCH_POLLING is on, ms. Default 2,000. */
  WATCH_INTERVAL_MS: int(100, 3_600_000).default(2_000),
  /** A file is taken only when its size and mtime have not changed for this long, ms. Default 2,000. */
  FILE_STABLE_MS: int(0, 3_600_000).default(2_000),
  /** Sweep of the inbox for files the watcher missed. Default every minute. */
  SWEEP_CRON: cron.default('* * * * *'),
  /**
   * Days to keep files in archive/ and failed/, file reports and finished file-ledger entries; older ones are removed
   * on RETENTION_CRON. Default 0: keep everything.
   */
  RETENTION_DAYS: int(0, 36_500).default(0),
  /** Days to keep comparison workbooks and award files in the outbox. Default 0: keep them (procurement's files). */
  OUTBOX_RETENTION_DAYS: int(0, 36_500).default(0),
  /**
   * The longest a poll may run, ms: a poll slowed by a trickling service ends with an error instead of holding the
   * next slots (keep it below the POLL_CRON interval). Default 240,000 (4 minutes; the default interval is 5).
   */
  POLL_MAX_MS: int(1_000, 86_400_000).default(240_000),
  /** When retention runs (on every worker; harmless twice). Default 03:30 daily. */
  RETENTION_CRON: cron.default('30 3 * * *'),
  /** Largest input file accepted, bytes. Default 256 MiB. */
  MAX_FILE_BYTES: int(1, 64 * 1024 ** 3).default(256 * 1024 ** 2),
  /** Largest total uncompressed size of an xlsx, bytes (zip bombs). Default 1 GiB. */
  MAX_XLSX_UNCOMPRESSED_BYTES: int(1, 64 * 1024 ** 3).default(1024 ** 3),
  /** Most entries in an xlsx zip. Default 10,000. */
  MAX_XLSX_ENTRIES: int(1, 10_000_000).default(10_000),

  /** When to list RFQs by status. Default every 5 minutes. */
  POLL_CRON: cron.default('*/5 * * * *'),
  /** Polls an RFQ may be missing from every list before it is flagged. Default 3. */
  MISSING_POLLS_BEFORE_FLAG: int(1, 1000).default(3),
  /**
   * The overview (`<outbox>/overview.xlsx`) is rewritten after every poll and, within this many ms, after comparison
   * workbooks are written: one rewrite for all the comparisons of that window. Default 5,000; 0: after polls only.
   */
  OVERVIEW_REFRESH_MS: int(0, 3_600_000).default(5_000),

  /** Files read at once per worker process. Default 1. */
  CONCURRENCY_INGEST: int(1, 64).default(1),
  /** RFQ creations at once per worker process. Default 8 (the rate limit still applies). */
  CONCURRENCY_CREATE: int(1, 256).default(8),
  /** Quotation pulls at once per worker process. Default 4. */
  CONCURRENCY_QUOTATIONS: int(1, 64).default(4),
  /** Comparison workbooks written at once per worker process. Default 1. */
  CONCURRENCY_COMPARISON: int(1, 16).default(1),
  /** Attempts of a job before it is kept as failed (`rfq-sync failed list`). Default 10. */
  JOB_ATTEMPTS: int(1, 1000).default(10),
  /** First retry delay of a failed job attempt, ms; doubles per attempt, with jitter. Default 1,000. */
  JOB_BACKOFF_MS: int(1, 3_600_000).default(1_000),
  /**
   * How long a worker holds a job it runs before another worker may take it, ms (BullMQ's job lock, renewed while the
   * job runs): the job of a worker that died waits this long before it is run again. Default 30,000.
   */
  JOB_LOCK_MS: int(500, 3_600_000).default(30_000),
  /** How often a worker looks for jobs whose worker died (their lock expired) and puts them back, ms. Default 30,000. */
  STALLED_CHECK_MS: int(200, 3_600_000).default(30_000),
  /**
   * Times a job may be taken back from a worker that died before it is kept as failed (a re-run is harmless: the
   * Redis records make it so). Default 5.
   */
  JOB_MAX_STALLED: int(0, 1_000_000).default(5),
  /**
   * Queues the `worker` command works on, comma-separated: ingest, create-rfq, poll, quotations, comparison (the inbox
   * watcher and the schedules run anyway). Default: all five.
   */
  WORKER_QUEUES: z
    .string()
    .transform((v, c) => {
      const names = v
        .split(',')
        .map((q) => q.trim())
        .filter(Boolean);
      const bad = names.filter((q) => !(WORKER_QUEUE_NAMES as readonly string[]).includes(q));
      if (bad.length > 0 || names.length === 0) {
        c.addIssue({ code: 'custom', message: `must name queues among ${WORKER_QUEUE_NAMES.join(', ')}` });
        return z.NEVER;
      }
      return names as WorkerQueueName[];
    })
    .default([...WORKER_QUEUE_NAMES]),
  /**
   * Age after which a file left in processing/ (taken from the inbox by a worker that died before queueing it) is
   * taken up again, ms. Default 600,000 (10 minutes).
   */
  INBOX_RECOVER_AFTER_MS: int(1_000, 86_400_000).default(600_000),
  /**
   * How often a worker checks whether the sourcing token was replaced (SOURCING_TOKEN_FILE) while creation and
   * polling are paused by a refused token, ms. Default 5,000.
   */
  AUTH_CHECK_MS: int(100, 3_600_000).default(5_000),

  /**
   * IANA time zone of the dates and times shown in comparison workbooks and the overview (e.g. `Europe/Berlin`):
   * wall-clock times of that zone, with the zone named in the workbook. Default `UTC`.
   */
  TIME_ZONE: timeZone.default('UTC'),

  // ---- What the quotations and requisitions mean (comparison workbook, award file, overview)
  /**
   * What a quotation's `price` for a line is: `unit` (line total = price x qty) or `line_total` (unit price =
   * price / qty). The interface does not say; the real service's supplier guide suggests line totals. Default
   * `unit`, what the sandbox and earlier award files use; each workbook warns (Notes, log, status) when the quotes
   * look like the other basis against the estimates. Check one quotation on the service before going live.
   */
  QUOTATION_PRICE_BASIS: z.enum(['unit', 'line_total']).default('unit'),
  /**
   * ISO 4217 currency of requisitions whose mapping profile names none (`currency:`), e.g. `EUR`. Kept with each
   * tracked RFQ when it is created, shown in the workbook header and number formats, and written in the award
   * file. Default: none (amounts name no currency).
   */
  REQUISITION_CURRENCY: z
    .string()
    .regex(/^[A-Z]{3}$/, 'is not an ISO 4217 code (three capital letters, e.g. EUR)')
    .optional(),

  /** Log level: fatal, error, warn, info, debug, trace, silent. Default info. */
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Address of the operations endpoint (health, metrics, dashboard). Default 127.0.0.1; elsewhere needs HTTP_TOKEN. */
  HTTP_HOST: z.string().min(1).default('127.0.0.1'),
  /**
   * Host names (and addresses) the operations endpoint answers to, comma-separated: a request naming any other Host
   * is refused, so a web page cannot reach it through DNS rebinding. localhost, 127.0.0.1, ::1 and HTTP_HOST always
   * count. Default: only those.
   */
  HTTP_ALLOWED_HOSTS: z
    .string()
    .transform((v) =>
      v
        .split(',')
        .map((h) => h.trim().toLowerCase())
        .filter(Boolean),
    )
    .default([]),
  /** Port of the operations endpoint; 0 turns it off. Default 9464. */
  HTTP_PORT: int(0, 65_535).default(9464),
  /** Bearer token for the operations endpoint; required when HTTP_HOST is not a loopback address. */
  HTTP_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  /** File holding HTTP_TOKEN (Docker secrets). */
  HTTP_TOKEN_FILE: z.string().min(1).optional(),
  /** How long graceful shutdown waits for in-flight jobs, ms. Default 30,000. */
  SHUTDOWN_TIMEOUT_MS: int(0, 3_600_000).default(30_000),
});

export type RawConfig = z.infer<typeof rawConfigSchema>;

/** A setting's default as declared above (undefined for one without). */
function schemaDefault<K extends keyof RawConfig>(key: K): RawConfig[K] {
  return rawConfigSchema.shape[key].parse(undefined) as RawConfig[K];
}

/**
 * The defaults of the sourcing transport and client (src/sourcing) for options a caller leaves out: the schema's,
 * so a client built by hand (bench, tools, tests) runs as a configured worker does, with no second literal.
 */
export const SOURCING_DEFAULTS = {
  connectTimeoutMs: schemaDefault('SOURCING_CONNECT_TIMEOUT_MS'),
  headersTimeoutMs: schemaDefault('SOURCING_HEADERS_TIMEOUT_MS'),
  bodyTimeoutMs: schemaDefault('SOURCING_BODY_TIMEOUT_MS'),
  callDeadlineMs: schemaDefault('SOURCING_CALL_DEADLINE_MS'),
  getRetries: schemaDefault('SOURCING_GET_RETRIES'),
  connections: schemaDefault('SOURCING_CONNECTIONS'),
  maxPages: schemaDefault('SOURCING_MAX_PAGES'),
  pageConcurrency: schemaDefault('SOURCING_PAGE_CONCURRENCY'),
} as const;

export interface Folders {
  root: string;
  inbox: string;
  processing: string;
  archive: string;
  failed: string;
  outbox: string;
  reports: string;
  comparisons: string;
  awards: string;
  mappings: string;
}

export interface Config extends RawConfig {
  folders: Folders;
  /** SOURCING_ACCOUNT, or the default derived from the base URL (`sandbox` for the built-in sandbox). */
  account: string;
  /** False when neither SOURCING_ACCOUNT nor SOURCING_BASE_URL said which account (`sandbox` is then a guess). */
  accountGiven: boolean;
  /** The bearer token as read at start (from SOURCING_TOKEN or SOURCING_TOKEN_FILE); undefined for the sandbox. */
  token: string | undefined;
}

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

/**
 * Parse configuration from the environment (and the file RFQ_SYNC_CONFIG names).
 * `requireProduction`: the `worker` command never falls back to the sandbox or a private Redis.
 * `requireToken` (default true): false for the commands that only use Redis.
 */
export function loadConfig(
  env: NodeJS.ProcessEnv = process.env,
  opts: { requireProduction?: boolean; requireToken?: boolean; cwd?: string } = {},
): Config {
  const problems: string[] = [];
  const raw = parseSettings(env, problems);
  // Secrets go into the log scrubber before anything can print them.
  registerSecret(raw.SOURCING_TOKEN);
  registerSecret(raw.HTTP_TOKEN);
  if (raw.REDIS_URL) {
    registerSecret(redisPassword(raw.REDIS_URL));
    registerSecret(new URL(raw.REDIS_URL).password); // the percent-encoded spelling too
  }

  completeRedisSettings(raw, problems);
  const token = sourcingToken(raw.SOURCING_TOKEN, raw.SOURCING_TOKEN_FILE, problems);
  // Commands that only read or steer Redis (status, failed, ingest, recover) never need the token.
  if (opts.requireToken !== false && raw.SOURCING_BASE_URL && !token && !raw.SOURCING_TOKEN_FILE)
    problems.push('SOURCING_TOKEN: required when SOURCING_BASE_URL is set (or set SOURCING_TOKEN_FILE)');
  if (opts.requireProduction) {
    if (!raw.SOURCING_BASE_URL)
      problems.push(
        'SOURCING_BASE_URL: required for `worker` (only `demo` and local commands use the built-in sandbox)',
      );
    if (!raw.REDIS_URL)
      problems.push('REDIS_URL: required for `worker` (only `demo` and local commands start a private redis-server)');
  }
  const httpToken = httpTokenFromFile(raw.HTTP_TOKEN, raw.HTTP_TOKEN_FILE, problems);
  if (httpToken !== undefined) raw.HTTP_TOKEN = httpToken;
  if (raw.HTTP_PORT !== 0 && !LOOPBACK.has(raw.HTTP_HOST) && !raw.HTTP_TOKEN && !raw.HTTP_TOKEN_FILE) {
    problems.push(`HTTP_TOKEN: required when HTTP_HOST (${raw.HTTP_HOST}) is not a loopback address`);
  }
  if (problems.length > 0) throw new ConfigError(problems);

  return {
    ...raw,
    folders: resolveFolders(raw, opts.cwd ?? process.cwd()),
    token,
    account: raw.SOURCING_ACCOUNT ?? defaultAccount(raw.SOURCING_BASE_URL),
    accountGiven: Boolean(raw.SOURCING_ACCOUNT ?? raw.SOURCING_BASE_URL),
  };
}

/**
 * The settings of the file RFQ_SYNC_CONFIG names, overridden by the non-empty environment variables, checked
 * against the schema. Throws a ConfigError listing every problem so far when anything is wrong.
 */
function parseSettings(env: NodeJS.ProcessEnv, problems: string[]): RawConfig {
  const cfgFile = env.RFQ_SYNC_CONFIG;
  const fileValues = cfgFile ? readConfigFile(cfgFile, problems) : {};
  const known = new Set(Object.keys(rawConfigSchema.shape));
  for (const k of Object.keys(fileValues)) if (!known.has(k)) problems.push(`${k}: unknown setting in ${cfgFile}`);

  const merged: Record<string, unknown> = { ...fileValues };
  for (const k of known) {
    const v = env[k];
    if (v !== undefined && v !== '') merged[k] = v;
  }
  const result = rawConfigSchema.safeParse(merged);
  if (!result.success) {
    for (const issue of result.error.issues) {
      const key = issue.path.join('.') || '(config)';
      // Never echo the value: it may be a secret.
      problems.push(`${key}: ${issue.message}`);
    }
  }
  if (problems.length > 0 || !result.success) throw new ConfigError(problems);
  return result.data;
}

/** The mapping of VARIABLE: value in a YAML or JSON config file; empty (the problem said) when unreadable. */
function readConfigFile(cfgFile: string, problems: string[]): Record<string, unknown> {
  try {
    const parsed: unknown = parseYaml(readFileSync(cfgFile, 'utf8'));
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
    problems.push(`RFQ_SYNC_CONFIG: ${cfgFile} must hold a mapping of VARIABLE: value`);
  } catch (err) {
    problems.push(`RFQ_SYNC_CONFIG: cannot read ${cfgFile}: ${(err as Error).message.split('\n')[0]}`);
  }
  return {};
}

/** The working folders: relative paths taken from `base`, unset ones under RFQ_SYNC_DIR (mappings: the shipped). */
function resolveFolders(raw: RawConfig, base: string): Folders {
  const abs = (p: string) => (isAbsolute(p) ? p : resolve(base, p));
  const root = abs(raw.RFQ_SYNC_DIR);
  const outbox = abs(raw.OUTBOX_DIR ?? join(root, 'outbox'));
  return {
    root,
    inbox: abs(raw.INBOX_DIR ?? join(root, 'inbox')),
    processing: abs(raw.PROCESSING_DIR ?? join(root, 'processing')),
    archive: abs(raw.ARCHIVE_DIR ?? join(root, 'archive')),
    failed: abs(raw.FAILED_DIR ?? join(root, 'failed')),
    outbox,
    reports: join(outbox, 'reports'),
    comparisons: join(outbox, 'comparisons'),
    awards: join(outbox, 'awards'),
    mappings: abs(raw.MAPPINGS_DIR ?? join(PACKAGE_ROOT, 'mappings')),
  };
}

function defaultAccount(baseUrl: string | undefined): string {
  if (!baseUrl) return 'sandbox';
  const u = new URL(baseUrl);
  return `${u.host}${u.pathname}`
    .replace(/[^A-Za-z0-9_.-]+/g, '_')
    .replace(/_+$/, '')
    .slice(0, 64);
}
