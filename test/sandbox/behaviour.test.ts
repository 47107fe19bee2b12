/**
 * The sandbox behaving like real services (src/sandbox/behaviour.ts), over raw HTTP: a list lag, newest-first and
 * by-due-date order, fields stored as the service rewrites them, fields left out of lists, hidden RFQs (counted in
 * meta.total or not), purged RFQs and cursor links. The exactly-once proofs run against these.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { useSandbox } from '../helpers/sandbox.ts';
import { sleep } from '../helpers/wait.ts';

const env = useSandbox({ pageSize: 2, dialect: 'docs' });
afterEach(() => env.sandbox.control.setBehaviour({}));

const headers = { authorization: 'Bearer sandbox-token', 'content-type': 'application/json' };
let n = 0;
async function create(over: Record<string, unknown> = {}): Promise<number> {
  n++;
  const res = await fetch(`${env.url}/v1/rfqs`, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      title: `Behaviour  ${n}`,
      due_date: String(Date.UTC(2031, 0, 1) + ((n * 7) % 5) * 86_400_000),
      rfq_type: 'Public',
      lines: [
        { product_name: 'Paper  A4', uom: 'Pkg', qty: 2, estimated_price: 10, external_id: ` pr-${n}-1 ` },
        { product_name: 'Toner', uom: 'pcs', qty: 1, estimated_price: 90 },
      ],
      ...over,
    }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { rfq: { _id: number } }).rfq._id;
}
interface ListAnswer {
  rfqs: Array<Record<string, unknown> & { _id: number }>;
  links: { next: string | null; last?: string };
  meta: { total: number };
}
const list = async (query = ''): Promise<ListAnswer> =>
  (await (await fetch(`${env.url}/v1/rfqs${query}`, { headers })).json()) as ListAnswer;
async function allIds(): Promise<number[]> {
  const ids: number[] = [];
  let query = '';
  for (;;) {
    const page = await list(query);
    ids.push(...page.rfqs.map((r) => r._id));
    if (!page.links.next) return ids;
    query = `?${new URL(page.links.next).searchParams.toString()}`;
  }
}

describe('sandbox behaviours', () => {
  it('list lag: a new RFQ shows in the lists only after the lag, and in meta.total with it; the detail call has it at once', async () => {
    const before = (await list()).meta.total;
    env.sandbox.control.setBehaviour({ listLagMs: 600 });
    const id = await create();
    expect((await list()).meta.total).toBe(before);
    expect(await allIds()).not.toContain(id);
    expect((await fetch(`${env.url}/v1/rfqs/${id}`, { headers })).status).toBe(200);
    await sleep(650); // sleep: the list lag (600 ms) passes: time is what is tested
    expect((await list()).meta.total).toBe(before + 1);
    expect(await allIds()).toContain(id);
  });

  it('order: newest first, or by due date then _id', async () => {
    for (let i = 0; i < 4; i++) await create();
    const ids = await allIds();
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    env.sandbox.control.setBehaviour({ listOrder: 'newest' });
    expect(await allIds()).toEqual([...ids].reverse());
    env.sandbox.control.setBehaviour({ listOrder: 'due' });
    const due = new Map(env.sandbox.control.listAll().map((r) => [r._id, Number(r.due_date)]));
    const byDue = [...ids].sort((a, b) => due.get(a)! - due.get(b)! || a - b);
    expect(await allIds()).toEqual(byDue);
  });

  it('stored as the service rewrites it: units upper-cased, spaces collapsed, names upper-cased, external_ids upper-cased, a required date filled in', async () => {
    env.sandbox.control.setBehaviour({ stores: ['uom-case', 'spaces', 'name-case', 'external-id', 'required-date'] });
    const id = await create();
    const stored = env.sandbox.control.getRfq(id)!;
    expect(stored.title).toBe(`Behaviour ${n}`);
    expect(stored.required_date).toBe(stored.due_date);
    expect(stored.lines.map((l) => [l.product_name, l.uom, l.external_id])).toEqual([
      ['PAPER A4', 'PKG', `PR-${n}-1`],
      ['TONER', 'PCS', undefined],
    ]);
  });

  it('lists leave out estimated_price, or the lines altogether', async () => {
    const id = await create();
    const find = async () => (await Promise.all([list(), list('?page=2'), list('?page=3')])).flatMap((p) => p.rfqs);
    env.sandbox.control.setBehaviour({ listOmits: ['estimated_price'], listOrder: 'newest' });
    const listed = (await list()).rfqs.find((r) => r._id === id)!;
    expect(Object.values(listed.lines as Record<string, Record<string, unknown>>)[0]).not.toHaveProperty(
      'estimated_price',
    );
    env.sandbox.control.setBehaviour({ listOmits: ['lines'], listOrder: 'newest' });
    expect((await find()).find((r) => r._id === id)).not.toHaveProperty('lines');
  });

  it('hidden RFQs leave the lists, counted in meta.total where the service counts them; purged ones are gone', async () => {
    const id = await create();
    const total = (await list()).meta.total;
    env.sandbox.control.hide(id);
    expect(await allIds()).not.toContain(id);
    expect((await list()).meta.total).toBe(total - 1);
    env.sandbox.control.setBehaviour({ hiddenInTotal: true });
    expect((await list()).meta.total).toBe(total);
    expect((await allIds()).length).toBe(total - 1);
    env.sandbox.control.hide(id, false);
    expect(await allIds()).toContain(id);
    env.sandbox.control.purge(id);
    expect(await allIds()).not.toContain(id);
    expect((await fetch(`${env.url}/v1/rfqs/${id}`, { headers })).status).toBe(404);
  });

  it('cursor links: next carries an opaque cursor, no last; following them reads the whole list', async () => {
    await create();
    const pageNumbers = await allIds();
    env.sandbox.control.setBehaviour({ cursorLinks: true });
    const first = await list();
    expect(first.links.next).toMatch(/cursor=/);
    expect(first.links.next).not.toMatch(/page=/);
    expect(first.links.last).toBeUndefined();
    expect(await allIds()).toEqual(pageNumbers);
    expect((await fetch(`${env.url}/v1/rfqs?cursor=%%%`, { headers })).status).toBe(400);
  });

  it('the behaviour is set over the control API too, strictly', async () => {
    const url = `http://127.0.0.1:${env.sandbox.port}/_sandbox/behaviour`;
    const put = (body: unknown) =>
      fetch(url, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect((await put({ listOrder: 'newest', listLagMs: 5 })).status).toBe(200);
    expect(env.sandbox.control.getBehaviour()).toEqual({ listOrder: 'newest', listLagMs: 5 });
    expect((await put({ listLag: 5 })).status).toBe(400);
  });
});
