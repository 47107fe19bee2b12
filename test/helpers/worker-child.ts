/** The worker child: the shipped `rfq-sync worker` command, started with a given environment and no other. */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../../src/settings/config.ts';
import { sleep } from './wait.ts';

const BIN = join(PACKAGE_ROOT, 'bin', 'rfq-sync.ts');

export interface WorkerChild {
  child: ChildProcess;
  /** Everything it wrote to stdout (JSON log lines) and stderr. */
  output(): string;
  alive(): boolean;
  exited: Promise<void>;
  /** Send `signal` (default SIGKILL) and wait until it exited. */
  kill(signal?: NodeJS.Signals): Promise<void>;
}

export interface SpawnWorkerOptions {
  readyTimeoutMs?: number;
}

/** Levels at which the `worker.started` line (info) is written. */
const SHOWS_INFO = new Set(['info', 'debug', 'trace']);

/**
 * `node bin/rfq-sync.ts worker` with this environment only (plus PATH and HOME), resolved once it logged
 * `worker.started` (everything runs: workers, inbox watcher, schedules). The log level is at least `info` so that
 * line shows; logs are JSON lines on stdout.
 */
export async function spawnWorker(env: Record<string, string>, opts: SpawnWorkerOptions = {}): Promise<WorkerChild> {
  const level = SHOWS_INFO.has(env.LOG_LEVEL ?? 'info') ? (env.LOG_LEVEL ?? 'info') : 'info';
  const child = spawn(process.execPath, [BIN, 'worker'], {
    cwd: PACKAGE_ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env, LOG_LEVEL: level },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const chunks: string[] = [];
  child.stdout!.setEncoding('utf8').on('data', (s: string) => chunks.push(s));
  child.stderr!.setEncoding('utf8').on('data', (s: string) => chunks.push(s));
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const alive = () => child.exitCode === null && child.signalCode === null;
  const deadline = Date.now() + (opts.readyTimeoutMs ?? 30_000);
  while (!chunks.join('').includes('"event":"worker.started"')) {
    if (!alive())
      throw new Error(
        `worker process exited at start (${child.exitCode ?? child.signalCode}):\n${chunks.join('').slice(-3000)}`,
      );
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`worker process not ready in time:\n${chunks.join('').slice(-3000)}`);
    }
    await sleep(50);
  }
  return {
    child,
    output: () => chunks.join(''),
    alive,
    exited,
    async kill(signal = 'SIGKILL') {
      if (alive()) {
        child.kill(signal);
        await exited;
      }
    },
  };
}
