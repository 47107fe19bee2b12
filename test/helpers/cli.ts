/** Spawning the CLI as a user would (`node bin/rfq-sync.ts ...`), with a clean environment. */
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach } from 'vitest';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox/server.ts';
import { freshPrefix } from './redis.ts';
import { waitFor } from './wait.ts';
import { tempDir } from './temp-dir.ts';

export const BIN = resolve(import.meta.dirname, '../../bin/rfq-sync.ts');

export interface Spawned {
  child: ChildProcess;
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Resolves when the output contains `text` (rejects after timeoutMs). */
  waitFor(text: string | RegExp, timeoutMs?: number): Promise<void>;
}

export function spawnCli(args: string[], env: Record<string, string>): Spawned {
  const child = spawn(process.execPath, [BIN, ...args], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const listeners = new Set<() => void>();
  const onData = (b: Buffer) => {
    out += b.toString();
    for (const l of listeners) l();
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) =>
    child.once('exit', (code, signal) => r({ code, signal })),
  );
  return {
    child,
    output: () => out,
    exited,
    waitFor(text, timeoutMs = 20_000) {
      const has = () => (typeof text === 'string' ? out.includes(text) : text.test(out));
      if (has()) return Promise.resolve();
      return new Promise((resolveWait, reject) => {
        const timer = setTimeout(() => {
          listeners.delete(check);
          reject(new Error(`timed out waiting for ${String(text)}; output so far:\n${out.slice(-3000)}`));
        }, timeoutMs);
        const check = () => {
          if (has()) {
            clearTimeout(timer);
            listeners.delete(check);
            resolveWait();
          }
        };
        listeners.add(check);
        void exited.then(() => {
          if (!has()) {
            clearTimeout(timer);
            listeners.delete(check);
            reject(new Error(`process exited before ${String(text)}; output:\n${out.slice(-3000)}`));
          }
        });
      });
    },
  };
}

/** The kit's waitFor (test/helpers/wait.ts), in the argument order of the CLI tests. */
export async function until(cond: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  await waitFor(what, cond, timeoutMs, 100);
}

/**
 * One sandbox (in this process) and one data folder with its inbox per test of `once` against a given service;
 * both stopped and removed after the test. `env` is what such a run needs: the service, Redis, short waits.
 */
export function useOnceRun(redisUrl: () => string): {
  start(opts: SandboxOptions, inbox?: Record<string, string>): Promise<{ sandbox: Sandbox; dir: string }>;
  env(extra?: Record<string, string>): Record<string, string>;
} {
  let sandbox: Sandbox | undefined;
  let dir: string | undefined;
  let prefix = '';
  afterEach(async () => {
    await sandbox?.stop();
    sandbox = dir = undefined;
  });
  return {
    async start(opts, inbox = {}) {
      sandbox = await startSandbox(opts);
      dir = tempDir('rfq-once-'); // removed after the test
      mkdirSync(join(dir, 'inbox'));
      for (const [name, from] of Object.entries(inbox)) copyFileSync(from, join(dir, 'inbox', name));
      prefix = freshPrefix();
      return { sandbox, dir };
    },
    env(extra = {}) {
      if (!sandbox || !dir) throw new Error('start() first');
      return {
        RFQ_SYNC_DIR: dir,
        REDIS_URL: redisUrl(),
        REDIS_PREFIX: prefix,
        SOURCING_BASE_URL: sandbox.url,
        SOURCING_TOKEN: 'sandbox-token',
        HTTP_PORT: '0',
        FILE_STABLE_MS: '100',
        SOURCING_CONNECT_TIMEOUT_MS: '1000',
        // a lost answer is proven absent only once the lists settled after its POST's deadline: short ones here
        SOURCING_CALL_DEADLINE_MS: '5000',
        SOURCING_LIST_SETTLE_MS: '200',
        JOB_BACKOFF_MS: '200',
        RATE_LIMIT_PER_SECOND: '200',
        ...extra,
      };
    },
  };
}
