/**
 * The one error catalogue of rfq-sync.
 *
 * Every error the code raises on purpose is an RfqSyncError with a stable `code` (for logs, reports, metrics
 * and tests) and a `kind` that tells callers what to do with it:
 *   - transient:  the world may heal by itself (5xx, reset, time-out, 429, Redis gone): retry with back-off;
 *   - auth:       the credential is refused (401/403): stop calling the service, keep the work, tell a person;
 *   - data:       the input or the request is wrong (bad row, refused file, other 4xx): never retried, reported;
 *   - config:     the configuration is wrong: the process refuses to start;
 *   - unexpected: a bug or a broken contract we did not foresee.
 * `errorFromHttpStatus` is the one place that maps an HTTP status to a class.
 */

export type ErrorKind = 'transient' | 'auth' | 'data' | 'config' | 'unexpected';

/** At most this much response body is kept in an error (docs/architecture.md#errors-and-retries). */
export const MAX_ERROR_BODY_CHARS = 2048;

export class RfqSyncError extends Error {
  readonly code: string;
  readonly kind: ErrorKind;
  constructor(code: string, kind: ErrorKind, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
    this.kind = kind;
  }
  /** True when the same call may succeed later without anybody changing anything. */
  get retryable(): boolean {
    return this.kind === 'transient';
  }
}

// ---------------------------------------------------------------- sourcing service (HTTP)

export interface HttpErrorDetails {
  /** Operation name such as `createRfq`, `listRfqs`, `listQuotations`. */
  operation: string;
  status?: number;
  /** Response body text, already cut to MAX_ERROR_BODY_CHARS and scrubbed of secrets. */
  body?: string;
}

export class AuthError extends RfqSyncError {
  readonly status: number;
  readonly operation: string;
  constructor(d: HttpErrorDetails & { status: number }) {
    super('E_AUTH', 'auth', refusal(d, 'refused the token'));
    this.status = d.status;
    this.operation = d.operation;
  }
}

export class RateLimitError extends RfqSyncError {
  readonly operation: string;
  /** How long the service asked us to wait, in milliseconds (from Retry-After), when it said. */
  readonly retryAfterMs: number | undefined;
  constructor(d: HttpErrorDetails & { retryAfterMs?: number }) {
    const wait = d.retryAfterMs === undefined ? 'no Retry-After' : `Retry-After ${Math.ceil(d.retryAfterMs / 1000)} s`;
    super('E_RATE_LIMIT', 'transient', `${d.operation}: the sourcing service is rate limiting (HTTP 429, ${wait})`);
    this.operation = d.operation;
    this.retryAfterMs = d.retryAfterMs;
  }
}

export class TransientHttpError extends RfqSyncError {
  readonly status: number | undefined;
  readonly operation: string;
  constructor(d: HttpErrorDetails & { reason?: string }, options?: { cause?: unknown }) {
    const what = d.status === undefined ? (d.reason ?? 'network error') : `HTTP ${d.status}`;
    super(
      'E_TRANSIENT',
      'transient',
      `${d.operation}: temporary failure of the sourcing service (${what})${bodySuffix(d.body)}`,
      options,
    );
    this.status = d.status;
    this.operation = d.operation;
  }
}

export class PermanentHttpError extends RfqSyncError {
  readonly status: number;
  readonly operation: string;
  readonly body: string | undefined;
  constructor(d: HttpErrorDetails & { status: number }) {
    super('E_REJECTED', 'data', refusal(d, 'rejected the request'));
    this.status = d.status;
    this.operation = d.operation;
    this.body = d.body;
  }
}

/** The service answered 2xx but the body breaks the schema: names the field and, when known, the RFQ. */
export class InvalidResponseError extends RfqSyncError {
  readonly operation: string;
  readonly field: string;
  readonly rfqId: number | string | undefined;
  constructor(d: { operation: string; field: string; reason: string; rfqId?: number | string }) {
    const where = d.rfqId === undefined ? '' : ` of RFQ ${d.rfqId}`;
    super(
      'E_INVALID_RESPONSE',
      'unexpected',
      `${d.operation}: invalid response: field ${d.field}${where}: ${d.reason}`,
    );
    this.operation = d.operation;
    this.field = d.field;
    this.rfqId = d.rfqId;
  }
}

/** A request the client refuses to send (it breaks the service's schema, an unknown filter, a bad RFQ id). */
export class InvalidRequestError extends RfqSyncError {
  readonly operation: string;
  constructor(operation: string, reason: string) {
    super('E_INVALID_REQUEST', 'data', `${operation}: ${reason}`);
    this.operation = operation;
  }
}

/** An RFQ looked for by id is in no status list of the account (`compare RFQ_ID`). */
export function rfqNotFound(rfqId: number): RfqSyncError {
  return new RfqSyncError('E_RFQ_NOT_FOUND', 'data', `RFQ ${rfqId} is in no status list of this account`);
}

/** A comparison job's RFQ is (not yet) in any list: the job waits for it. */
export function rfqNotListed(rfqId: number, version: number): RfqSyncError {
  return new RfqSyncError(
    'E_RFQ_NOT_LISTED',
    'transient',
    `RFQ ${rfqId} is in no status list: comparison v${version} waits for it`,
  );
}

/** The one mapping from an HTTP status (non-2xx) to an error class. */
export function errorFromHttpStatus(
  d: HttpErrorDetails & { status: number; retryAfterMs?: number },
): AuthError | RateLimitError | TransientHttpError | PermanentHttpError {
  const body = d.body === undefined ? undefined : d.body.slice(0, MAX_ERROR_BODY_CHARS);
  if (d.status === 401 || d.status === 403) return new AuthError({ ...d, body });
  if (d.status === 429) return new RateLimitError({ ...d, body });
  if (d.status >= 500 || d.status === 408) return new TransientHttpError({ ...d, body });
  return new PermanentHttpError({ ...d, body });
}

// ---------------------------------------------------------------- input files and rows

/** A whole input file cannot be read: too big, wrong format, corrupt, empty... One sentence naming file and reason. */
export class FileRefusedError extends RfqSyncError {
  readonly file: string;
  readonly reason: string;
  constructor(file: string, reason: string, options?: { cause?: unknown }) {
    super('E_FILE_REFUSED', 'data', `${file}: ${reason}`, options);
    this.file = file;
    this.reason = reason;
  }
}

/** A mapping profile is invalid or none fits the file. */
export class MappingError extends RfqSyncError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('E_MAPPING', 'data', message, options);
  }
}

/** Only a broken mapping profile could take the file: held, not refused, until it is fixed (`profiles` say why). */
export class ProfileBrokenError extends RfqSyncError {
  readonly file: string;
  readonly profiles: ReadonlyArray<{ name: string; file: string; reason: string }>;
  constructor(file: string, profiles: ReadonlyArray<{ name: string; file: string; reason: string }>) {
    const names = profiles.map((p) => `"${p.name}"`).join(', ');
    super(
      'E_PROFILE_BROKEN',
      'data',
      `${file}: held until the mapping profile ${names} is fixed: only ${profiles.length > 1 ? 'those profiles' : 'that profile'} could take it, and ${profiles.map((p) => p.reason).join('; ')}`,
    );
    this.file = file;
    this.profiles = profiles.map(({ name, file: f, reason }) => ({ name, file: f, reason }));
  }
}

/** A workbook has no sheet of the name asked for (xlsx-reader.ts); ingest turns it into a FileRefusedError naming the file. */
export class SheetNotFoundError extends RfqSyncError {
  readonly available: string[];
  constructor(name: string, available: string[]) {
    super(
      'E_SHEET_NOT_FOUND',
      'data',
      `has no sheet named "${name}" (sheets: ${available.map((s) => `"${s}"`).join(', ') || 'none'})`,
    );
    this.available = available;
  }
}

/** A workbook's package is not what xl/workbook.xml says (a part missing, or far too big); ingest names the file. */
export class WorkbookPartError extends RfqSyncError {
  constructor(message: string) {
    super('E_WORKBOOK_PART', 'data', message);
  }
}

/** One bad value in one row: the unit of the per-file report. */
export interface RowProblem {
  file: string;
  /** 1-based row number as the user sees it in the file (header row included). */
  row: number;
  /** Column header as written in the file, or the target field when no column is involved. */
  column: string;
  value: string;
  reason: string;
  severity: 'error' | 'warning';
}

export function formatRowProblem(p: RowProblem): string {
  const value = p.value === '' ? 'empty' : JSON.stringify(p.value.length > 80 ? `${p.value.slice(0, 77)}...` : p.value);
  return `${p.file} row ${p.row}, column ${p.column} (${value}): ${p.reason}`;
}

// ---------------------------------------------------------------- pipeline

/** A requisition's external_ids are held by another requisition (docs/architecture.md#identity-and-the-claim-table). */
export class ClaimConflictError extends RfqSyncError {
  readonly requisitionKey: string;
  readonly conflicts: ReadonlyArray<{ externalId: string; heldBy: string }>;
  constructor(requisitionKey: string, conflicts: ReadonlyArray<{ externalId: string; heldBy: string }>) {
    const list = conflicts
      .slice(0, 5)
      .map((c) => `${c.externalId} (held by ${c.heldBy})`)
      .join(', ');
    const more = conflicts.length > 5 ? ` and ${conflicts.length - 5} more` : '';
    super(
      'E_CLAIM_CONFLICT',
      'data',
      `requisition ${requisitionKey}: external_ids already belong to another requisition: ${list}${more}`,
    );
    this.requisitionKey = requisitionKey;
    this.conflicts = conflicts;
  }
}

/** Another attempt holds the requisition (it may be posting): the job is set aside for `waitMs`, not failed. */
export class AttemptBusyError extends RfqSyncError {
  readonly waitMs: number;
  constructor(id: string, waitMs: number, as?: { code: string; message: string }) {
    super(
      as?.code ?? 'E_ATTEMPT_BUSY',
      'transient',
      as?.message ?? `requisition ${id} is being created by another attempt; looking again in ${waitMs} ms`,
    );
    this.waitMs = waitMs;
  }
}

/** The reconcile search could not prove no RFQ carries the external_ids: nothing posted, set aside like a busy one. */
export class ReconcileUnstableError extends AttemptBusyError {
  readonly reason: string;
  constructor(reason: string, waitMs: number) {
    super('(reconcile)', waitMs, {
      code: 'E_RECONCILE_UNSTABLE',
      message: `reconcile search inconclusive (${reason}); nothing posted, looking again in ${waitMs} ms`,
    });
    this.reason = reason;
  }
}

/**
 * Calls are held (the shared rate limit, a Retry-After) longer than a caller waits in-process (rate-limiter.ts): its
 * job is rescheduled for `waitMs` instead of holding a worker slot.
 */
export class ThrottledError extends RfqSyncError {
  readonly waitMs: number;
  constructor(waitMs: number) {
    super(
      'E_THROTTLED',
      'transient',
      `calls to the sourcing service are held for ${waitMs} ms (rate limit or Retry-After)`,
    );
    this.waitMs = waitMs;
  }
}

/** inbox and processing are on two file systems: a taken file cannot be renamed atomically (file-mover.ts). */
export class CrossDeviceError extends RfqSyncError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('E_CROSS_DEVICE', 'config', message, options);
  }
}

/**
 * An ingest job whose file is in none of this worker's folders (processing/, archive/, failed/): taken in another
 * data folder (two hosts with their own folders), or removed by hand. Never settled as done: the job fails for good
 * (`failed list`, `status`) so the file's requisitions are not lost silently (src/intake/ingest-run.ts).
 */
export class FileNotHereError extends RfqSyncError {
  constructor(message: string) {
    super('E_FILE_NOT_HERE', 'data', message);
  }
}

/**
 * A job whose payload its queue's schema refuses (src/queues/queue-module.ts parseJob): written by another version,
 * or by hand. Never retried (the same payload fails the same way): kept for `rfq-sync failed list`, its message
 * naming the queue, the job id, the code and each field at fault.
 */
export class InvalidJobPayloadError extends RfqSyncError {
  readonly queue: string;
  readonly jobId: string;
  constructor(d: { queue: string; jobId: string; problems: Array<{ field: string; reason: string }> }) {
    const what = d.problems.map((p) => `${p.field}: ${p.reason}`).join('; ');
    super('E_JOB_PAYLOAD', 'data', `${d.queue} job ${d.jobId}: invalid payload (E_JOB_PAYLOAD): ${what}`);
    this.queue = d.queue;
    this.jobId = d.jobId;
    // BullMQ fails a job at once, without retries, when its error is named so (Job.shouldRetryJob): the same as
    // throwing its UnrecoverableError, without loading BullMQ wherever the queue modules are read (the settings)
    this.name = 'UnrecoverableError';
  }
}

/** `redis-server` is not on the PATH, and no REDIS_URL names a Redis to use instead. */
export function noRedisServer(orRedisUrl = true): RfqSyncError {
  return new RfqSyncError(
    'E_NO_REDIS',
    'config',
    `redis-server was not found on PATH: install it (Debian/Ubuntu: sudo apt-get install redis-server; Fedora/RHEL: sudo dnf install redis; macOS: brew install redis)${orRedisUrl ? ' or set REDIS_URL' : ''}`,
  );
}

/** Something else answers on the port a private redis-server was started on (it could not bind it). */
export function redisPortTaken(port: number, answer: string): RfqSyncError {
  return new RfqSyncError(
    'E_REDIS_PORT_TAKEN',
    'transient',
    `port ${port} is taken by another process (${answer}): the redis-server started for it could not listen there`,
  );
}

/** A private redis-server we started did not listen in time. */
export function redisServerSilent(port: number, timeoutMs: number): RfqSyncError {
  return new RfqSyncError(
    'E_NO_REDIS',
    'transient',
    `redis-server did not listen on port ${port} within ${timeoutMs} ms`,
  );
}

export class RedisUnfitError extends RfqSyncError {
  constructor(message: string) {
    super('E_REDIS_UNFIT', 'config', message);
  }
}

/**
 * Redis could not be used at start: a refused password is a configuration error (exit 2: restarting will not fix
 * it); anything else (refused connection, time-out) is transient. `where` is the URL as displayRedisUrl shows it.
 */
const REFUSED_CREDENTIALS =
  /WRONGPASS|NOAUTH|invalid password|invalid username-password|AUTH failed|without any password/i;
export function redisUnreachable(where: string, message: string): RfqSyncError {
  if (REFUSED_CREDENTIALS.test(message)) {
    return new RfqSyncError(
      'E_REDIS_AUTH',
      'config',
      `Redis at ${where} refused the credentials (${message.split('\n')[0]}): check the password in REDIS_URL (percent-encoded) or REDIS_PASSWORD`,
    );
  }
  return new RfqSyncError('E_REDIS_DOWN', 'transient', `cannot reach Redis at ${where}: ${message}`);
}

/** An output's disk is full: transient, its job waits on a back-off that never gives up (src/outbox/disk-full.ts). */
export class DiskFullError extends RfqSyncError {
  readonly path: string;
  constructor(path: string, code: string, options?: { cause?: unknown }) {
    super('E_DISK_FULL', 'transient', `${path}: the disk is full (${code}); it is written once space returns`, options);
    this.path = path;
  }
}

/** The audit log's folder cannot be written (src/audit/writer.ts). Transient: jobs wait (src/outbox/audit-wait.ts). */
export class AuditUnwritableError extends RfqSyncError {
  readonly dir: string;
  constructor(dir: string, reason: string, options?: { cause?: unknown }) {
    super('E_AUDIT_UNWRITABLE', 'transient', `the audit log's folder ${dir} cannot be written: ${reason}`, options);
    this.dir = dir;
  }
}

/** Redis replicas did not acknowledge a write in time (src/redis/replication.ts): the action is put off. */
export class ReplicationLagError extends RfqSyncError {
  constructor(what: string, acked: number, wanted: number, timeoutMs: number) {
    super(
      'E_REDIS_NOT_REPLICATED',
      'transient',
      `${what}: ${acked} of ${wanted} Redis replica(s) acknowledged within ${timeoutMs} ms; put off (retried)`,
    );
  }
}

// ---------------------------------------------------------------- notifications (src/notify)

/**
 * A message could not be delivered through a channel (SMTP refused, webhook time-out or non-2xx answer): the notify
 * job retries with back-off and, after NOTIFY_ATTEMPTS, is kept as failed. The text never holds a channel's secret.
 */
export class NotifyError extends RfqSyncError {
  readonly channel: string;
  constructor(channel: string, message: string, options?: { cause?: unknown }) {
    super('E_NOTIFY', 'transient', `channel ${channel}: ${message}`, options);
    this.channel = channel;
  }
}

/**
 * A send stopped because its worker stops (`once` at the end of its notification wait): the message goes back to the
 * queue as it was (not a failed attempt) for the next worker or run.
 */
export class NotifyStoppedError extends RfqSyncError {
  readonly channel: string;
  constructor(channel: string) {
    super(
      'E_NOTIFY_STOPPED',
      'transient',
      `channel ${channel}: the send was stopped: the worker is stopping (the message stays queued)`,
    );
    this.channel = channel;
  }
}

/** The sandbox (src/sandbox) refuses a request; `status` is the HTTP status it answers with. */
export class SandboxError extends RfqSyncError {
  readonly status: number;
  constructor(status: number, message: string) {
    super('E_SANDBOX_REFUSED', 'data', message);
    this.status = status;
  }
}

/** A trace lookup got no answer (app/http/trace-threads.ts): too many at once, past its deadline, or its thread failed. */
export class LookupRefusedError extends RfqSyncError {
  readonly why: 'busy' | 'deadline' | 'failed';
  constructor(message: string, why: LookupRefusedError['why']) {
    super('E_LOOKUP_REFUSED', why === 'failed' ? 'unexpected' : 'transient', message);
    this.why = why;
  }
}

/** The vendor cross-reference (VENDOR_XREF_FILE) cannot be used; the message names the file, the row and the field. */
export class VendorXrefError extends RfqSyncError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('E_VENDOR_XREF', 'data', message, options);
  }
}

export class ConfigError extends RfqSyncError {
  /** One line per problem, each naming the variable and what is wrong. */
  readonly problems: readonly string[];
  constructor(problems: readonly string[]) {
    super('E_CONFIG', 'config', `invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.problems = problems;
  }
}

export class UnexpectedError extends RfqSyncError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('E_UNEXPECTED', 'unexpected', message, options);
  }
}

/** Classify anything thrown: our errors keep their kind; everything else is unexpected. */
export function kindOf(err: unknown): ErrorKind {
  return err instanceof RfqSyncError ? err.kind : 'unexpected';
}

/**
 * A list page that may well come back fine if asked again: 5xx, reset, time-out, or a 200 with a broken body.
 * Not a 429, an auth failure, our own limiter holding calls or a busy attempt: those set the whole job aside or
 * pause it instead.
 */
export function isRetryablePageError(err: unknown): boolean {
  if (
    err instanceof RateLimitError ||
    err instanceof AuthError ||
    err instanceof ThrottledError ||
    err instanceof AttemptBusyError
  )
    return false;
  return err instanceof InvalidResponseError || (err instanceof RfqSyncError && err.kind === 'transient');
}

/** `<operation>: the sourcing service <what> (HTTP <status>)` and the body: how a refusal by status reads. */
function refusal(d: HttpErrorDetails & { status: number }, what: string): string {
  return `${d.operation}: the sourcing service ${what} (HTTP ${d.status})${bodySuffix(d.body)}`;
}

function bodySuffix(body: string | undefined): string {
  if (!body) return '';
  const oneLine = body.replace(/\s+/g, ' ').trim();
  return oneLine ? `: ${oneLine.slice(0, 300)}` : '';
}
