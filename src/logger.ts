/**
 * pino logger: JSON lines on stdout, pretty when stdout is a terminal. Secrets are removed twice:
 * by pino's `redact` paths (which are case-sensitive, so both spellings of Authorization are listed) and by
 * `scrubSecrets`, which every known secret value is registered with and which cleans message strings and errors.
 */
import pino, { type Logger } from 'pino';

export type { Logger };

const secrets = new Set<string>();

/** Register a value (token, Redis password...) that must never appear in any log line, report or error text. */
export function registerSecret(value: string | undefined | null): void {
  if (value && value.length >= 4) secrets.add(value);
}

/** Replace every registered secret, and anything shaped like a bearer credential or URL password, with [REDACTED]. */
export function scrubSecrets(text: string): string {
  let out = text;
  for (const s of secrets) if (out.includes(s)) out = out.split(s).join('[REDACTED]');
  out = out.replace(/(Bearer\s+)[A-Za-z0-9._~+/=-]+/gi, '$1[REDACTED]');
  out = out.replace(/(\b[a-z][a-z0-9+.-]*:\/\/[^:/@\s]*:)[^@\s/]+@/gi, '$1[REDACTED]@');
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
  name?: string;
}

export function createLogger(opts: LoggerOptions = {}): Logger {
  const pretty = opts.pretty ?? (opts.destination === undefined && process.stdout.isTTY === true);
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
        method.apply(this, args.map((a) => (typeof a === 'string' ? scrubSecrets(a) : a)) as Parameters<typeof method>);
      },
    },
    serializers: {
      err: (err: unknown) => scrubObject(pino.stdSerializers.err(err as Error)),
    },
    timestamp: pino.stdTimeFunctions.isoTime,
  };
  if (pretty) {
    return pino({ ...options, transport: { target: 'pino-pretty', options: { colorize: true, translateTime: 'SYS:standard' } } });
  }
  return opts.destination ? pino(options, opts.destination as pino.DestinationStream) : pino(options);
}

function scrubObject(value: unknown, depth = 0): unknown {
  if (depth > 8) return value;
  if (typeof value === 'string') return scrubSecrets(value);
  if (Array.isArray(value)) return value.map((v) => scrubObject(v, depth + 1));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = scrubObject(v, depth + 1);
    return out;
  }
  return value;
}

/** A logger that writes nothing: for library code called without one. */
export const silentLogger: Logger = pino({ level: 'silent' });
