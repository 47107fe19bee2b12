/**
 * rfq-sync command line. Each command loads its modules lazily, so `--help` and small commands start fast.
 * Exit codes: 0 done; 1 something failed and was reported; 2 bad configuration or usage.
 */
import { readFileSync } from 'node:fs';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import type { Config } from '../src/settings/index.ts';
import { type Logger } from '../src/core/index.ts';
import {
  dropOutputToClosedPipes,
  EXIT_CONFIG,
  EXIT_FAILED,
  EXIT_OK,
  out,
  reportError,
  setup,
  type GlobalOptions,
} from './cli-support.ts';
import { commands, type SandboxCommandOptions } from './commands/index.ts';

dropOutputToClosedPipes();

/**
 * The formats `check` reads, as --help names them. Written here, not read from src/ingest/formats' list, whose modules
 * load their readers: --help loads no reader (test/ingest/check-cli.test.ts checks every format of the list is named).
 */
const FORMATS =
  'CSV or tab-separated text, XLSX, binary XLS (Excel 97-2003, SAP XXL), XML Spreadsheet 2003, ODS, an HTML table (as Oracle EBS saves .xls), or an SAP list saved "unconverted"';

const program = new Command('rfq-sync')
  .description(
    'Turns ERP purchase-requisition exports into RFQs on a sourcing service, follows them, and writes Excel quote comparisons.',
  )
  .option(
    '-c, --config <file>',
    'configuration file (YAML or JSON, same keys as the environment variables); same as RFQ_SYNC_CONFIG',
  )
  .addOption(
    new Option('--log-level <level>', 'log level (overrides LOG_LEVEL)').choices([
      'fatal',
      'error',
      'warn',
      'info',
      'debug',
      'trace',
      'silent',
    ]),
  )
  .option(
    '--account <name>',
    'the sourcing account to act on (same as SOURCING_ACCOUNT); status, failed and ingest find it in Redis when there is only one',
  )
  .version(packageVersion(), '-V, --version')
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

/**
 * A command whose body is one function of its file in commands/, loaded when it runs: `run(config, logger, ...what
 * commander parsed)` (its arguments, then its options; the Command object commander adds last is left out).
 */
function runFromCommands<M, K extends keyof M>(
  load: () => Promise<M>,
  name: K,
  o: Parameters<typeof setup>[1] = {},
  notify?: { command: string; mode: 'refuse' | 'warn' },
): (...args: unknown[]) => Promise<void> {
  return action(async (...args: unknown[]) => {
    const { config: loaded, logger } = setup(
      globals(),
      notify?.mode === 'warn' ? { ...o, advisory: notifySetting } : o,
    );
    const config = notify ? await notifySettings(loaded, notify.command, notify.mode) : loaded;
    const run = (await load())[name] as (c: Config, l: Logger, ...a: unknown[]) => Promise<number>;
    return run(config, logger, ...args.slice(0, -1));
  });
}

/** Settings `status`, `failed`, `ingest`, `resolve` and `recover` do not use: the notification ones. */
const notifySetting = (key: string): boolean => key.startsWith('NOTIFY_');

/** The notification settings checked (refuse) or said in one warning line and left out (warn): app/notify-check.ts. */
async function notifySettings(config: Config, command: string, mode: 'refuse' | 'warn'): Promise<Config> {
  const { checkNotifySettings } = await import('./notify-check.ts');
  return checkNotifySettings(config, command, mode);
}

program
  .command('worker')
  .description(
    'run the service: watch the inbox, create RFQs, poll, pull quotations, write comparisons (needs SOURCING_BASE_URL and REDIS_URL)',
  )
  .addHelpText(
    'after',
    '\nStops gracefully on SIGTERM/SIGINT (in-flight jobs finish or go back to the queue within SHUTDOWN_TIMEOUT_MS); a second signal exits at once.\nOperations endpoint: http://HTTP_HOST:HTTP_PORT/healthz /readyz /metrics /queues',
  )
  .action(
    action(async () => {
      const { config, logger } = setup(globals(), { requireProduction: true, service: true });
      await notifySettings(config, 'worker', 'refuse');
      const { runWorkerCommand } = await commands.service();
      return runWorkerCommand(config, logger);
    }),
  );

program
  .command('once')
  .description(
    'one full pass: inbox, RFQ creation, one poll, quotations and comparisons; exits when the queues are drained',
  )
  .option('--max-wait <seconds>', 'give up waiting for the queues after this long', (v) => positiveNumber(v), 3600)
  .option(
    '--sandbox',
    'run against the built-in sandbox (and a private redis-server when REDIS_URL is unset), to try it out',
  )
  .addHelpText(
    'after',
    '\nExit code: 0 all done, 1 something failed and was reported, 2 bad configuration.\nNeeds SOURCING_BASE_URL and REDIS_URL; only with --sandbox does it start the built-in sandbox (and a private redis-server).',
  )
  .action(
    action(async (opts: { maxWait: number; sandbox?: boolean }) => {
      const { config, logger } = setup(globals(), { service: true });
      await notifySettings(config, 'once', 'refuse');
      const { runOnceCommand } = await commands.service();
      return runOnceCommand(config, logger, { maxWaitMs: opts.maxWait * 1000, sandbox: opts.sandbox === true });
    }),
  );

program
  .command('check')
  .description(
    'dry run of one export: the mapping profile chosen and why, the requisitions it would create, every row problem (no side effects)',
  )
  .argument('<file>', `the export: ${FORMATS}`)
  .addOption(
    new Option('-m, --mapping <name>', 'use this mapping profile instead of detecting one').conflicts('suggest'),
  )
  .option(
    '--suggest',
    'draft a mapping profile from this file: the YAML on standard output (or --out FILE), the evidence and the check with it on standard error',
  )
  .option('--name <name>', 'with --suggest: the profile name (default: from the file name)', profileName)
  .option(
    '--out <file>',
    'with --suggest: write the profile to this file (whole, and only when one was drafted) instead of standard output',
  )
  .option('--force', 'with --out: replace the file if it exists')
  .addOption(
    new Option(
      '--json',
      'print the same facts as one JSON document on standard output (field names in docs/mapping.md)',
    ).conflicts('suggest'),
  )
  .addHelpText(
    'after',
    '\nExit code: 0 clean (warnings allowed), 1 some rows rejected, 2 the file or the mapping cannot be read.\nDraft a profile: rfq-sync check --suggest FILE --name NAME --out mappings/NAME.yaml, then review the "# REVIEW:" points.',
  )
  .action(runFromCommands(commands.check, 'runCheckCommand'));

program
  .command('ingest')
  .description('submit one file now, as if dropped in the inbox (a running worker reads it)')
  .argument('<file>', `the export: ${FORMATS}`)
  .option('-m, --mapping <name>', 'use this mapping profile instead of detecting one')
  .option('--move', 'move the file instead of copying it (same file system as processing/ only)')
  .action(
    runFromCommands(commands.ingest, 'runIngestCommand', { redisOnly: true }, { command: 'ingest', mode: 'warn' }),
  );

program
  .command('poll')
  .description('poll the status lists now and print what changed (quotation pulls it triggers are done by a worker)')
  .option('--enqueue', 'only queue a poll for the running workers')
  .action(runFromCommands(commands.poll, 'runPollCommand'));

program
  .command('compare')
  .description('write the quote comparison workbook of one RFQ now, from what the service says (prints its path)')
  .argument('<rfq-id>', 'the RFQ _id on the sourcing service', (v) => positiveInteger(v))
  .option('-o, --out <file>', 'write here instead of outbox/comparisons/')
  .action(runFromCommands(commands.compare, 'runCompareCommand'));

program
  .command('status')
  .description('queue counts, RFQs tracked per state, last poll, recent failures with their reason, auth pause')
  .option('--json', 'print one JSON document (for scripts and monitoring)')
  .action(
    runFromCommands(commands.status, 'runStatusCommand', { redisOnly: true }, { command: 'status', mode: 'warn' }),
  );

program
  .command('trace')
  .description(
    'where is my requisition: its timeline from file to award (audit log and Redis), and what is pending and why',
  )
  .argument('<what>', 'an external_id, a requisition (profile/key), an RFQ number or _id, a file name or sha256')
  .option('--json', 'print one JSON document (streamed with --all)')
  .option('--all', 'every step, however many (a recurring file name answers with its files otherwise)')
  .option('--since <when>', 'only the steps from then on: 2026-11-24 (UTC midnight) or an ISO 8601 time')
  .addHelpText(
    'after',
    '\nNames the audit folder it read and the days it covers. RFQ numbers are per account: --account to choose.\nExit code: 0 an answer (from the log, or from Redis when the log names nothing), 1 nothing found.',
  )
  .action(
    action(async (what: string, opts: { json?: boolean; all?: boolean; since?: string }) => {
      const { config, logger } = setup(globals(), { redisOnly: true });
      const { runTraceCommand } = await commands.trace();
      return runTraceCommand(config, logger, what, opts);
    }),
  );

program
  .command('doctor')
  .description(
    "detect the sourcing service's dialect for this account now and read its vendor directory; print both with the evidence",
  )
  .option('--json', 'print JSON')
  .action(runFromCommands(commands.doctor, 'runDoctorCommand', {}, { command: 'doctor', mode: 'refuse' }));

program
  .command('vendors')
  .description(
    "write a draft of the vendor cross-reference (VENDOR_XREF_FILE) from the vendor directory and the suppliers seen in quotations, the ERP's vendor ids to fill",
  )
  .requiredOption('--xref-draft <file>', 'the CSV to write (never replaced)')
  .action(
    runFromCommands(commands.vendors, 'runVendorsCommand', { redisOnly: true }, { command: 'vendors', mode: 'warn' }),
  );

program
  .command('recover')
  .description(
    'after Redis lost its state: reconcile every requisition of the files taken since WHEN before any post, then resume creation',
  )
  .requiredOption(
    '--since <when>',
    'when the loss may have begun: 2026-11-24 (UTC midnight) or 2026-11-24T08:00:00+01:00',
  )
  .action(
    action(async (opts: { since: string }) => {
      const { config: loaded, logger } = setup(globals(), { redisOnly: true, advisory: notifySetting });
      const config = await notifySettings(loaded, 'recover', 'warn');
      const { parseSince, runRecoverCommand } = await commands.recover();
      return runRecoverCommand(config, logger, { since: parseSince(opts.since) }, out);
    }),
  );

program
  .command('resume')
  .description(
    'the service refused the token and calls are paused: check the same token now and resume when it is accepted',
  )
  .addHelpText(
    'after',
    '\nWorkers check the same token by themselves on a back-off (AUTH_CHECK_MS, doubling up to 15 min); this checks now.\nExit code: 0 not paused or resumed, 1 still refused.',
  )
  .action(
    action(async () => {
      const { config, logger } = setup(globals());
      const { runResumeCommand } = await commands.resume();
      return runResumeCommand(config, logger, out);
    }),
  );

program
  .command('intake')
  .description("which data folder does intake (takes the inbox files) for the account, and whether this host's is it")
  .option(
    '--take-over',
    "make this host's data folder the intake folder from now on (a host replaced, the share moved)",
  )
  .action(
    action(async (opts: { takeOver?: boolean }) => {
      const { config, logger } = setup(globals(), { redisOnly: true });
      const { runIntakeCommand } = await commands.intake();
      return runIntakeCommand(config, logger, opts, out);
    }),
  );

program
  .command('resolve')
  .description('settle a requisition parked after an ambiguous reconcile: this RFQ is it (--rfq), or post it (--post)')
  .argument('<requisition>', 'requisition id as `status` shows it (profile/key)')
  .addOption(
    new Option('--rfq <id>', 'the RFQ that is this requisition').argParser((v) => positiveInteger(v)).conflicts('post'),
  )
  .option('--post', 'no RFQ is this requisition: post it again')
  .action(runFromCommands(commands.resolve, 'runResolveCommand', {}, { command: 'resolve', mode: 'warn' }));

const failed = program
  .command('failed')
  .description('jobs that failed after all their attempts: list them, run them again');
failed
  .command('list')
  .description('every failed job with its reason')
  .option('--json', 'print JSON')
  .option('--limit <n>', 'at most this many per queue', (v) => positiveInteger(v), 1000)
  .action(
    runFromCommands(commands.failed, 'runFailedList', { redisOnly: true }, { command: 'failed list', mode: 'warn' }),
  );
failed
  .command('retry')
  .description('run failed jobs again')
  .argument('[ref]', 'job reference from `failed list` (queue:id, or a bare id)')
  .option('--all', 'every failed job')
  .action(
    runFromCommands(commands.failed, 'runFailedRetry', { redisOnly: true }, { command: 'failed retry', mode: 'warn' }),
  );

const notify = program.command('notify').description('notifications (NOTIFY_CHANNELS, NOTIFY_ROUTES)');
notify
  .command('test')
  .description("send a test message through a route's channel now (no Redis, no queue): does it reach its people?")
  .argument('<route>', 'a route of NOTIFY_ROUTES')
  .addHelpText(
    'after',
    '\nExit code: 0 sent, 1 the channel refused or failed (the error says why), 2 no such route or bad settings.',
  )
  .action(
    action(async (route: string) => {
      const { config, logger } = setup(globals(), { redisOnly: true });
      const { sendTestMessage } = await import('../src/notify/index.ts');
      const sent = await sendTestMessage(config, logger, route);
      process.stdout.write(
        `sent a test message through route ${route} (${sent.type} channel ${sent.channel})${sent.to ? ` to ${sent.to.join(', ')}` : ''}\n`,
      );
    }),
  );

program
  .command('sandbox')
  .description('run the built-in sandbox of the sourcing service (for trying rfq-sync without the real service)')
  .option('-p, --port <n>', 'port (default: a free port)', (v) => parsePort(v))
  .option('--host <host>', 'address to bind', '127.0.0.1')
  .option('--prefix <path>', 'path prefix before /v1, e.g. /esourcing', '')
  .option('--state-file <file>', 'keep the sandbox state in this file across restarts')
  .option('--autopilot', 'simulate suppliers: close RFQs, submit quotations, complete them')
  .option('--close-after-ms <ms>', 'autopilot: close an RFQ this long after creation', (v) => Number(v), 20_000)
  .addOption(
    new Option(
      '--dialect <name>',
      'friendly (lower-case filter, external_id echoed) or docs (the real service as documented)',
    )
      .choices(['friendly', 'docs'])
      .default('friendly'),
  )
  .addOption(
    shapesOption(
      'current (records as the interface shows them) or legacy (as older revisions of the real service document them: extended-JSON dates, invitation map, success/unsuccess, "0"-keyed documents)',
    ),
  )
  .option('--existing <n>', 'seed this many hand-made RFQs (no external_ids) per account', (v) => Number(v), 0)
  .option('--page-size <n>', 'RFQs per list page', (v) => positiveInteger(v), 20)
  .option('--no-vendors', 'serve no vendor directory (404, as a service without one)')
  .option(
    '--webhook-url <url>',
    "POST a webhook to this URL on every RFQ state change, as the service does (a worker's /hooks/sourcing/<WEBHOOK_SECRET>)",
    (v) => new URL(v).toString(),
  )
  .action(
    action(async (opts: SandboxCommandOptions) => {
      const { runSandboxCommand } = await commands.sandbox();
      return runSandboxCommand(globals(), opts);
    }),
  );

program
  .command('demo')
  .description(
    'the whole loop on this machine with nothing configured: private redis-server, sandbox with simulated suppliers, the samples; prints the workbooks it wrote',
  )
  .option('--dir <dir>', 'parent folder of the run folder', 'rfq-sync-demo')
  .option('--timeout <seconds>', 'stop waiting after this long', (v) => positiveNumber(v), 110)
  .option('--stay', 'keep running at the end (dashboard stays up) until Ctrl-C')
  .addOption(shapesOption("the sandbox's record shapes: current or legacy (see `rfq-sync sandbox --help`)"))
  .addHelpText(
    'after',
    '\nNeeds redis-server on PATH (Debian/Ubuntu: apt-get install redis-server; macOS: brew install redis).\nIgnores REDIS_URL and SOURCING_BASE_URL: a demo never touches a real installation.',
  )
  .action(
    action(async (opts: { dir: string; timeout: number; stay?: boolean; shapes: 'current' | 'legacy' }) => {
      const { runDemo } = await commands.demo();
      return runDemo({
        dir: opts.dir,
        timeoutMs: opts.timeout * 1000,
        stay: opts.stay,
        logLevel: globals().logLevel,
        shapes: opts.shapes,
      });
    }),
  );

function shapesOption(description: string): Option {
  return new Option('--shapes <name>', description).choices(['current', 'legacy']).default('current');
}

/** A mapping profile's name: its file is `mappings/<name>.yaml`. */
function profileName(v: string): string {
  if (!/^[A-Za-z0-9._-]+$/.test(v))
    throw new InvalidArgumentError('A profile name may hold only letters, digits and . _ -');
  return v;
}

function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version?: string };
  return pkg.version ?? '0.0.0';
}

function positiveInteger(v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n <= 0) throw new InvalidArgumentError('must be a positive whole number');
  return n;
}

function positiveNumber(v: string): number {
  const n = Number(v);
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError('must be a positive number');
  return n;
}

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
