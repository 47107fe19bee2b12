/**
 * How a process runs the loop: where Redis and the service are, the worker context's assembly, the pipeline of
 * workers and watchers, notifications' watch, and graceful shutdown.
 */
export { openContext, resolveRuntime, type Runtime } from './endpoints.ts';
export { awaitOnceNotifications } from './once-notify.ts';
export { type RunningPipeline, startPipeline, unfinishedIn, unfinishedJobs, waitForDrain } from './pipeline-runner.ts';
export { installShutdown, type ShutdownHandle, type ShutdownStep } from './shutdown.ts';
export { closeWorkerContext } from './worker-context.ts';
