/**
 * A create-rfq worker for bench/create.ts runs that use more than one worker process (as several `rfq-sync worker`
 * on one host). Its config comes from the environment the bench passes. IPC messages: it sends 'ready' once
 * connected, starts its worker on 'go', starts counting its CPU on 'mark' (answers 'marked'), and on 'stop' closes,
 * answers { cpu } (its process.cpuUsage() since 'mark') and exits.
 */
import { startWorker } from '../jobs/worker.ts';
import { loadConfig } from '../src/settings/config.ts';
import { silentLogger } from '../src/core/logger.ts';
import { closeWorkerContext, createWorkerContext } from '../app/runtime/worker-context.ts';

const config = loadConfig(process.env);
const ctx = await createWorkerContext(config, silentLogger, {
  redisUrl: process.env.REDIS_URL!,
  baseUrl: process.env.SOURCING_BASE_URL!,
});
let cpu0 = process.cpuUsage();
let worker: ReturnType<typeof startWorker> | undefined;
process.send!('ready');
process.on('message', (m: unknown) => {
  if (m === 'go') {
    worker = startWorker(ctx, { queues: ['createRfq'], drainDelaySeconds: 1 });
  } else if (m === 'mark') {
    // CPU is counted from here: loading, connecting and the warm-up are not per-RFQ work of the measured run.
    cpu0 = process.cpuUsage();
    process.send!('marked');
  } else if (m === 'stop') {
    const cpu = process.cpuUsage(cpu0);
    void (worker?.close(5_000) ?? Promise.resolve())
      .then(() => closeWorkerContext(ctx))
      .then(() => {
        process.send!({ cpu }, () => process.exit(0));
      });
  }
});
