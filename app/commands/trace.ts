/**
 * `rfq-sync trace <what>`: "where is my requisition?" - the timeline of an external_id, a requisition
 * (`profile/key`), an RFQ number or `_id`, or a file name or sha256, from the audit log (src/audit/) and Redis's
 * current state, oldest first, with what is still pending and why. With Redis down (or REDIS_URL unset) it answers
 * from the audit log alone and says so. Reads only.
 */
import type { Config } from '../../src/settings/index.ts';
import type { Logger } from '../../src/core/index.ts';
import type { Redis } from 'ioredis';
import { buildTimeline, formatTimeline, type Timeline } from '../../src/audit/index.ts';
import type { RedisKeys } from '../../src/redis/index.ts';
import { traceState } from '../../src/tracking/index.ts';
import { EXIT_FAILED, EXIT_OK } from '../cli-support.ts';
import { withReadContext } from './context.ts';
import type { TraceLookup } from '../http/index.ts';

/** How long the lookup page waits for Redis's state before it answers from the log alone. */
const STATE_WAIT_MS = 3_000;

/** The lookup page's answers (app/http/trace-page.ts), on a running worker's Redis connection. */
export function traceLookupFor(
  config: Pick<Config, 'folders' | 'NOTIFY_OUTBOX_SHOWN_AS'>,
  ctx: { redis: Redis; keys: RedisKeys },
): TraceLookup {
  const root = config.folders.root;
  return {
    outbox: config.folders.outbox,
    shownAs: config.NOTIFY_OUTBOX_SHOWN_AS,
    async timeline(what) {
      try {
        return await buildTimeline(root, what, { redis: 'up' }, (found) => {
          let timer: NodeJS.Timeout | undefined;
          const late = new Promise<never>((_, reject) => {
            timer = setTimeout(() => reject(new Error(`no answer in ${STATE_WAIT_MS} ms`)), STATE_WAIT_MS);
          });
          return Promise.race([traceState(ctx, found), late]).finally(() => clearTimeout(timer));
        });
      } catch (err) {
        return buildTimeline(root, what, { redis: 'down', reason: (err as Error).message.slice(0, 300) });
      }
    },
  };
}

/** The timeline of `what`: with Redis's state when Redis answers, else from the log alone (and why). */
export async function traceTimeline(config: Config, logger: Logger, what: string): Promise<Timeline> {
  const root = config.folders.root;
  if (!config.REDIS_URL) return buildTimeline(root, what, { redis: 'down', reason: 'REDIS_URL is not set' });
  let reached = false;
  try {
    return await withReadContext(config, logger, 'trace', async (ctx) => {
      reached = true;
      return buildTimeline(root, what, { redis: 'up' }, (found) => traceState(ctx, found));
    });
  } catch (err) {
    // only an unreachable Redis is answered from the log alone: a wrong password or account is said as it is
    if (reached || (err as { code?: string }).code !== 'E_REDIS_DOWN') throw err;
    const reason = (err as Error).message.split('\n')[0]!.slice(0, 300);
    return buildTimeline(root, what, { redis: 'down', reason });
  }
}

export async function runTraceCommand(
  config: Config,
  logger: Logger,
  what: string,
  o: { json?: boolean },
  out: (text: string) => void = (t) => process.stdout.write(`${t}\n`),
): Promise<number> {
  const t = await traceTimeline(config, logger, what);
  out(o.json ? JSON.stringify(t, null, 2) : formatTimeline(t));
  return t.steps.length > 0 ? EXIT_OK : EXIT_FAILED;
}
