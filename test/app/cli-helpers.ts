/** Spawning the CLI as a user would (`node bin/rfq-sync.ts ...`), with a clean environment. */
import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { waitFor } from '../helpers/wait.ts';

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

/** The harness's waitFor (test/helpers/pipeline.ts), in the argument order of the CLI tests. */
export async function until(cond: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  await waitFor(what, cond, timeoutMs, 100);
}
