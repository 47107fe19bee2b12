#!/usr/bin/env node
/**
 * rfq-sync command line. Each command loads its modules lazily, so `--help` and small commands start fast.
 * Exit codes: 0 done; 1 something failed and was reported; 2 bad configuration or usage.
 */
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { EXIT_CONFIG, EXIT_FAILED, EXIT_OK, reportError, setup, type GlobalOptions } from '../src/ops/cli-support.ts';

const program = new Command('rfq-sync')
  .description('Turns ERP purchase-requisition exports into RFQs on a sourcing service, follows them, and writes Excel quote comparisons.')
  .option('-c, --config <file>', 'configuration file (YAML or JSON, same keys as the environment variables); same as RFQ_SYNC_CONFIG')
  .addOption(new Option('--log-level <level>', 'log level (overrides LOG_LEVEL)').choices(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']))
  .showHelpAfterError('(run with --help for usage)')
  .exitOverride();

const globals = (): GlobalOptions => program.opts<GlobalOptions>();

/** Run a command body; whatever it throws is printed once and becomes the exit code. */
function action<A extends unknown[]>(fn: (...args: A) => Promise<number | void>): (...args: A) => Promise<void> {
  return async (...args: A) => {
    let code: number;
    try {
      code = (await fn(...args)) ?? EXIT_OK;
    } catch (err) {
      code = reportError(err);
    }
    process.exitCode = code;
  };
}

program
  .command('sandbox')
  .description('run the built-in sandbox of the sourcing service (for trying rfq-sync without the real service)')
  .option('-p, --port <n>', 'port (default: a free port)', (v) => parsePort(v))
  .option('--host <host>', 'address to bind', '127.0.0.1')
  .option('--prefix <path>', 'path prefix before /v1, e.g. /esourcing', '')
  .option('--state-file <file>', 'keep the sandbox state in this file across restarts')
  .option('--autopilot', 'simulate suppliers: close RFQs, submit quotations, complete them')
  .option('--close-after-ms <ms>', 'autopilot: close an RFQ this long after creation', (v) => Number(v), 20_000)
  .action(
    action(async (opts: { port?: number; host: string; prefix: string; stateFile?: string; autopilot?: boolean; closeAfterMs: number }) => {
      const { runSandboxCommand } = await import('../src/ops/sandbox-command.ts');
      return runSandboxCommand(globals(), opts);
    }),
  );

program
  .command('status')
  .description('queue counts, RFQs tracked per state, last poll, recent failures with their reason, auth pause')
  .option('--json', 'print one JSON document (for scripts and monitoring)')
  .action(
    action(async (opts: { json?: boolean }) => {
      const { config, logger } = setup(globals());
      const { runStatusCommand } = await import('../src/ops/commands.ts');
      return runStatusCommand(config, logger, opts);
    }),
  );

function parsePort(v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0 || n > 65_535) throw new InvalidArgumentError('must be a port number 0-65535');
  return n;
}

try {
  await program.parseAsync(process.argv);
} catch (err) {
  if (err instanceof CommanderError) {
    // --help and --version end here with exitCode 0; usage errors were already printed by commander.
    process.exitCode = err.exitCode === 0 ? EXIT_OK : err.code === 'commander.helpDisplayed' ? EXIT_OK : EXIT_CONFIG;
  } else {
    process.exitCode = reportError(err) || EXIT_FAILED;
  }
}
