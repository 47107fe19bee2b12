/**
 * One thin processor per queue, calling the building blocks of src/; worker.ts starts the BullMQ workers that run
 * them.
 */
export { reconcilerOf } from './create-rfq.ts';
export {
  type JobResults,
  type RunningWorker,
  startWorker,
  type StartWorkerOptions,
  type WorkerConfig,
  type WorkerConnection,
  type WorkerContext,
} from './worker.ts';
