/**
 * Configuration: one zod schema, parsed once at start. Sources, later wins:
 *   1. defaults (documented next to each field, in src/settings/),
 *   2. an optional config file (`RFQ_SYNC_CONFIG`, YAML or JSON, same keys as the environment variables),
 *   3. environment variables.
 * Every problem is reported on its own line naming the variable and what is wrong (ConfigError.problems).
 */
import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { ConfigError, registerSecret } from '../core/index.ts';
import { completeRedisSettings, redisPassword } from './config-redis.ts';
import { httpTokenFromFile, sourcingToken } from './config-secrets.ts';
import { serviceSettings } from './service.ts';
import { redisSettings } from './redis.ts';
import { folderSettings, type Folders } from './folders.ts';
import { pollingSettings } from './polling.ts';
import { jobSettings } from './jobs.ts';
import { outputSettings } from './outputs.ts';
import { operationsSettings } from './operations.ts';
import { reconcileSettings } from './reconcile.ts';
import { vendorSettings } from './vendors.ts';
import { notifySettings } from './notify.ts';
import { webhookSettings } from './webhooks.ts';
import { erpSettings } from './erp.ts';

/** Root of the installed package (holds the shipped mappings/ and samples/). */
export const PACKAGE_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * The raw, flat schema: keys are the environment variable names. Its fields live by concern in src/settings/, in the
 * order of the table in docs/operations.md; a new concern adds one file there and one line here.
 */
export const rawConfigSchema = z.object({
  ...serviceSettings,
  ...redisSettings,
  ...folderSettings,
  ...pollingSettings,
  ...jobSettings,
  ...reconcileSettings,
  ...outputSettings,
  ...erpSettings,
  ...vendorSettings,
  ...operationsSettings,
  ...notifySettings,
  ...webhookSettings,
});

export type RawConfig = z.infer<typeof rawConfigSchema>;

export interface Config extends RawConfig {
  folders: Folders;
  /** SOURCING_ACCOUNT, or the default derived from the base URL (`sandbox` for the built-in sandbox). */
  account: string;
  /** False when neither SOURCING_ACCOUNT nor SOURCING_BASE_URL said which account (`sandbox` is then a guess). */
  accountGiven: boolean;
  /** The bearer token as read at start (from SOURCING_TOKEN or SOURCING_TOKEN_FILE); undefined for the sandbox. */
  token: string | undefined;
  /** Problems of settings the command does not use (`advisory`): left at their defaults, for one warning line. */
  ignored?: string[];
  /** Where each setting that was given came from: `the environment` or the config file's path (unset: its default). */
  given: Record<string, string>;
}

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

/**
 * Parse configuration from the environment (and the file RFQ_SYNC_CONFIG names).
 * `requireProduction`: the `worker` command never falls back to the sandbox or a private Redis.
 * `requireToken` (default true): false for the commands that only use Redis.
 */
export function loadConfig(
  env: NodeJS.ProcessEnv = process.env,
  opts: {
    requireProduction?: boolean;
    requireToken?: boolean;
    cwd?: string;
    /** Settings the command does not use: a problem there is kept in `ignored` (the default used), not refused. */
    advisory?: (key: string) => boolean;
  } = {},
): Config {
  const problems: string[] = [];
  const ignored: string[] = [];
  const given: Record<string, string> = {};
  const raw = parseSettings(env, problems, opts.advisory, ignored, given);
  // Secrets go into the log scrubber before anything can print them.
  registerSecret(raw.SOURCING_TOKEN);
  registerSecret(raw.HTTP_TOKEN);
  registerSecret(raw.WEBHOOK_SECRET);
  if (raw.REDIS_URL) {
    registerSecret(redisPassword(raw.REDIS_URL));
    registerSecret(new URL(raw.REDIS_URL).password); // the percent-encoded spelling too
  }

  completeRedisSettings(raw, problems);
  // Commands that only read or steer Redis (status, failed, ingest, recover) never need the token: a token file that
  // cannot be used must not keep `status` from saying so.
  const tokenProblems: string[] = [];
  const token = sourcingToken(raw.SOURCING_TOKEN, raw.SOURCING_TOKEN_FILE, tokenProblems);
  if (opts.requireToken !== false) problems.push(...tokenProblems);
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
    ...(ignored.length ? { ignored } : {}),
    given,
  };
}

/**
 * The settings of the file RFQ_SYNC_CONFIG names, overridden by the non-empty environment variables, checked
 * against the schema. Throws a ConfigError listing every problem so far when anything is wrong.
 */
function parseSettings(
  env: NodeJS.ProcessEnv,
  problems: string[],
  advisory?: (key: string) => boolean,
  ignored: string[] = [],
  given: Record<string, string> = {},
): RawConfig {
  const cfgFile = env.RFQ_SYNC_CONFIG;
  const fileValues = cfgFile ? readConfigFile(cfgFile, problems) : {};
  const known = new Set(Object.keys(rawConfigSchema.shape));
  for (const k of Object.keys(fileValues)) if (!known.has(k)) problems.push(`${k}: unknown setting in ${cfgFile}`);

  const merged: Record<string, unknown> = { ...fileValues };
  for (const k of Object.keys(fileValues)) given[k] = cfgFile!;
  for (const k of known) {
    const v = env[k];
    if (v !== undefined && v !== '') {
      merged[k] = v;
      given[k] = 'the environment';
    }
  }
  let result = rawConfigSchema.safeParse(merged);
  // a setting the command does not use: its problems said (by the caller), its default used
  const skipped = new Set<string>();
  for (const issue of result.error?.issues ?? []) {
    const key = String(issue.path[0] ?? '');
    if (!advisory?.(key)) continue;
    skipped.add(key);
    ignored.push(`${issue.path.join('.')}: ${issue.message}`);
  }
  if (skipped.size > 0) {
    for (const k of skipped) delete merged[k];
    result = rawConfigSchema.safeParse(merged);
  }
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
    erp: join(outbox, 'erp'),
    erpProfiles: abs(raw.ERP_OUTPUTS_DIR ?? join(PACKAGE_ROOT, 'erp-outputs')),
    erpShipped: join(PACKAGE_ROOT, 'erp-outputs'),
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
