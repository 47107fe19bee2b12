/**
 * `rfq-sync trace <what>`: "where is my requisition?" - the timeline of an external_id, a requisition
 * (`profile/key`), an RFQ number or `_id`, or a file name or sha256, from the audit log's index (src/audit/: the
 * index caught up from the files, then only the lines it names read) and Redis's current state, oldest first, with
 * what is still pending and why. It names the folder it read, where that setting came from, and the days the log
 * covers. A file name that recurs (a daily export) answers with its files, newest first, and their counts; `--all`
 * prints every step (streamed, `--json` too), `--since` the recent ones. With Redis down (or REDIS_URL unset) it
 * answers from the log alone and says so; when the log names nothing but Redis knows the key, it says that and
 * answers from Redis. Every text is printed terminal-safe (src/audit/timeline-text.ts). Reads only.
 */
import { type Config, settingOrigin } from '../../src/settings/index.ts';
import { ConfigError, type Logger } from '../../src/core/index.ts';
import {
  auditDir,
  formatHead,
  formatStep,
  formatTail,
  toTimeline,
  traceLog,
  type Current,
  type Timeline,
  type TraceAnswer,
  type TraceQuery,
} from '../../src/audit/index.ts';
import { EXIT_FAILED, EXIT_OK } from '../cli-support.ts';
import type { RedisContext } from './redis-context.ts';

export interface TraceOptions {
  json?: boolean;
  /** Every step, no summary, no page. */
  all?: boolean;
  /** Only lines from then on: YYYY-MM-DD (UTC) or an ISO 8601 time. */
  since?: string;
}

/** `--since`: a day (UTC midnight) or an ISO 8601 time, as the ISO text the log's `at` compares with. */
export function sinceOf(text: string): string {
  const t = /^\d{4}-\d{2}-\d{2}$/.test(text) ? Date.parse(`${text}T00:00:00Z`) : Date.parse(text);
  if (Number.isNaN(t)) throw new ConfigError([`--since: "${text}" is not a day (YYYY-MM-DD) or an ISO 8601 time`]);
  return new Date(t).toISOString();
}

type Printer = (text: string) => void;

/** Lines on stdout; a reader that went away (`trace --all | head`) ends the command quietly. */
function stdoutLines(): Printer {
  process.stdout.once('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(0);
    throw err;
  });
  return (t) => process.stdout.write(`${t}\n`);
}

/** Prints the answer as it comes: the head, each step (streamed with --all), then the tail. */
function printer(o: TraceOptions, out: Printer) {
  let held: string | undefined; // JSON: each step is printed once the next one (or the end) says how it ends
  return {
    head(t: Timeline) {
      if (!o.json) return out(formatHead(t).join('\n'));
      const { steps: _steps, pending: _pending, ...rest } = t;
      out(`${JSON.stringify(rest, null, 2).replace(/\n}$/, '')},\n  "steps": [`);
    },
    step(s: Timeline['steps'][number]) {
      if (!o.json) return out(formatStep(s).join('\n'));
      if (held !== undefined) out(`${held},`);
      held = `    ${JSON.stringify(s)}`;
    },
    tail(t: Timeline) {
      if (!o.json) return out(formatTail(t).join('\n'));
      if (held !== undefined) out(held);
      out(`  ],\n  "pending": ${JSON.stringify(t.pending)}\n}`);
    },
  };
}

export async function runTraceCommand(
  config: Config,
  logger: Logger,
  what: string,
  o: TraceOptions,
  out: Printer = stdoutLines(),
): Promise<number> {
  const root = config.folders.root;
  const q: TraceQuery = {
    what,
    ...(config.accountGiven ? { preferAccount: config.account } : {}),
    ...(o.since ? { since: sinceOf(o.since) } : {}),
    ...(o.all ? { all: true } : {}),
  };
  const where = { folder: auditDir(root), setting: settingOrigin(config, 'RFQ_SYNC_DIR') };
  const p = printer(o, out);

  const answer = async (source: Timeline['source'], ctx?: RedisContext): Promise<Timeline> => {
    let shown: Timeline | undefined;
    // --all streams: the head before the first step is read, each step as it is read
    const a: TraceAnswer = traceLog(
      root,
      q,
      o.all
        ? {
            head: (h) => {
              // what is pending comes at the end, from every line
              const { pendingUnknown: _later, ...head } = toTimeline({ ...h, steps: [] }, { source, ...where });
              p.head((shown = head));
            },
            step: (s) => p.step(s),
          }
        : undefined,
    );
    let current: Current | undefined;
    if (ctx && a.answer === 'timeline') {
      const { traceState } = await import('../../src/tracking/index.ts');
      current = await traceState(ctx, a);
    }
    const t = toTimeline(a, { source, ...where, ...(current ? { current } : {}) });
    if (ctx && t.answer === 'nothing') {
      const { traceInRedis } = await import('../../src/tracking/index.ts');
      const known = await traceInRedis(ctx, what);
      if (known.length) t.redis = known;
    }
    if (!shown) {
      p.head(t);
      for (const s of t.steps) p.step(s);
    }
    p.tail(t);
    return t;
  };

  let t: Timeline;
  if (!config.REDIS_URL) t = await answer({ redis: 'down', reason: 'REDIS_URL is not set' });
  else {
    let reached = false;
    try {
      const { withRedis } = await import('./redis-context.ts');
      t = await withRedis(config, logger, 'trace', async (ctx) => {
        reached = true;
        return answer({ redis: 'up' }, ctx);
      });
    } catch (err) {
      // only an unreachable Redis is answered from the log alone: a wrong password or account is said as it is
      if (reached || (err as { code?: string }).code !== 'E_REDIS_DOWN') throw err;
      const reason = (err as Error).message.split('\n')[0]!.slice(0, 300);
      t = await answer({ redis: 'down', reason });
    }
  }
  return t.answer !== 'nothing' || t.redis?.length ? EXIT_OK : EXIT_FAILED;
}
