/**
 * Progress markers read off Redis: a worker's periodic sweeps (the state check, the inbox sweep's look at a held
 * file...) each send a known command, and MONITOR sees it whatever process sends it. A test waits until a sweep has
 * run again, instead of sleeping a guessed time before asserting that something did not happen.
 */
import { Redis } from 'ioredis';
import type { Sandbox } from '../../src/sandbox/server.ts';

export interface CommandWatch {
  /** How many commands matched so far. */
  count(): number;
  stop(): void;
}

/** Count the commands sent to the Redis at `url` (by any client) for which `match(args)` holds; args[0]: its name. */
export async function watchCommands(url: string, match: (args: string[]) => boolean): Promise<CommandWatch> {
  // The monitoring connection is made here, not with redis.monitor(): ioredis marks it monitoring a tick after
  // MONITOR's OK, and a line of another client's command arriving in between is emitted as "Command queue state
  // error" (seen 1 run in ~12). monitor() rejects on it and leaves its connection behind; here the line is only
  // dropped (a count waits longer), and the connection is ours to close. Errors never throw out of the listener: a
  // Redis stopped under a watch must not end the test process; a count that stalls fails its waitFor by name.
  const monitor = new Redis(url, { monitor: true, lazyConnect: false, maxRetriesPerRequest: null });
  let lastError: Error | undefined;
  monitor.on('error', (err: Error) => {
    lastError = err;
  });
  let n = 0;
  monitor.on('monitor', (_time: string, args: string[]) => {
    if (match([args[0]?.toLowerCase() ?? '', ...args.slice(1)])) n++;
  });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`MONITOR on ${url} did not start: ${lastError?.message}`)), 10_000);
    monitor.once('monitoring', () => {
      clearTimeout(timer);
      resolve();
    });
  });
  return { count: () => n, stop: () => monitor.disconnect() };
}

/**
 * The claims of the file ledger (HSETNX of an entry) made for the inbox file `name`: a copy of a file still being
 * read claims again every 200 ms while it waits for the first (src/intake/inbox-intake.ts).
 */
export function ledgerClaims(url: string, name: string): Promise<CommandWatch> {
  return watchCommands(
    url,
    ([cmd, , , value]) => cmd === 'hsetnx' && !!value?.includes(`"name":${JSON.stringify(name)}`),
  );
}

/** Calls that reached the sandbox and are not answered yet (it counts each call when it arrives and when answered). */
export function callsInFlight(sandbox: Pick<Sandbox, 'stats'>): number {
  const st = sandbox.stats();
  const answered = Object.values(st.calls).reduce((n, by) => n + Object.values(by).reduce((a, b) => a + b, 0), 0);
  return st.requestTimes.length - answered;
}
