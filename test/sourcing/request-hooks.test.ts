/** The transport's beforeRequest / onRetryAfter hooks: what the shared rate limit relies on to count every call. */
import { afterEach, describe, expect, it } from 'vitest';
import { createSourcingClient } from '../../src/sourcing/client/http-client.ts';
import { startFakeService, type FakeService } from './fake-service.ts';

let svc: FakeService | undefined;
afterEach(async () => {
  await svc?.stop();
  svc = undefined;
});

const page = (n: number, last: number) => ({
  rfqs: [],
  links: { next: n < last ? `/v1/rfqs?page=${n + 1}` : null, last: `/v1/rfqs?page=${last}` },
  meta: { total: 0 },
});

describe('request hooks', () => {
  it('beforeRequest runs before every HTTP attempt: each page and each retry; onRetryAfter hears every 429', async () => {
    let calls = 0;
    svc = await startFakeService((_req, url, res) => {
      calls++;
      const p = Number(url.searchParams.get('page') ?? '1');
      // page 2 fails once with 503, page 3 once with 429 Retry-After: 0
      if (p === 2 && calls === 2) return void res.writeHead(503).end();
      if (p === 3 && calls === 4) {
        res.writeHead(429, { 'retry-after': '0' }).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ...page(p, 3), rfqs: [] }));
    });
    const before: string[] = [];
    const held: number[] = [];
    const client = createSourcingClient({
      baseUrl: svc.url,
      getToken: () => 't',
      getRetries: 3,
      baseBackoffMs: 1,
      pageConcurrency: 1,
      beforeRequest: async (op) => {
        before.push(op);
      },
      onRetryAfter: (ms) => {
        held.push(ms);
      },
    });
    try {
      for await (const _ of client.listRfqPages('open')) {
        // read all pages
      }
    } finally {
      await client.close();
    }
    expect(svc.requests.length).toBe(5); // pages 1, 2 (503), 2, 3 (429), 3
    expect(before).toEqual(Array(5).fill('listRfqs')); // one hook call per request that reached the service
    expect(held).toEqual([0]);
  });

  it('a create takes its permit through the hook; a throwing hook stops the request before anything is sent', async () => {
    svc = await startFakeService((_req, _url, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ rfq: { _id: 7 } }));
    });
    let hooked = 0;
    let refuse = false;
    const client = createSourcingClient({
      baseUrl: svc.url,
      getToken: () => 't',
      beforeRequest: async () => {
        hooked++;
        if (refuse) throw new Error('no permit');
      },
    });
    const body = {
      title: 'T',
      due_date: '1893456000000',
      rfq_type: 'Public' as const,
      lines: [{ product_name: 'P', qty: 1, external_id: 'e1' }],
    };
    try {
      expect(await client.createRfq(body)).toEqual({ _id: 7 });
      expect(hooked).toBe(1);
      refuse = true;
      await expect(client.createRfq(body)).rejects.toThrow('no permit');
      expect(svc.requests.length).toBe(1);
    } finally {
      await client.close();
    }
  });
});
