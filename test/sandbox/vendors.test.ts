/**
 * The sandbox's vendor directory and the fault that proves the ERP-id guard, over raw HTTP (not our client): the
 * docs dialect's list by category (`/v1/vendors/?categories=A|B`, "0"-keyed categories), the paths each dialect does
 * not have, the autopilot quoting with vendors that follow the RFQ's category (so not all of them quote), and the
 * control call that lists an RFQ's lines reordered or one short.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.ts';
import { followersOf, seedVendors } from '../../src/sandbox/vendors.ts';

let sandbox: Sandbox | undefined;
afterEach(async () => {
  await sandbox?.stop();
  sandbox = undefined;
});
const get = (path: string) => fetch(`${sandbox!.url}${path}`, { headers: { authorization: 'Bearer sandbox-token' } });

async function createRfq(category: string, lines = ['Hammer', 'Pliers', 'Saw']): Promise<number> {
  const res = await fetch(`${sandbox!.url}/v1/rfqs`, {
    method: 'POST',
    headers: { authorization: 'Bearer sandbox-token', 'content-type': 'application/json' },
    body: JSON.stringify({
      title: `RFQ ${category}`,
      due_date: '1893456000000',
      rfq_type: 'Public',
      rfq_category: category,
      lines: lines.map((p, i) => ({ product_name: p, qty: 2, estimated_price: 100, external_id: `${category}-${i}` })),
    }),
  });
  return ((await res.json()) as { rfq: { _id: number } }).rfq._id;
}

describe('sandbox vendor directory', () => {
  it('docs dialect: the list by category, categories "0"-keyed; /v1/vendors without categories does not exist', async () => {
    sandbox = await startSandbox({ dialect: 'docs' });
    const res = await get('/v1/vendors/?categories=Tools|Lab%20supplies');
    expect(res.status).toBe(200);
    const { vendors } = (await res.json()) as {
      vendors: Array<{ sup_name: string; categories: Record<string, string> }>;
    };
    const want = seedVendors().filter((v) => v.categories.includes('Tools') || v.categories.includes('Lab supplies'));
    expect(vendors.map((v) => v.sup_name)).toEqual(want.map((v) => v.sup_name));
    expect(vendors[0]!.categories).toEqual(Object.fromEntries(want[0]!.categories.map((c, i) => [String(i), c])));
    expect((await get('/v1/vendors')).status).toBe(404);
    expect((await get('/v1/vendor/')).status).toBe(200);
  });

  it('friendly dialect has no /v1/vendor/; without a directory every path is 404', async () => {
    sandbox = await startSandbox({});
    expect((await get('/v1/vendor/')).status).toBe(404);
    expect((await get('/v1/vendors?categories=Tools')).status).toBe(200);
    await sandbox.stop();
    sandbox = await startSandbox({ vendors: false });
    for (const p of ['/v1/vendors', '/v1/vendor/', '/v1/vendors?categories=Tools'])
      expect((await get(p)).status).toBe(404);
  });

  it('the autopilot quotes with vendors following the category (3 of them), else with its own pool', async () => {
    sandbox = await startSandbox({ autopilot: { closeAfterMs: 0, completeAfterMs: 60_000, suppliersPerRfq: 3 } });
    const tools = await createRfq('Tools');
    const other = await createRfq('Nobody follows this');
    sandbox.control.autopilotTick();
    const following = followersOf(seedVendors(), 'Tools').map((v) => v.sup_name);
    expect(following).toHaveLength(4);
    const quoted = sandbox.control.getRfq(tools)!.quotations.map((q) => q.sup_name);
    expect(quoted).toHaveLength(3);
    for (const name of quoted) expect(following).toContain(name);
    expect(sandbox.control.getRfq(other)!.quotations).toHaveLength(3);
  });

  it('an RFQ can be listed with its lines reordered or one short (control API), and as posted again', async () => {
    sandbox = await startSandbox({});
    const id = await createRfq('Tools');
    const listed = async () => {
      const { rfqs } = (await (await get('/v1/rfqs?status=open')).json()) as {
        rfqs: Array<{ _id: number; version: number; lines: Record<string, { product_name: string }> }>;
      };
      const r = rfqs.find((x) => x._id === id)!;
      return { version: r.version, products: Object.values(r.lines).map((l) => l.product_name) };
    };
    const set = (mode: string | null) =>
      fetch(`http://127.0.0.1:${sandbox!.port}/_sandbox/rfqs/${id}/listed-lines`, {
        method: 'POST',
        body: JSON.stringify({ mode }),
      });
    expect(await listed()).toEqual({ version: 1, products: ['Hammer', 'Pliers', 'Saw'] });
    expect((await set('reorder')).status).toBe(200);
    expect(await listed()).toEqual({ version: 2, products: ['Saw', 'Pliers', 'Hammer'] });
    await set('drop');
    expect(await listed()).toEqual({ version: 3, products: ['Pliers', 'Saw'] });
    await set(null);
    expect((await listed()).products).toEqual(['Hammer', 'Pliers', 'Saw']);
    expect((await set('shuffle')).status).toBe(400);
  });
});
