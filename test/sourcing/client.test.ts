/** The sourcing client against the sandbox over real HTTP: every operation, as a worker uses it. */
import { afterEach, describe, expect, it } from 'vitest';
import { PermanentHttpError, RfqSyncError } from '../../src/core/errors.ts';
import { createSourcingClient, type SourcingClient } from '../../src/sourcing/client/http-client.ts';
import type { CreateRfqRequest, ListedRfq } from '../../src/sourcing/types.ts';
import { useSandbox } from '../helpers/sandbox.ts';

const ACCOUNTS = { 'tok-alpha-0001': 'Alpha Foods plc', 'tok-beta-0002': 'Beta Metals GmbH' };
const env = useSandbox({ accounts: ACCOUNTS, prefix: '/esourcing', pageSize: 5 });

const clients: SourcingClient[] = [];
function client(token = 'tok-alpha-0001', baseUrl = env.url): SourcingClient {
  const c = createSourcingClient({ baseUrl, getToken: () => token, baseBackoffMs: 10 });
  clients.push(c);
  return c;
}
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

function rfq(n: string, over: Partial<CreateRfqRequest> = {}): CreateRfqRequest {
  return {
    title: `PR-${n} office supplies`,
    due_date: '1893456000000',
    required_date: '1894000000000',
    description: 'Quarterly restock',
    rfq_type: 'Public',
    rfq_category: 'Office',
    rfq_location: 'Leeds',
    lines: [
      { product_name: 'A4 paper, 80 g', uom: 'box', qty: 12, estimated_price: 300, external_id: `${n}-1` },
      {
        product_name: 'Stapler',
        specification: 'heavy duty',
        uom: 'pcs',
        qty: 3,
        estimated_price: 10,
        external_id: `${n}-2`,
      },
    ],
    ...over,
  };
}

async function all<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

describe('createRfq and listRfqs', () => {
  it('creates an RFQ and finds it, with its lines, in the open list of its own account only', async () => {
    const alpha = client();
    const { _id } = await alpha.createRfq(rfq('100', { rfq_type: 'private' as 'Private' }));
    expect(_id).toBeGreaterThan(0);
    // sent as the service spells it, whatever case the input had
    expect(env.sandbox.control.getRfq(_id)?.rfq_type).toBe('Private');

    const open = await all(alpha.listRfqs('open'));
    const found = open.find((r) => r._id === _id) as ListedRfq;
    expect(found).toMatchObject({
      title: 'PR-100 office supplies',
      comp_name: 'Alpha Foods plc',
      status: 'Active',
      version: 1,
      due_date: 1893456000000,
    });
    expect(found.lines.map((l) => [l.position, l.external_id, l.qty, l.estimated_price, l.each_price])).toEqual([
      [0, '100-1', 12, '300', '25.00'],
      [1, '100-2', 3, '10', '3.33'],
    ]);
    expect(found.lines[0]!.line_id).toMatch(/\S/);
    expect(typeof found.rfq_date).toBe('number');

    expect((await all(client('tok-beta-0002').listRfqs('open'))).map((r) => r._id)).not.toContain(_id);
  });

  it('numbers RFQs per company (rfq_no)', async () => {
    const beta = client('tok-beta-0002');
    const a = await beta.createRfq(rfq('200'));
    const b = await beta.createRfq(rfq('201'));
    const listed = await all(beta.listRfqs('open'));
    const nos = listed.filter((r) => r._id === a._id || r._id === b._id).map((r) => r.rfq_no);
    expect(nos).toEqual([1, 2]);
  });

  it('an RFQ advanced by the buyer moves from the open list to closed, cancelled, completed', async () => {
    const alpha = client();
    const { _id } = await alpha.createRfq(rfq('300'));
    for (const state of ['closed', 'cancelled', 'completed'] as const) {
      env.sandbox.control.advance(_id, state);
      expect((await all(alpha.listRfqs(state))).map((r) => r._id)).toContain(_id);
      expect((await all(alpha.listRfqs('open'))).map((r) => r._id)).not.toContain(_id);
    }
  });

  it('refuses to send a request that breaks the schema, naming the field', async () => {
    const alpha = client();
    const bad = rfq('400', { lines: [{ product_name: 'x', qty: 1.5, external_id: 'x-1' }] });
    const err = await alpha.createRfq(bad).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RfqSyncError);
    expect((err as RfqSyncError).kind).toBe('data');
    expect((err as Error).message).toContain('lines.0.qty');
    expect(env.sandbox.stats().calls.createRfq?.['400']).toBeUndefined();
  });

  it('the base URL carries the prefix: without it the service answers 404, a permanent error', async () => {
    const noPrefix = client('tok-alpha-0001', env.url.replace('/esourcing', ''));
    const err = await all(noPrefix.listRfqs('open')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PermanentHttpError);
    expect((err as PermanentHttpError).status).toBe(404);
    // a trailing slash on the base URL is fine
    expect(Array.isArray(await all(client('tok-alpha-0001', `${env.url}/`).listRfqs('open')))).toBe(true);
  });
});

describe('listQuotations', () => {
  it('lists all quotations, one by key (integer or comp_<n>), the winner only, and selected fields', async () => {
    const alpha = client();
    const { _id } = await alpha.createRfq(rfq('500'));
    const [l0, l1] = env.sandbox.control.getRfq(_id)!.lines;
    const q1 = env.sandbox.control.submitQuotation(_id, {
      sup_name: 'Acme',
      quotation_key: 7,
      prices: ['24.10', '3.05'],
      notes: 'valid 30 days',
      documents: { [l0!.line_id]: [{ name: 'datasheet.pdf' }] },
      attachments: [{ name: 'offer.pdf' }],
    });
    const q2 = env.sandbox.control.submitQuotation(_id, {
      sup_name: 'Nordic',
      quotation_key: 'comp_12',
      prices: { [l1!.line_id]: 2.5 },
    });
    env.sandbox.control.submitQuotation(_id, { sup_name: 'Acme', quotation_key: 7, prices: ['23.90', '3.05'] }); // revision
    env.sandbox.control.decide(_id, '7', true);
    env.sandbox.control.decide(_id, 'comp_12', false);
    env.sandbox.control.pickWinner(_id, '7');
    expect(q1.quotation_key).toBe(7);
    expect(q2.quotation_key).toBe('comp_12');

    const list = await alpha.listQuotations(_id);
    expect(list.rfqId).toBe(_id);
    expect(list.invalid).toEqual([]);
    const acme = list.quotations.find((q) => q.quotation_key === '7')!;
    expect(acme).toMatchObject({
      sup_name: 'Acme',
      revision_no: 1,
      notes: 'valid 30 days',
      status: 'qualified',
      attachments: [{ name: 'offer.pdf' }],
    });
    expect(acme.detail).toEqual([
      { line_id: l0!.line_id, price: '23.90', docs: [] },
      { line_id: l1!.line_id, price: '3.05', docs: [] },
    ]);
    const nordic = list.quotations.find((q) => q.quotation_key === 'comp_12')!;
    expect(nordic.status).toBe('not qualified');
    expect(nordic.detail).toEqual([{ line_id: l1!.line_id, price: '2.5', docs: [] }]); // line 0 not quoted

    expect((await alpha.listQuotations(_id, { quotationKey: 'comp_12' })).quotations.map((q) => q.sup_name)).toEqual([
      'Nordic',
    ]);
    expect((await alpha.listQuotations(_id, { status: 'success' })).quotations.map((q) => q.quotation_key)).toEqual([
      '7',
    ]);

    const slim = await alpha.listQuotations(_id, { fields: ['sup_name'] });
    expect(slim.quotations).toHaveLength(2);
    expect(slim.quotations[0]).toEqual({ quotation_key: '7', sup_name: 'Acme', detail: [], attachments: [] });
  });

  it('another account cannot read the quotations of an RFQ it does not own (404, permanent)', async () => {
    const { _id } = await client().createRfq(rfq('600'));
    const err = await client('tok-beta-0002')
      .listQuotations(_id)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PermanentHttpError);
    expect((err as PermanentHttpError).status).toBe(404);
  });

  it('an RFQ without a winner answers an empty list for status=success', async () => {
    const alpha = client();
    const { _id } = await alpha.createRfq(rfq('700'));
    expect((await alpha.listQuotations(_id, { status: 'success' })).quotations).toEqual([]);
  });
});
