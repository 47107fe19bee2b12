/**
 * The read-only operator commands that need only Redis: `status`. They never start a sandbox or a private Redis:
 * without REDIS_URL there is nothing to look at.
 */
import type { Config } from '../config.ts';
import type { Logger } from '../logger.ts';
import { closeWorkerContext, type WorkerContext } from '../pipeline/context.ts';
import { EXIT_OK } from './cli-support.ts';
import { openContext, resolveRuntime } from './runtime.ts';
import { collectStatus, formatStatus } from './status.ts';

/** Open a read-only context on the configured Redis, run `fn`, close everything. */
export async function withRedisContext<T>(config: Config, logger: Logger, command: string, fn: (ctx: WorkerContext) => Promise<T>): Promise<T> {
  const runtime = await resolveRuntime(config, logger, { allowEmbedded: false, redisOnly: true, command });
  try {
    const ctx = await openContext(config, logger, runtime, { skipRedisChecks: true });
    try {
      return await fn(ctx);
    } finally {
      await closeWorkerContext(ctx);
    }
  } finally {
    await runtime.stop();
  }
}

export async function runStatusCommand(config: Config, logger: Logger, o: { json?: boolean }): Promise<number> {
  const report = await withRedisContext(config, logger, 'status', (ctx) => collectStatus(ctx));
  process.stdout.write(o.json ? `${JSON.stringify(report, null, 2)}\n` : `${formatStatus(report)}\n`);
  return EXIT_OK;
}
