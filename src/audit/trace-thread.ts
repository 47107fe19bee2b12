/**
 * One lookup thread of the lookup page (app/http/trace-threads.ts starts it from TRACE_THREAD): holds the audit
 * index open, and for each query catches it up from the files and answers it (trace-query.ts). It loads only the
 * index and the query (node:sqlite and this folder's readers), so a thread costs little memory, and runs below the
 * worker's priority. A failure answers with its message and starts the index over on the next query.
 */
import { constants, setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import type { AuditIndex } from './audit-index.ts';
import { openTraceIndex } from './trace-log.ts';
import { queryTrace, type TraceQuery } from './trace-query.ts';

const { root } = workerData as { root: string };
// below the worker's event loop when CPU is short (Linux: a thread's nice value is its own; elsewhere it would be the
// whole process's, so left alone)
if (process.platform === 'linux') setPriority(constants.priority.PRIORITY_BELOW_NORMAL);
let idx: AuditIndex | undefined;

parentPort!.on('message', ({ q }: { q: TraceQuery }) => {
  try {
    if (idx) idx.catchUp();
    else idx = openTraceIndex(root);
    parentPort!.postMessage({ answer: queryTrace(idx, q) });
  } catch (err) {
    idx?.close();
    idx = undefined;
    parentPort!.postMessage({ error: (err as Error).message.split('\n')[0] });
  }
});
