/**
 * pino logger: JSON lines on stdout, pretty when stdout is a terminal. Secrets are removed twice:
 * by pino's `redact` paths (which are case-sensitive, so both spellings of Authorization are listed) and by
 * `scrubSecrets`, which every known secret value is registered with and which cleans message strings and errors.
 */
import { terminalText } from './terminal-text.ts';
import pino, { type Logger as PinoLogger } from 'pino';

/** The logger every part writes to (pino's, with its secrets scrubbed: createLogger). */
export type Logger = PinoLogger;

const secrets = new Set<string>();

/** Register a value (token, Redis password...) that must never appear in any log line, report or error text. */
export function registerSecret(value: string | undefined | null): void {
  if (value && value.length >= 4) secrets.add(value);
}

/** Replace every registered secret, and anything shaped like a bearer credential or URL password, with [REDACTED]. */
export function scrubSecrets(text: string): string {
  let out = text;
  for (const s of secrets) if (out.includes(s)) out = out.split(s).join('[REDACTED]');
  out = out.replace(/(\bBearer\s+)[A-Za-z0-9._~+/=-]{6,}/gi, '$1[REDACTED]');
  out = out.replace(/(\bBasic\s+)[A-Za-z0-9+/]{6,}={0,2}/g, '$1[REDACTED]');
  // user:password@ inside any URL (redis://:pw@host, https://u:pw@host).
  out = out.replace(/(\b[a-z][a-z0-9+.-]*:\/\/[^:/@\s]*:)[^@\s/]+@/gi, '$1[REDACTED]@');
  // Credentials passed as query parameters.
  out = out.replace(/([?&](?:access_token|token|api_key|apikey|password|auth)=)[^&#\s"']+/gi, '$1[REDACTED]');
  return out;
}

const REDACT_PATHS = [
  'token',
  'password',
  'authorization',
  'Authorization',
  'headers.authorization',
  'headers.Authorization',
  'req.headers.authorization',
  'req.headers.Authorization',
  '*.token',
  '*.password',
  '*.authorization',
  '*.Authorization',
  'config.SOURCING_TOKEN',
  'config.HTTP_TOKEN',
  'config.token',
];

export interface LoggerOptions {
  level?: string;
  /** Force pretty or JSON output; default: pretty when stdout is a TTY. */
  pretty?: boolean;
  /** Write here instead of stdout (tests). */
  destination?: NodeJS.WritableStream;
  /** Write to stderr instead of stdout (commands whose stdout is their answer, e.g. `status --json`). */
  stderr?: boolean;
  name?: string;
}

export function createLogger(opts: LoggerOptions = {}): Logger {
  const fd = opts.stderr ? 2 : 1;
  const pretty =
    opts.pretty ?? (opts.destination === undefined && (opts.stderr ? process.stderr : process.stdout).isTTY === true);
  const options: pino.LoggerOptions = {
    name: opts.name ?? 'rfq-sync',
    level: opts.level ?? 'info',
    redact: { paths: REDACT_PATHS, censor: '[REDACTED]' },
    formatters: {
      // Last line of defence: scrub every string in every log object, message included.
      log: (obj) => scrubObject(obj) as Record<string, unknown>,
    },
    hooks: {
      logMethod(args, method) {
        // An Error as first argument becomes the message: scrub it here, before pino reads err.message. On a
        // terminal (pretty) the message is printed as it is: its control characters made visible first.
        const text = (a: string) => (pretty ? terminalText(scrubSecrets(a)) : scrubSecrets(a));
        method.apply(
          this,
          args.map((a) => (typeof a === 'string' ? text(a) : a instanceof Error ? scrubError(a) : a)) as Parameters<
            typeof method
          >,
        );
      },
    },
    serializers: {
      err: (err: unknown) => scrubObject(err instanceof Error ? pino.stdSerializers.err(err) : err),
    },
    timestamp: pino.stdTimeFunctions.isoTime,
  };
  if (pretty) {
    return scrubChildBindings(
      pino({
        ...options,
        transport: {
          target: 'pino-pretty',
          options: { colorize: true, translateTime: 'SYS:standard', destination: fd },
        },
      }),
    );
  }
  if (opts.destination) return scrubChildBindings(pino(options, opts.destination as pino.DestinationStream));
  return scrubChildBindings(fd === 2 ? pino(options, pino.destination({ fd: 2, sync: true })) : pino(options));
}

/**
 * Child bindings (`logger.child({...})`) are serialized once, apart from each log object, and pino drops any
 * bindings formatter for children: scrub them on the way in, at every level of children.
 */
function scrubChildBindings(root: Logger): Logger {
  const realChild = (
    Object.getPrototypeOf(root) as { child: (this: Logger, b: pino.Bindings, o?: pino.ChildLoggerOptions) => Logger }
  ).child;
  const wrap = (l: Logger): Logger => {
    Object.defineProperty(l, 'child', {
      configurable: true,
      writable: true,
      value: function child(this: Logger, bindings: pino.Bindings, o?: pino.ChildLoggerOptions): Logger {
        return wrap(realChild.call(this, scrubObject(bindings) as pino.Bindings, o));
      },
    });
    return l;
  };
  return wrap(root);
}

/** Keys whose values are credentials whatever their spelling (pino's redact paths are case-sensitive). */
const SECRET_KEYS = new Set([
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'token',
  'password',
  'secret',
  'x-api-key',
  'api_key',
  'apikey',
  'access_token',
  'refresh_token',
  'sourcing_token',
  'http_token',
  'bearer',
]);

/** A copy of an error (same prototype, so serializers still see an Error) with message, stack, props and cause scrubbed. */
function scrubError(err: Error, depth = 0): Error {
  if (depth > 8) return err;
  const copy = Object.create(Object.getPrototypeOf(err) as object) as Error & Record<string, unknown>;
  for (const [k, v] of Object.entries(err))
    copy[k] = SECRET_KEYS.has(k.toLowerCase()) && v != null ? '[REDACTED]' : scrubObject(v, depth + 1);
  Object.defineProperty(copy, 'message', {
    value: scrubSecrets(err.message),
    enumerable: false,
    writable: true,
    configurable: true,
  });
  Object.defineProperty(copy, 'stack', {
    value: err.stack === undefined ? undefined : scrubSecrets(err.stack),
    enumerable: false,
    writable: true,
    configurable: true,
  });
  if (err.name !== copy.name)
    Object.defineProperty(copy, 'name', { value: err.name, enumerable: false, writable: true, configurable: true });
  if (err.cause !== undefined)
    Object.defineProperty(copy, 'cause', {
      value: err.cause instanceof Error ? scrubError(err.cause, depth + 1) : scrubObject(err.cause, depth + 1),
      enumerable: false,
      writable: true,
      configurable: true,
    });
  return copy;
}

/** Deep copy with every secret-named key censored and every string scrubbed; Errors become plain objects. */
export function scrubObject(value: unknown, depth = 0): unknown {
  if (depth > 8) return '[too deep]';
  if (typeof value === 'string') return scrubSecrets(value);
  if (value instanceof Error) return scrubError(value, depth);
  if (Array.isArray(value)) {
    // Raw header arrays (undici): ['authorization', 'Bearer x', ...]
    return value.map((v, i) =>
      i > 0 && typeof value[i - 1] === 'string' && SECRET_KEYS.has(String(value[i - 1]).toLowerCase())
        ? '[REDACTED]'
        : scrubObject(v, depth + 1),
    );
  }
  if (value && typeof value === 'object') {
    if (value instanceof Date) return value;
    const entries =
      value instanceof Map
        ? [...value.entries()]
        : value instanceof Headers
          ? [...value.entries()]
          : Object.entries(value);
    const out: Record<string, unknown> = {};
    for (const [k, v] of entries)
      out[String(k)] = SECRET_KEYS.has(String(k).toLowerCase()) && v != null ? '[REDACTED]' : scrubObject(v, depth + 1);
    return out;
  }
  return value;
}

/** A logger that writes nothing: for library code called without one. */
export const silentLogger: Logger = pino({ level: 'silent' });
