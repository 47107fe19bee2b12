/** The worker's services: what every job processor and command shares, built once per process by app/runtime. */
export type { WorkerServices } from './context.ts';
