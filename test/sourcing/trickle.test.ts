/**
 * A service whose answers trickle (one byte a second): undici's body time-out restarts with every byte, so without
 * an overall deadline one call held a create (and its exactly-once lease) or a poll for as long as the service
 * liked. Every attempt now ends at SOURCING_CALL_DEADLINE_MS; a listing also ends when its caller's budget does.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { TransientHttpError } from '../../src/core/errors.ts';
import { createSourcingClient } from '../../src/sourcing/client/http-client.ts';
import { startFakeService, type FakeService } from './fake-service.ts';

let svc: FakeService | undefined;
const timers: NodeJS.Timeout[] = [];
afterEach(async () => {
  for (const t of timers) clearInterval(t);
  await svc?.stop();
  svc = undefined;
});

/** 200 with headers at once, then the JSON body one byte a second. */
async function trickling(body: string): Promise<FakeService> {
  return startFakeService((_req, _url, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    let i = 0;
    const t = setInterval(() => {
      if (res.destroyed || i >= body.length) return clearInterval(t);
      res.write(body[i++]!);
    }, 1_000);
    timers.push(t);
  });
}

describe('a service that trickles its answers', () => {
  it('a create ends at the call deadline, as a transient (ambiguous) failure, not when the service stops', async () => {
    svc = await trickling(JSON.stringify({ rfq: { _id: 1 } }));
    const client = createSourcingClient({
      baseUrl: svc.url,
      getToken: () => 't',
      bodyTimeoutMs: 30_000,
      callDeadlineMs: 1_500,
    });
    const started = Date.now();
    const err = await client
      .createRfq({
        title: 'T',
        due_date: '1893456000000',
        rfq_type: 'Public',
        lines: [{ product_name: 'P', qty: 1, external_id: 'E-1' }],
      })
      .catch((e: unknown) => e);
    const took = Date.now() - started;
    expect(err).toBeInstanceOf(TransientHttpError);
    expect((err as Error).message).toMatch(/no complete answer within 1500 ms \(SOURCING_CALL_DEADLINE_MS\)/);
    expect(took).toBeLessThan(5_000); // the body would have taken ~18 s
    await client.close();
  });

  it("a listing ends when its caller's budget does (the poll's POLL_MAX_MS)", async () => {
    svc = await trickling(JSON.stringify({ rfqs: [], links: { next: null, last: null }, meta: { total: 0 } }));
    const client = createSourcingClient({
      baseUrl: svc.url,
      getToken: () => 't',
      getRetries: 0,
      callDeadlineMs: 60_000,
    });
    const started = Date.now();
    const pages = client.listRfqPages({ state: 'open', form: 'lower' }, { signal: AbortSignal.timeout(1_000) });
    await expect(
      (async () => {
        for await (const _ of pages) return;
      })(),
    ).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(5_000);
    await client.close();
  });
});
