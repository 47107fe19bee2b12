/**
 * The sandbox for bench/create.ts, in its own process so its CPU is not counted as ours. Speaks over IPC:
 * start message -> { url }, 'stats' -> { rfqsCreated, maxPerSecond, calls }, 'reset' -> resets the counters.
 */
import { startSandbox } from '../src/sandbox/server.ts';

const latencyMs = Number(process.env.BENCH_LATENCY_MS ?? 20);
const sandbox = await startSandbox({ seed: 1, pageSize: 100, faults: { latencyMs } });
process.send!({ url: sandbox.url });
process.on('message', (m: unknown) => {
  if (m === 'stats') {
    const s = sandbox.stats();
    process.send!({
      rfqsCreated: s.rfqsCreated,
      maxPerSecond: s.maxPerSecond,
      requestTimes: s.requestTimes,
      calls: s.calls,
      cpu: process.cpuUsage(),
    });
  } else if (m === 'reset') {
    sandbox.resetStats();
    process.send!({ reset: true });
  } else if (m === 'stop') {
    void sandbox.stop().then(() => process.exit(0));
  }
});
