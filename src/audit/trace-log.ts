/**
 * A trace from the log, whole: the index opened (made or caught up from the files first: audit-index.ts), the query
 * answered (trace-query.ts), then Redis's state and what is pending added (timeline.ts). Synchronous where it reads
 * the index: the `trace` command runs it in its own process, the lookup page in its own thread
 * (trace-thread.ts, started by app/http/trace-threads.ts), never on the worker's event loop.
 */
import { hostname } from 'node:os';
import type { AuditIndex } from './audit-index.ts';
import { openAuditIndex } from './audit-index.ts';
import { auditDir, safeHost } from './log-names.ts';
import { queryTrace, type TraceAnswer, type TraceQuery, type TraceStream } from './trace-query.ts';
import { type Current, pendingOf, type Timeline } from './timeline.ts';

/** The module a lookup thread runs (trace-thread.ts), for app/http/trace-threads.ts to start. */
export const TRACE_THREAD = new URL('./trace-thread.ts', import.meta.url);

/** The index of the log under `root`, caught up from the files (how long that took, for the curious). */
export function openTraceIndex(root: string, host = safeHost(hostname())): AuditIndex {
  const idx = openAuditIndex(auditDir(root), host, { busyMs: 10_000 })!;
  idx.catchUp();
  return idx;
}

/** The log's answer to `q` (opens and closes the index). */
export function traceLog(root: string, q: TraceQuery, stream?: TraceStream): TraceAnswer {
  const idx = openTraceIndex(root);
  try {
    return queryTrace(idx, q, stream);
  } finally {
    idx.close();
  }
}

/** The Timeline of a log answer: where the log is, where the answer comes from, and what is pending. */
export function toTimeline(
  a: TraceAnswer,
  o: { source: Timeline['source']; folder: string; setting?: string; current?: Current },
): Timeline {
  const { digest, log, ...rest } = a;
  return {
    ...rest,
    source: o.source,
    log: { folder: o.folder, ...(o.setting ? { setting: o.setting } : {}), ...log },
    pending: a.answer === 'timeline' && digest ? pendingOf(digest, a.requisitions, o.current) : [],
    ...(a.answer === 'timeline' && !digest
      ? { pendingUnknown: `${a.page?.total ?? 'too many'} lines: ask for one requisition to see what is pending` }
      : {}),
  };
}

/**
 * The timeline of `what` from the log under `root`, with Redis's state from `current` (given the requisitions and
 * RFQs found) when the caller has it.
 */
export async function buildTimeline(
  root: string,
  what: string | TraceQuery,
  source: Timeline['source'],
  current?: (found: { requisitions: string[]; rfqIds: number[] }) => Promise<Current>,
): Promise<Timeline> {
  const a = traceLog(root, typeof what === 'string' ? { what } : what);
  const now = current && a.answer === 'timeline' ? await current(a) : undefined;
  return toTimeline(a, { source, folder: auditDir(root), ...(now ? { current: now } : {}) });
}
