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
  const monitor = await new Redis(url, { lazyConnect: true }).monitor();
  // ioredis sets the connection's monitoring state a tick after MONITOR's OK: a line of another client's command
  // that arrives in between is reported as "Command queue state error" (seen 1 run in ~12). That line is dropped,
  // which only delays a count; the error must not fail the test.
  monitor.on('error', (err: Error) => {
    if (!err.message.startsWith('Command queue state error')) throw err;
  });
  let n = 0;
  monitor.on('monitor', (_time: string, args: string[]) => {
    if (match([args[0]?.toLowerCase() ?? '', ...args.slice(1)])) n++;
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
