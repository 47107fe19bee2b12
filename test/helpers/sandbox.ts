/** The sandbox sourcing service over real HTTP on loopback, one per test file (like useRedis). */
import { afterAll, beforeAll } from 'vitest';
import { DEFAULT_SANDBOX_TOKEN, startSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox/server.ts';

export function useSandbox(opts: SandboxOptions = {}): {
  readonly sandbox: Sandbox;
  readonly url: string;
  readonly token: string;
} {
  let sandbox: Sandbox | undefined;
  beforeAll(async () => {
    sandbox = await startSandbox({ seed: 42, ...opts });
  });
  afterAll(async () => {
    await sandbox?.stop();
  });
  const started = (): Sandbox => {
    if (!sandbox) throw new Error('sandbox not started yet (use inside a test)');
    return sandbox;
  };
  return {
    get sandbox() {
      return started();
    },
    get url() {
      return started().url;
    },
    /** The first account's token. */
    token: Object.keys(opts.accounts ?? {})[0] ?? DEFAULT_SANDBOX_TOKEN,
  };
}
