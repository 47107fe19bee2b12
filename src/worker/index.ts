/** The worker context: what every job processor and command receives, built once per process by app/runtime. */
export type { WorkerContext } from './context.ts';
