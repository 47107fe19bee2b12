/**
 * Graceful shutdown on SIGTERM/SIGINT. The first signal runs the steps in order (stop taking files, stop taking
 * jobs and finish or hand back the ones in flight within SHUTDOWN_TIMEOUT_MS, close Redis, close the endpoint);
 * a second signal exits at once. If the steps overrun the time limit by a margin, the process exits anyway, so a
 * stuck close never keeps a container from stopping.
 */
import type { Logger } from '../../src/core/index.ts';

export interface ShutdownStep {
  name: string;
  run: () => Promise<unknown>;
}

export interface ShutdownOptions {
  logger: Logger;
  /** Time granted to in-flight jobs; the whole shutdown is cut off after this plus `marginMs`. */
  timeoutMs: number;
  marginMs?: number;
  /** Read when the first signal arrives, so steps added after start-up are included. */
  steps: () => readonly ShutdownStep[];
  signals?: readonly NodeJS.Signals[];
  exit?: (code: number) => void;
  /** Told of the first signal before the steps run (`once` notes it was interrupted). */
  onSignal?: (signal: NodeJS.Signals) => void;
}

export interface ShutdownHandle {
  /** Resolves when a shutdown finished (signal or `trigger`). */
  readonly done: Promise<number>;
  /** Start the shutdown as a signal would (e.g. when `once` has finished). */
  trigger(reason: string, exitCode?: number): Promise<number>;
  /** True once a shutdown has begun (start-up code checks it before starting more). */
  readonly stopping: boolean;
  /** Remove the signal handlers (tests). */
  dispose(): void;
}

export function installShutdown(o: ShutdownOptions): ShutdownHandle {
  const signals = o.signals ?? ['SIGTERM', 'SIGINT'];
  const exit = o.exit ?? ((code: number) => process.exit(code));
  let running: Promise<number> | undefined;
  let resolveDone!: (code: number) => void;
  const done = new Promise<number>((r) => {
    resolveDone = r;
  });

  const run = (reason: string, exitCode: number): Promise<number> => {
    if (running) return running;
    const bySignal = (signals as readonly string[]).includes(reason);
    o.logger.info(
      { reason, timeoutMs: o.timeoutMs },
      bySignal
        ? `shutting down (${reason}): finishing in-flight work, at most ${o.timeoutMs} ms; send the signal again to exit at once`
        : `shutting down (${reason})`,
    );
    const cutoff = setTimeout(
      () => {
        o.logger.error({ reason }, 'shutdown did not finish in time: exiting now');
        exit(1);
      },
      o.timeoutMs + (o.marginMs ?? 5_000),
    );
    cutoff.unref();
    running = (async () => {
      let code = exitCode;
      for (const step of o.steps()) {
        const t0 = Date.now();
        try {
          await step.run();
          o.logger.debug({ step: step.name, ms: Date.now() - t0 }, `shutdown: ${step.name} done`);
        } catch (err) {
          code = code || 1;
          o.logger.error({ step: step.name, err }, `shutdown: ${step.name} failed`);
        }
      }
      clearTimeout(cutoff);
      o.logger.info({ reason }, 'shut down cleanly');
      resolveDone(code);
      return code;
    })();
    return running;
  };

  const onSignal = (signal: NodeJS.Signals) => {
    if (running) {
      o.logger.warn({ signal }, `second ${signal}: exiting at once`);
      exit(signal === 'SIGINT' ? 130 : 143);
      return;
    }
    o.onSignal?.(signal);
    void run(signal, 0);
  };
  for (const s of signals) process.on(s, onSignal);

  return {
    done,
    trigger: (reason, exitCode = 0) => run(reason, exitCode),
    get stopping() {
      return running !== undefined;
    },
    dispose() {
      for (const s of signals) process.off(s, onSignal);
    },
  };
}
