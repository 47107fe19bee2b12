/**
 * What every CLI command shares: reading the configuration (the `--config` option, one line per problem on
 * failure), a logger (JSON on stdout for the service; on stderr for commands whose stdout is their answer), and the
 * mapping from errors to exit codes: 2 for bad configuration or usage, 1 for a failure that was reported.
 */
import { loadConfig, type Config } from '../src/settings/index.ts';
import {
  ConfigError,
  RfqSyncError,
  createLogger,
  scrubSecrets,
  terminalLines,
  type Logger,
} from '../src/core/index.ts';

/**
 * One line on stdout: what a command prints for the person or script that ran it. Terminal-safe: a control character
 * from an export or the service (an id carrying ESC sequences) is printed as a visible escape, never raw; a command
 * whose fields may hold line breaks escapes them itself (terminalText) before joining its lines.
 */
export const out = (line: string): void => {
  process.stdout.write(`${terminalLines(line)}\n`);
};

/**
 * Output to a pipe whose reader is gone (`rfq-sync check FILE | head -1`) ends quietly: what is left to print is
 * dropped and the command finishes as it would, with its own exit code; never an EPIPE stack trace.
 */
export function dropOutputToClosedPipes(): void {
  for (const stream of [process.stdout, process.stderr])
    stream.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EPIPE' && err.code !== 'ERR_STREAM_DESTROYED') throw err;
    });
}

export const EXIT_OK = 0;
export const EXIT_FAILED = 1;
export const EXIT_CONFIG = 2;

export interface GlobalOptions {
  config?: string;
  logLevel?: string;
  /** --account: the same as SOURCING_ACCOUNT. */
  account?: string;
}

export interface Setup {
  config: Config;
  logger: Logger;
}

/**
 * `service`: logs are the output (stdout, level from LOG_LEVEL). Otherwise logs go to stderr at `warn` unless
 * --log-level says otherwise, so `status --json` and `check` keep stdout for their answer. `redisOnly`: the command
 * reads or steers Redis only (status, failed, ingest, recover): no sourcing token is needed. `advisory`: settings the
 * command does not use (their problems are said by the command, their defaults used: app/notify-check.ts).
 */
export function setup(
  global: GlobalOptions,
  o: { requireProduction?: boolean; service?: boolean; redisOnly?: boolean; advisory?: (key: string) => boolean } = {},
): Setup {
  const env = { ...process.env };
  if (global.config) env.RFQ_SYNC_CONFIG = global.config;
  if (global.logLevel) env.LOG_LEVEL = global.logLevel;
  if (global.account) env.SOURCING_ACCOUNT = global.account;
  const config = loadConfig(env, {
    requireProduction: o.requireProduction,
    requireToken: !o.redisOnly,
    advisory: o.advisory,
  });
  const logger = o.service
    ? createLogger({ level: config.LOG_LEVEL })
    : createLogger({ level: global.logLevel ?? (env.LOG_LEVEL ? config.LOG_LEVEL : 'warn'), stderr: true });
  return { config, logger };
}

/** Print an error the way a person should read it and return the exit code. */
export function reportError(
  err: unknown,
  write: (s: string) => void = (s) => process.stderr.write(terminalLines(s)),
): number {
  if (err instanceof ConfigError) {
    write(`rfq-sync: invalid configuration:\n${err.problems.map((p) => `  ${scrubSecrets(p)}`).join('\n')}\n`);
    return EXIT_CONFIG;
  }
  if (err instanceof RfqSyncError) {
    write(`rfq-sync: ${scrubSecrets(err.message)}\n`);
    return err.kind === 'config' ? EXIT_CONFIG : EXIT_FAILED;
  }
  const e = err as Error;
  write(`rfq-sync: unexpected error: ${scrubSecrets(e?.stack ?? String(err))}\n`);
  return EXIT_FAILED;
}
