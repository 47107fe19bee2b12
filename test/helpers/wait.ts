/** Waiting in tests: one `waitFor` (a light module: no Redis, no queue code), and a free port to listen on. */
import { createServer } from 'node:net';

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * Poll `fn` every `everyMs` until it returns something truthy (returned), or throw after `timeoutMs`, naming `what`
 * and, when given, `state()`.
 */
export async function waitFor<T>(
  what: string,
  fn: () => Promise<T | undefined | null | false> | T | undefined | null | false,
  timeoutMs = 15_000,
  everyMs = 50,
  state?: () => Promise<string>,
): Promise<T> {
  const t0 = Date.now();
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() - t0 > timeoutMs)
      throw new Error(
        `timed out after ${timeoutMs} ms waiting for ${what}${state ? `; state: ${await state().catch((e: Error) => e.message)}` : ''}`,
      );
    await sleep(everyMs);
  }
}

/** A loopback port nothing listens on now (for a worker's operations endpoint). */
export async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as { port: number }).port;
  await new Promise((r) => s.close(r));
  return port;
}
