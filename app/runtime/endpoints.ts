/**
 * Where Redis and the sourcing service are for this run. Set REDIS_URL / SOURCING_BASE_URL win; unset means the
 * embedded defaults, for `demo` and local use only: a private redis-server child process on a free loopback port,
 * and the built-in sandbox. `worker` never gets here without both set (loadConfig requireProduction).
 */
import { Redis } from 'ioredis';
import { displayRedisUrl, type Config } from '../../src/settings/index.ts';
import { access, constants } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import { ConfigError, noRedisServer, redisUnreachable, type Logger } from '../../src/core/index.ts';
import { createWorkerContext, type AppContext } from './worker-context.ts';
import { redisOptionsFromUrl, startEmbeddedRedis, type EmbeddedRedis } from '../../src/redis/index.ts';
import { createTokenSource, type TokenSource } from '../../src/account/index.ts';
import type { Sandbox, SandboxOptions } from '../../src/sandbox/index.ts';
import type { OpsMetrics } from '../http/index.ts';

export interface Runtime {
  redisUrl: string;
  baseUrl: string;
  /** Current bearer token (file re-read when it changes). */
  getToken: () => string;
  /** Where the token comes from (SOURCING_TOKEN or SOURCING_TOKEN_FILE); none for the built-in sandbox. */
  tokens?: TokenSource;
  embeddedRedis?: EmbeddedRedis;
  sandbox?: Sandbox;
  /** Stop what this runtime started (the sandbox, then the private redis-server). */
  stop(): Promise<void>;
}

export interface RuntimeOptions {
  /** Allow the embedded defaults; false demands REDIS_URL and SOURCING_BASE_URL. */
  allowEmbedded: boolean;
  /** The command's name, for the message when something is missing. */
  command: string;
  /** Options of the built-in sandbox when one is started (autopilot for the demo). */
  sandbox?: SandboxOptions;
}

export async function resolveRuntime(config: Config, logger: Logger, o: RuntimeOptions): Promise<Runtime> {
  const missing: string[] = [];
  if (!o.allowEmbedded && !config.REDIS_URL)
    missing.push(`REDIS_URL: required for \`${o.command}\` (it reads the queues and records in your Redis)`);
  if (!o.allowEmbedded && !config.SOURCING_BASE_URL) {
    const trying = o.command === 'once' ? '`once --sandbox` or `demo` try' : '`demo` tries';
    missing.push(
      `SOURCING_BASE_URL: required for \`${o.command}\` (nothing was touched; ${trying} the built-in sandbox)`,
    );
  }
  if (missing.length) throw new ConfigError(missing);

  let embeddedRedis: EmbeddedRedis | undefined;
  let sandbox: Sandbox | undefined;
  const stop = async () => {
    await sandbox?.stop().catch(() => undefined);
    await embeddedRedis?.stop().catch(() => undefined);
  };
  try {
    let redisUrl = config.REDIS_URL;
    if (redisUrl) await assertRedisReachable(redisUrl);
    if (!redisUrl) {
      // Checked up front: a clear message at once instead of waiting for a server that cannot start.
      if (!(await onPath('redis-server'))) {
        throw noRedisServer(o.command !== 'demo');
      }
      embeddedRedis = await startEmbeddedRedis({ appendonly: true });
      redisUrl = embeddedRedis.url;
      logger.info(
        { redis: redisUrl },
        `REDIS_URL is not set: started a private redis-server on ${redisUrl} (local use only)`,
      );
    }
    let baseUrl = config.SOURCING_BASE_URL;
    let getToken: () => string;
    let tokens: TokenSource | undefined;
    if (baseUrl) {
      tokens = createTokenSource({ token: config.token, tokenFile: config.SOURCING_TOKEN_FILE });
      getToken = tokens.get;
    } else {
      // loaded only here: a worker against the real service never carries the sandbox's modules
      const { DEFAULT_SANDBOX_TOKEN, startSandbox } = await import('../../src/sandbox/index.ts');
      sandbox = await startSandbox({ ...o.sandbox });
      baseUrl = sandbox.url;
      getToken = () => DEFAULT_SANDBOX_TOKEN;
      logger.info(
        { sandbox: baseUrl },
        `SOURCING_BASE_URL is not set: started the built-in sandbox on ${baseUrl} (local use only)`,
      );
    }
    return { redisUrl, baseUrl, getToken, ...(tokens ? { tokens } : {}), embeddedRedis, sandbox, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** A clear one-line error instead of a driver stack trace when Redis cannot be reached at start. */
export async function assertRedisReachable(redisUrl: string): Promise<void> {
  const client = new Redis({
    ...redisOptionsFromUrl(redisUrl),
    lazyConnect: true,
    connectTimeout: 5_000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    enableOfflineQueue: false,
  });
  let lastError: Error | undefined;
  client.on('error', (err: Error) => {
    lastError = err;
  });
  try {
    await client.connect();
    await client.ping();
  } catch (err) {
    throw redisUnreachable(displayRedisUrl(redisUrl), (lastError ?? (err as Error)).message);
  } finally {
    client.disconnect();
  }
}

async function onPath(command: string): Promise<boolean> {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    try {
      await access(join(dir, command), constants.X_OK);
      return true;
    } catch {
      // not in this one
    }
  }
  return false;
}

/** The worker context, with sourcing clients that report every call to the metrics. */
export async function openContext(
  config: Config,
  logger: Logger,
  runtime: Runtime,
  opts: { metrics?: OpsMetrics; skipRedisChecks?: boolean } = {},
): Promise<AppContext> {
  const metrics = opts.metrics;
  return createWorkerContext(config, logger, {
    redisUrl: runtime.redisUrl,
    baseUrl: runtime.baseUrl,
    token: runtime.getToken,
    ...(runtime.tokens ? { tokens: runtime.tokens } : {}),
    onCall: metrics ? (c) => metrics.onApiCall(c) : undefined,
    skipRedisChecks: opts.skipRedisChecks,
  });
}
