/**
 * Pagination as docs/architecture.md#where-the-interface-is-silent reads it: page numbers taken from
 * links.next/links.last, requested on the configured base URL (never on the origin a link names), with every way a list
 * can end.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.ts';
import {
  createSourcingClient,
  type SourcingClient,
  type SourcingClientOptions,
} from '../../src/sourcing/client/http-client.ts';
import type { CreateRfqRequest } from '../../src/sourcing/types.ts';
import { captureLogs, json, startFakeService, type FakeService } from './fake-service.ts';

const TOKEN = 'tok-pages-5150';
const clients: SourcingClient[] = [];
function client(baseUrl: string, o: Partial<SourcingClientOptions> = {}): SourcingClient {
  const c = createSourcingClient({ baseUrl, getToken: () => TOKEN, baseBackoffMs: 5, ...o });
  clients.push(c);
  return c;
}
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

async function all<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

const body = (n: number): CreateRfqRequest => ({
  title: `PR-${n}`,
  due_date: '1893456000000',
  rfq_type: 'Public',
  lines: [{ product_name: 'Item', qty: 1, estimated_price: 5, external_id: `p-${n}` }],
});

describe('many pages from the sandbox', () => {
  let foreign: FakeService;
  let sandbox: Sandbox;
  const ids: number[] = [];
  beforeAll(async () => {
    // links.next/last point at a foreign origin (a proxy echoing an internal host): it must get nothing, no token
    foreign = await startFakeService((_req, _url, res) => json(res, 500, { error: 'should never be called' }));
    sandbox = await startSandbox({
      accounts: { [TOKEN]: 'Paging plc' },
      pageSize: 3,
      prefix: '/api',
      linksOrigin: foreign.origin,
      seed: 1,
    });
    const c = client(sandbox.url);
    for (let i = 0; i < 23; i++) ids.push((await c.createRfq(body(i)))._id);
  });
  afterAll(async () => {
    await sandbox.stop();
    await foreign.stop();
  });

  it('reads all 8 pages in order, on the base URL only, and warns once about the foreign origin', async () => {
    const logs = captureLogs();
    sandbox.resetStats();
    const pages = await all(client(sandbox.url, { logger: logs.logger, pageConcurrency: 3 }).listRfqPages('open'));
    expect(pages.map((p) => p.page)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(pages.flatMap((p) => p.rfqs.map((r) => r._id))).toEqual(ids);
    expect(pages[0]!.listSize).toBe(23);
    expect(foreign.requests).toHaveLength(0);
    expect(sandbox.stats().calls.listRfqs?.['200']).toBe(8);
    const warnings = () => logs.lines().filter((l) => String(l.msg).includes('another origin'));
    expect(warnings()).toHaveLength(1);
    expect(warnings()[0]!.linkOrigin).toBe(foreign.origin);
  });

  it('a client that polls again does not repeat the origin warning', async () => {
    const logs = captureLogs();
    const c = client(sandbox.url, { logger: logs.logger });
    await all(c.listRfqs('open'));
    await all(c.listRfqs('open'));
    expect(logs.lines().filter((l) => String(l.msg).includes('another origin'))).toHaveLength(1);
  });

  it('listRfqs yields every RFQ once', async () => {
    const got = await all(client(sandbox.url).listRfqs('open'));
    expect(got.map((r) => r._id)).toEqual(ids);
  });

  it('stops at maxPages and says so', async () => {
    const logs = captureLogs();
    const pages = await all(client(sandbox.url, { maxPages: 3, logger: logs.logger }).listRfqPages('open'));
    expect(pages.map((p) => p.page)).toEqual([1, 2, 3]);
    expect(logs.text()).toContain('more pages than maxPages');
  });

  it('an empty list is one page with no RFQs', async () => {
    const pages = await all(client(sandbox.url).listRfqPages('cancelled'));
    expect(pages).toEqual([{ page: 1, rfqs: [], listSize: 0 }]);
  });
});

/** A hand-written service whose pages come from `book` (page -> body); records the pages asked for. */
async function pagedService(
  book: (page: number, origin: string) => unknown,
): Promise<FakeService & { pagesAsked: () => number[] }> {
  let origin = '';
  const svc = await startFakeService((_req, url, res) => {
    const page = Number(url.searchParams.get('page') ?? '1');
    json(res, 200, book(page, origin));
  });
  origin = svc.origin;
  return Object.assign(svc, {
    pagesAsked: () => svc.requests.map((r) => Number(new URL(r.url, 'http://x').searchParams.get('page') ?? '1')),
  });
}

const listed = (id: number) => ({
  _id: id,
  title: `R${id}`,
  status: 'Active',
  lines: { '0': { line_id: `L${id}`, qty: '1', estimated_price: '5' } },
});

describe('links the sandbox never gives', () => {
  let svc: FakeService & { pagesAsked: () => number[] };
  afterEach(async () => {
    await svc?.stop();
  });

  it('a repeating next stops the walk instead of looping', async () => {
    const logs = captureLogs();
    svc = await pagedService((page, o) => ({
      rfqs: [listed(page)],
      links: { next: `${o}/v1/rfqs?status=open&page=2` }, // page 2 points at itself; no last
      meta: { total: 99 },
    }));
    const ids = (await all(client(svc.url, { logger: logs.logger }).listRfqs('open'))).map((r) => r._id);
    expect(ids).toEqual([1, 2]);
    expect(svc.pagesAsked()).toEqual([1, 2]);
    expect(logs.text()).toContain('repeats or goes back');
  });

  it('without last, follows next page by page until next is absent, null or empty', async () => {
    for (const end of [undefined, null, '']) {
      svc = await pagedService((page, o) => ({
        rfqs: [listed(page * 10), listed(page * 10 + 1)],
        links:
          page < 4 ? { next: `${o}/v1/rfqs?status=open&page=${page + 1}` } : end === undefined ? {} : { next: end },
      }));
      const ids = (await all(client(svc.url).listRfqs('open'))).map((r) => r._id);
      expect(ids).toEqual([10, 11, 20, 21, 30, 31, 40, 41]);
      expect(svc.pagesAsked()).toEqual([1, 2, 3, 4]);
      await svc.stop();
    }
  });

  it('an empty last page ends the list', async () => {
    svc = await pagedService((page, o) => ({
      rfqs: page <= 2 ? [listed(page)] : [],
      links: {
        next: page < 3 ? `${o}/v1/rfqs?status=open&page=${page + 1}` : null,
        last: `${o}/v1/rfqs?status=open&page=3`,
      },
    }));
    const pages = await all(client(svc.url).listRfqPages('open'));
    expect(pages.map((p) => [p.page, p.rfqs.map((r) => r._id)])).toEqual([
      [1, [1]],
      [2, [2]],
      [3, []],
    ]);
  });

  it('an empty page with a next link still ends the walk (no last)', async () => {
    svc = await pagedService((page, o) => ({
      rfqs: page === 1 ? [listed(1)] : [],
      links: { next: `${o}/v1/rfqs?status=open&page=${page + 1}` },
    }));
    expect((await all(client(svc.url).listRfqs('open'))).map((r) => r._id)).toEqual([1]);
    expect(svc.pagesAsked()).toEqual([1, 2]);
  });

  it('a next past last is not requested', async () => {
    svc = await pagedService((page, o) => ({
      rfqs: [listed(page)],
      links: { next: `${o}/v1/rfqs?status=open&page=${page + 1}`, last: `${o}/v1/rfqs?status=open&page=2` },
    }));
    expect((await all(client(svc.url).listRfqs('open'))).map((r) => r._id)).toEqual([1, 2]);
    expect(svc.pagesAsked()).toEqual([1, 2]);
  });

  it('relative links and links on another host are read for their page number only', async () => {
    svc = await pagedService((page) => ({
      rfqs: [listed(page)],
      links: {
        next:
          page === 1
            ? '/v1/rfqs?status=open&page=2'
            : page === 2
              ? 'http://internal-host:8080/v1/rfqs?status=open&page=3'
              : null,
      },
    }));
    expect((await all(client(svc.url).listRfqs('open'))).map((r) => r._id)).toEqual([1, 2, 3]);
    expect(svc.requests.every((r) => r.authorization === `Bearer ${TOKEN}`)).toBe(true);
  });

  it('with last known, fetches pages concurrently up to pageConcurrency and yields them in order', async () => {
    let inFlight = 0;
    let maxInFlight = 0;
    let origin = '';
    svc = Object.assign(
      await startFakeService(async (_req, url, res) => {
        const page = Number(url.searchParams.get('page') ?? '1');
        inFlight++;
        maxInFlight = Math.max(maxInFlight, inFlight);
        // later pages answer sooner, so order of arrival differs from page order
        await new Promise((r) => setTimeout(r, page === 1 ? 0 : 20 + (10 - page) * 10));
        inFlight--;
        json(res, 200, {
          rfqs: [listed(page)],
          links: {
            next: page < 10 ? `${origin}/v1/rfqs?status=open&page=${page + 1}` : null,
            last: `${origin}/v1/rfqs?status=open&page=10`,
          },
        });
      }),
      { pagesAsked: () => [] as number[] },
    );
    origin = svc.origin;
    const pages = await all(client(svc.url, { pageConcurrency: 3, connections: 8 }).listRfqPages('open'));
    expect(pages.map((p) => p.page)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(pages.map((p) => p.rfqs[0]!._id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(maxInFlight).toBeGreaterThan(1);
    expect(maxInFlight).toBeLessThanOrEqual(3);
  });

  it('sends the status filter in lower case and the page as a number', async () => {
    svc = await pagedService((page, o) => ({
      rfqs: [listed(page)],
      links: { next: page < 2 ? `${o}/v1/rfqs?status=open&page=2` : null },
    }));
    await all(client(svc.url).listRfqs('Closed' as 'closed'));
    expect(svc.requests.map((r) => r.url)).toEqual(['/v1/rfqs?status=closed', '/v1/rfqs?status=closed&page=2']);
  });
});
