/**
 * The lookup page's lookups run off the worker's event loop: in worker threads (src/audit/trace-thread.ts) that hold the
 * audit index open, catch it up and answer (node:sqlite is synchronous: on the event loop that runs the jobs, one
 * lookup of a large log would delay /healthz, the poll schedule and every job). At most `concurrency` lookups run at
 * once, each in its own thread; `queue` more may wait; beyond that a lookup is refused at once. Each has a
 * `deadlineMs` from its arrival: one still waiting is dropped, one still running has its thread ended (a query
 * cannot be interrupted otherwise; the next lookup starts a new thread). A thread's heap is capped, so one query
 * cannot grow the worker's memory without bound.
 */
import { Worker } from 'node:worker_threads';
import { TRACE_THREAD, type TraceAnswer, type TraceQuery } from '../../src/audit/index.ts';
import { LookupRefusedError } from '../../src/core/index.ts';

export interface TraceThreadsOptions {
  /** The data folder (RFQ_SYNC_DIR). */
  root: string;
  concurrency: number;
  queue: number;
  deadlineMs: number;
  /** Heap of each thread, MB. */
  heapMb?: number;
}

export interface TraceThreads {
  ask(q: TraceQuery): Promise<TraceAnswer>;
  /** Lookups running and waiting now. */
  load(): { running: number; waiting: number };
  close(): Promise<void>;
}

interface Ask {
  q: TraceQuery;
  resolve(a: TraceAnswer): void;
  reject(err: Error): void;
  timer: NodeJS.Timeout;
  thread?: Thread;
}
interface Thread {
  worker: Worker;
  busy?: Ask;
}

export function traceThreads(o: TraceThreadsOptions): TraceThreads {
  const threads: Thread[] = [];
  const waiting: Ask[] = [];
  let closed = false;

  const spawn = (): Thread => {
    const worker = new Worker(TRACE_THREAD, {
      workerData: { root: o.root },
      resourceLimits: { maxOldGenerationSizeMb: o.heapMb ?? 64, maxYoungGenerationSizeMb: 8 },
    });
    worker.unref();
    const t: Thread = { worker };
    worker.on('message', (m: { answer?: TraceAnswer; error?: string }) => {
      const a = t.busy;
      t.busy = undefined;
      if (a) {
        clearTimeout(a.timer);
        if (m.error !== undefined) a.reject(new LookupRefusedError(m.error, 'failed'));
        else a.resolve(m.answer!);
      }
      next();
    });
    const gone = (err?: Error) => {
      const i = threads.indexOf(t);
      if (i >= 0) threads.splice(i, 1);
      const a = t.busy;
      t.busy = undefined;
      if (a) {
        clearTimeout(a.timer);
        a.reject(new LookupRefusedError(`the lookup failed: ${err?.message ?? 'its thread ended'}`, 'failed'));
      }
      next();
    };
    worker.on('error', gone);
    worker.on('exit', () => gone());
    threads.push(t);
    return t;
  };

  const next = (): void => {
    while (!closed && waiting.length) {
      const t = threads.find((x) => !x.busy) ?? (threads.length < o.concurrency ? spawn() : undefined);
      if (!t) return;
      const a = waiting.shift()!;
      a.thread = t;
      t.busy = a;
      t.worker.postMessage({ q: a.q });
    }
  };

  return {
    ask(q) {
      return new Promise<TraceAnswer>((resolve, reject) => {
        const running = threads.filter((t) => t.busy).length;
        if (closed || (running >= o.concurrency && waiting.length >= o.queue)) {
          reject(
            new LookupRefusedError(`${running + waiting.length} lookups are under way; try again shortly`, 'busy'),
          );
          return;
        }
        const a: Ask = {
          q,
          resolve,
          reject,
          timer: setTimeout(() => {
            const i = waiting.indexOf(a);
            if (i >= 0) waiting.splice(i, 1);
            else if (a.thread?.busy === a) {
              a.thread.busy = undefined;
              void a.thread.worker.terminate(); // its query cannot be stopped otherwise; `exit` drops the thread
            }
            reject(new LookupRefusedError(`no answer within ${o.deadlineMs / 1000} s`, 'deadline'));
          }, o.deadlineMs),
        };
        a.timer.unref();
        waiting.push(a);
        next();
      });
    },
    load: () => ({ running: threads.filter((t) => t.busy).length, waiting: waiting.length }),
    async close() {
      closed = true;
      for (const a of waiting.splice(0)) {
        clearTimeout(a.timer);
        a.reject(new LookupRefusedError('the worker is stopping', 'busy'));
      }
      await Promise.allSettled(threads.map((t) => t.worker.terminate()));
    },
  };
}
