/**
 * One lookup thread of the lookup page (trace-threads.ts): holds the audit index open, and for each query catches it
 * up from the files and answers it (src/audit/trace-query.ts). A failure answers with its message and starts the
 * index over on the next query.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { openTraceIndex, queryTrace, type TraceQuery } from '../../src/audit/index.ts';

type Index = ReturnType<typeof openTraceIndex>;
const { root } = workerData as { root: string };
let idx: Index | undefined;

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
