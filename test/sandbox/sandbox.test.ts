/**
 * The sandbox as a stand-in for the real service: raw HTTP (fetch, not our client) so what is checked is the wire
 * format the spec shows, the control API people and the demo drive, faults, the autopilot and the state file.
 */
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Decimal } from 'decimal.js';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.ts';
import { useSandbox } from '../helpers/sandbox.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const env = useSandbox({
  accounts: { 'tok-one-1111': 'One Ltd', 'tok-two-2222': 'Two plc' },
  pageSize: 2,
  prefix: '/esourcing',
});
afterEach(() => {
  env.sandbox.setFaults({});
  env.sandbox.resetStats();
});

const auth = (token = 'tok-one-1111') => ({ authorization: `Bearer ${token}` });
const post = (path: string, body: unknown, headers: Record<string, string> = auth()) =>
  fetch(`${env.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
const get = (path: string, headers: Record<string, string> = auth()) => fetch(`${env.url}${path}`, { headers });
const controlUrl = () => `http://127.0.0.1:${env.sandbox.port}/_sandbox`;
const control = (path: string, method = 'GET', body?: unknown) =>
  fetch(`${controlUrl()}${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

const rfqBody = (n: number, over: Record<string, unknown> = {}) => ({
  title: `PR-${n}`,
  due_date: '1893456000000',
  rfq_type: 'Public',
  lines: [
    { product_name: 'Gloves', uom: 'pair', qty: 50, estimated_price: 125, external_id: `${n}-a` },
    { product_name: 'Goggles', qty: 4, estimated_price: 60, external_id: `${n}-b` },
  ],
  ...over,
});

describe('POST /v1/rfqs', () => {
  it('answers 201 {"rfq":{"_id":n}} as JSON', async () => {
    const res = await post('/v1/rfqs', rfqBody(1));
    expect(res.status).toBe(201);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const body = (await res.json()) as { rfq: { _id: number } };
    expect(Object.keys(body)).toEqual(['rfq']);
    expect(Number.isInteger(body.rfq._id)).toBe(true);
  });

  it.each([
    ['qty not a positive integer', { lines: [{ product_name: 'x', qty: 0, external_id: 'q' }] }, 'lines.0.qty'],
    ['fractional qty', { lines: [{ product_name: 'x', qty: 1.5, external_id: 'q' }] }, 'lines.0.qty'],
    [
      'negative estimated_price',
      { lines: [{ product_name: 'x', qty: 1, estimated_price: -1, external_id: 'q' }] },
      'lines.0.estimated_price',
    ],
    ['no lines', { lines: [] }, 'lines'],
    ['rfq_type in another case', { rfq_type: 'public' }, 'rfq_type'],
    ['due_date not digits', { due_date: '2030-01-01' }, 'due_date'],
    ['no title', { title: '' }, 'title'],
  ])('rejects %s with 400 naming the field', async (_what, over, field) => {
    const res = await post('/v1/rfqs', rfqBody(2, over));
    expect(res.status).toBe(400);
    const body = (await res.json()) as { issues: Array<{ path: string }> };
    expect(body.issues.map((i) => i.path)).toContain(field);
  });

  it('rejects a body that is not JSON, and a missing or unknown token (401)', async () => {
    expect((await post('/v1/rfqs', '{not json')).status).toBe(400);
    expect((await post('/v1/rfqs', rfqBody(3), {})).status).toBe(401);
    expect((await post('/v1/rfqs', rfqBody(3), auth('tok-nobody'))).status).toBe(401);
  });
});

describe('GET /v1/rfqs', () => {
  it('renders RFQs as the spec shows them: lines as a map of string numbers, links, meta, per-company rfq_no', async () => {
    const mine = await startSandbox({ accounts: { t1: 'Firm One', t2: 'Firm Two' }, pageSize: 2, seed: 3 });
    try {
      const mk = async (token: string, n: number) =>
        (await fetch(`${mine.url}/v1/rfqs`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify(rfqBody(n)),
        }).then((r) => r.json())) as { rfq: { _id: number } };
      await mk('t1', 1);
      await mk('t2', 2);
      await mk('t1', 3);
      await mk('t1', 4);
      const page1 = (await fetch(`${mine.url}/v1/rfqs?status=open`, { headers: { authorization: 'Bearer t1' } }).then(
        (r) => r.json(),
      )) as {
        rfqs: Array<Record<string, unknown>>;
        links: { next: string | null; last: string };
        meta: { total: number };
      };
      expect(page1.meta.total).toBe(3);
      expect(page1.rfqs.map((r) => r.rfq_no)).toEqual([1, 2]);
      expect(page1.rfqs[0]).toMatchObject({
        comp_name: 'Firm One',
        status: 'Active',
        version: 1,
        rfq_type: 'Public',
        due_date: '1893456000000',
      });
      expect(page1.rfqs[0]!.rfq_date).toMatch(/^\d{13}$/);
      const lines = page1.rfqs[0]!.lines as Record<string, Record<string, unknown>>;
      expect(Object.keys(lines)).toEqual(['0', '1']);
      expect(lines['0']).toMatchObject({
        qty: '50',
        estimated_price: '125',
        each_price: '2.50',
        status: 'active',
        docs: {},
        external_id: '1-a',
      });
      expect(lines['0']!.line_id).toEqual(expect.any(String));
      expect(page1.links.next).toBe(`${mine.url}/v1/rfqs?status=open&page=2`);
      expect(page1.links.last).toBe(`${mine.url}/v1/rfqs?status=open&page=2`);
      const page2 = (await fetch(page1.links.next!, { headers: { authorization: 'Bearer t1' } }).then((r) =>
        r.json(),
      )) as { rfqs: unknown[]; links: { next: unknown } };
      expect(page2.rfqs).toHaveLength(1);
      expect(page2.links.next).toBeNull();
      // the other company sees only its own, numbered from 1
      const two = (await fetch(`${mine.url}/v1/rfqs?status=open`, { headers: { authorization: 'Bearer t2' } }).then(
        (r) => r.json(),
      )) as { rfqs: Array<{ rfq_no: number }> };
      expect(two.rfqs.map((r) => r.rfq_no)).toEqual([1]);
    } finally {
      await mine.stop();
    }
  });

  it('the status filter is lower case; anything else is 400, as is a bad page; no filter lists the whole account', async () => {
    expect((await get('/v1/rfqs?status=open')).status).toBe(200);
    expect((await get('/v1/rfqs?status=OPEN')).status).toBe(400);
    const all = (await (await get('/v1/rfqs')).json()) as { meta: { total: number } };
    let sum = 0;
    for (const s of ['open', 'closed', 'cancelled', 'completed'])
      sum += ((await (await get(`/v1/rfqs?status=${s}`)).json()) as { meta: { total: number } }).meta.total;
    expect(all.meta.total).toBe(sum);
    expect((await get('/v1/rfqs?status=open&page=0')).status).toBe(400);
    expect((await get('/v1/rfqs?status=open', {})).status).toBe(401);
  });

  it('the API lives under the prefix only', async () => {
    const bare = `http://127.0.0.1:${env.sandbox.port}/v1/rfqs?status=open`;
    expect((await fetch(bare, { headers: auth() })).status).toBe(404);
  });
});

describe('quotations and the control API', () => {
  it('drives an RFQ through quotations, decisions, winner and states over HTTP', async () => {
    const { rfq } = (await (await post('/v1/rfqs', rfqBody(10))).json()) as { rfq: { _id: number } };
    const id = rfq._id;
    const detail = (await (await control(`/rfqs/${id}`)).json()) as { lines: Array<{ line_id: string }> };
    const [a, b] = detail.lines;

    let res = await control(`/rfqs/${id}/quotations`, 'POST', {
      sup_name: 'Acme',
      quotation_key: 'comp_5',
      prices: { [a!.line_id]: '2.40', [b!.line_id]: '14' },
      notes: 'fast',
      attachments: [{ name: 'q.pdf' }],
    });
    expect(res.status).toBe(201);
    res = await control(`/rfqs/${id}/quotations`, 'POST', { sup_name: 'Brill', quotation_key: 8, prices: ['2.10'] }); // line b missing
    expect(res.status).toBe(201);
    res = await control(`/rfqs/${id}/quotations`, 'POST', {
      sup_name: 'Acme',
      quotation_key: 'comp_5',
      prices: ['2.35', '14'],
    });
    expect(((await res.json()) as { revision_no: number }).revision_no).toBe(1);
    expect((await control(`/rfqs/${id}/quotations/comp_5/decision`, 'POST', { qualified: true })).status).toBe(200);
    expect((await control(`/rfqs/${id}/quotations/8/decision`, 'POST', { status: 'not qualified' })).status).toBe(200);
    expect((await control(`/rfqs/${id}/winner`, 'POST', { quotation_key: 'comp_5' })).status).toBe(200);
    expect((await control(`/rfqs/${id}/advance`, 'POST', { to: 'completed' })).status).toBe(200);

    const all = (await (await get(`/v1/quotations/${id}`)).json()) as {
      rfq: { id: number };
      quotations: Array<Record<string, unknown>>;
    };
    expect(all.rfq).toEqual({ id });
    expect(all.quotations).toHaveLength(2);
    expect(all.quotations[0]).toMatchObject({
      quotation_key: 'comp_5',
      sup_name: 'Acme',
      revision_no: 1,
      notes: 'fast',
      status: 'qualified',
      quotation_detail: { [a!.line_id]: { price: '2.35', docs: [] }, [b!.line_id]: { price: '14', docs: [] } },
      quotation_attachment: [{ name: 'q.pdf' }],
    });
    expect(all.quotations[0]!.quotation_date).toMatch(/^\d{13}$/);
    expect(all.quotations[1]).toMatchObject({
      quotation_key: 8,
      status: 'not qualified',
      quotation_detail: { [a!.line_id]: { price: '2.10', docs: [] } },
    });

    const winner = (await (await get(`/v1/quotations/${id}?status=success`)).json()) as {
      quotations: Array<{ quotation_key: unknown }>;
    };
    expect(winner.quotations.map((q) => q.quotation_key)).toEqual(['comp_5']);
    const one = (await (await get(`/v1/quotations/${id}/8?fields=sup_name,quotation_detail`)).json()) as {
      quotations: unknown[];
    };
    expect(one.quotations).toEqual([
      { sup_name: 'Brill', quotation_detail: { [a!.line_id]: { price: '2.10', docs: [] } } },
    ]);
    expect((await get(`/v1/quotations/${id}/comp_404`)).status).toBe(404);
    expect((await get(`/v1/quotations/${id}`, auth('tok-two-2222'))).status).toBe(404);
    expect((await get(`/v1/quotations/${id}?status=winner`)).status).toBe(400);

    const completed = (await (await get('/v1/rfqs?status=completed')).json()) as {
      rfqs: Array<{ _id: number; status: string; version: number }>;
    };
    expect(completed.rfqs.find((r) => r._id === id)).toMatchObject({ status: 'Completed' });
    const listAll = (await (await control('/rfqs')).json()) as { rfqs: Array<{ _id: number }> };
    expect(listAll.rfqs.map((r) => r._id)).toContain(id);
    expect((await control(`/rfqs/${id}/advance`, 'POST', { to: 'archived' })).status).toBe(400);
    expect((await control('/rfqs/99999/advance', 'POST', { to: 'closed' })).status).toBe(404);
  });

  it('faults set over HTTP take effect, and stats count what was answered', async () => {
    expect((await control('/faults', 'PUT', { errorRate: 2 })).status).toBe(400);
    expect((await control('/faults', 'PUT', { down: true })).status).toBe(200);
    expect((await get('/v1/rfqs?status=open')).status).toBe(503);
    await control('/faults', 'PUT', { rateLimit: { burst: 1, retryAfterSeconds: 7 } });
    const limited = await get('/v1/rfqs?status=open');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('7');
    expect((await get('/v1/rfqs?status=open')).status).toBe(200);
    const stats = (await (await control('/stats')).json()) as {
      calls: Record<string, Record<string, number>>;
      sent429: number;
    };
    expect(stats.calls.listRfqs).toEqual({ '200': 1, '429': 1, '503': 1 });
    expect(stats.sent429).toBe(1);
  });

  it('maxRequestsPerSecond answers 429 with Retry-After 1 above the rate', async () => {
    env.sandbox.setFaults({ maxRequestsPerSecond: 5 });
    const statuses = await Promise.all(
      Array.from({ length: 12 }, () => get('/v1/rfqs?status=open').then((r) => r.status)),
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(7);
    expect(env.sandbox.stats().maxPerSecond).toBe(12);
  });

  it('commit then fail stores the RFQ and loses the answer', async () => {
    env.sandbox.setFaults({ commitThenFail: { rate: 1, mode: '502' } });
    const before = env.sandbox.control.listAll().length;
    expect((await post('/v1/rfqs', rfqBody(20))).status).toBe(502);
    expect(env.sandbox.control.listAll().length).toBe(before + 1);
    env.sandbox.setFaults({ commitThenFail: { rate: 1, mode: 'drop' } });
    await expect(post('/v1/rfqs', rfqBody(21))).rejects.toThrow();
    expect(env.sandbox.control.listAll().length).toBe(before + 2);
    expect(env.sandbox.stats().commitThenFail).toBe(2);
  });
});

describe('autopilot', () => {
  it('closes open RFQs with supplier quotations, then completes them with the lowest qualified total as winner', async () => {
    const run = async () => {
      const sb = await startSandbox({
        seed: 7,
        autopilot: { closeAfterMs: 40, completeAfterMs: 40, suppliersPerRfq: 4, missingLineRate: 0.2 },
      });
      try {
        const res = await fetch(`${sb.url}/v1/rfqs`, {
          method: 'POST',
          headers: { authorization: 'Bearer sandbox-token', 'content-type': 'application/json' },
          body: JSON.stringify(rfqBody(30)),
        });
        const { rfq } = (await res.json()) as { rfq: { _id: number } };
        for (let i = 0; i < 100 && sb.control.getRfq(rfq._id)?.state !== 'completed'; i++)
          await new Promise((r) => setTimeout(r, 20));
        return sb.control.getRfq(rfq._id)!;
      } finally {
        await sb.stop();
      }
    };
    const r = await run();
    expect(r.state).toBe('completed');
    expect(r.quotations).toHaveLength(4);
    const totals = r.quotations
      .filter((q) => q.status === 'qualified')
      .map((q) => ({
        key: String(q.quotation_key),
        total: r.lines.reduce((s, l) => s.plus(new Decimal(q.detail[l.line_id]!.price!).mul(l.qty)), new Decimal(0)),
      }));
    expect(totals.length).toBeGreaterThan(0);
    const lowest = totals.reduce((a, b) => (b.total.lt(a.total) ? b : a));
    expect(r.winner).toBe(lowest.key);
    // unit prices stay within ±20 % of estimated_price / qty (Gloves: 125 / 50 = 2.50)
    for (const q of r.quotations) {
      const p = q.detail[r.lines[0]!.line_id]?.price;
      if (p) expect(new Decimal(p).gte(2) && new Decimal(p).lte(3)).toBe(true);
    }
    // the same seed gives the same quotations
    const again = await run();
    expect(again.quotations.map((q) => q.detail)).toEqual(r.quotations.map((q) => q.detail));
  });
});

describe('state file', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
  });

  it('a restarted sandbox keeps RFQs, numbering, quotations and decisions', async () => {
    const dir = tempDir('sandbox-state-');
    dirs.push(dir);
    const stateFile = join(dir, 'state.json');
    let sb: Sandbox = await startSandbox({ stateFile, seed: 1 });
    const create = async (n: number) =>
      (
        (await (
          await fetch(`${sb.url}/v1/rfqs`, {
            method: 'POST',
            headers: { authorization: 'Bearer sandbox-token', 'content-type': 'application/json' },
            body: JSON.stringify(rfqBody(n)),
          })
        ).json()) as { rfq: { _id: number } }
      ).rfq._id;
    const first = await create(1);
    sb.control.submitQuotation(first, { sup_name: 'Acme', prices: ['2.5', '15'] });
    sb.control.advance(first, 'closed');
    await sb.stop();
    expect(JSON.parse(await readFile(stateFile, 'utf8')).rfqs).toHaveLength(1);

    sb = await startSandbox({ stateFile, seed: 1 });
    try {
      const second = await create(2);
      expect(second).toBeGreaterThan(first); // ids are not reused
      const closed = (await (
        await fetch(`${sb.url}/v1/rfqs?status=closed`, { headers: { authorization: 'Bearer sandbox-token' } })
      ).json()) as { rfqs: Array<{ _id: number; rfq_no: number }> };
      expect(closed.rfqs.map((r) => [r._id, r.rfq_no])).toEqual([[first, 1]]);
      expect(sb.control.getRfq(second)!.rfq_no).toBe(2);
      const q = (await (
        await fetch(`${sb.url}/v1/quotations/${first}`, { headers: { authorization: 'Bearer sandbox-token' } })
      ).json()) as { quotations: Array<{ sup_name: string }> };
      expect(q.quotations.map((x) => x.sup_name)).toEqual(['Acme']);
    } finally {
      await sb.stop();
    }
  });
});
