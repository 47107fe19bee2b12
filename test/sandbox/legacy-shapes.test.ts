/**
 * The sandbox's legacy shapes (`--shapes legacy`), checked on the wire with raw HTTP (not our client): what older
 * revisions of the real service's documentation show, so the tests and the demo can run the loop against it.
 * And the control API that renders one field of one RFQ or quotation broken.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { useSandbox } from '../helpers/sandbox.ts';

const env = useSandbox({ shapes: 'legacy', pageSize: 10 });
const auth = { authorization: 'Bearer sandbox-token', 'content-type': 'application/json' };
const get = async (path: string) => (await fetch(`${env.url}${path}`, { headers: auth })).json() as Promise<any>;
const control = (path: string, body: unknown) =>
  fetch(`http://127.0.0.1:${env.sandbox.port}/_sandbox${path}`, {
    method: 'POST',
    headers: auth,
    body: JSON.stringify(body),
  });
afterEach(() => env.sandbox.setFaults({}));

async function created(n: number): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < n; i++) {
    const res = await fetch(`${env.url}/v1/rfqs`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({
        title: `Legacy ${i}`,
        due_date: '1893456000000',
        required_date: '1893542400000',
        rfq_type: 'Public',
        lines: [{ product_name: 'Gloves', qty: 5, estimated_price: 50, external_id: `L-${i}` }],
      }),
    });
    ids.push(((await res.json()) as { rfq: { _id: number } }).rfq._id);
  }
  return ids;
}

describe('sandbox --shapes legacy', () => {
  it('lists RFQs with every date form, the invitation map and the older fields', async () => {
    const ids = await created(4);
    expect(
      (await control(`/rfqs/${ids[0]}/invite`, { sup_name: 'PT Indofood', sup_email: 'info@indofood.id' })).status,
    ).toBe(201);
    const { rfqs } = await get('/v1/rfqs?status=open');
    const forms = new Set(
      rfqs.flatMap((r: Record<string, unknown>) =>
        ['rfq_date', 'due_date', 'required_date', 'created_date'].map((f) => {
          const v = r[f] as unknown;
          if (typeof v === 'number') return 'number';
          if (typeof v === 'string') return /^\d+$/.test(v) ? 'digits' : 'text';
          const d = (v as { $date: unknown }).$date;
          return typeof d === 'string' ? '$date ISO' : '$numberLong';
        }),
      ),
    );
    expect([...forms].sort()).toEqual(['$date ISO', '$numberLong', 'digits', 'number']);
    const first = rfqs.find((r: { _id: number }) => r._id === ids[0]);
    expect(first.invitation).toEqual({
      '0': {
        sup_name: 'PT Indofood',
        contact: '',
        sup_email: 'info@indofood.id',
        sup_id: expect.stringMatching(/^\d+$/),
        status: 'pending',
      },
    });
    expect(first).toMatchObject({
      comp_srl: '32',
      created_by: expect.any(String),
      lines: { '0': { qty: '5', docs: {} } },
    });
  });

  it('answers quotations as the older example: keyed by key, sup_id, date texts, "0"-keyed documents, success/unsuccess', async () => {
    const [id] = await created(1);
    const ctl = env.sandbox.control;
    const lineId = ctl.getRfq(id!)!.lines[0]!.line_id;
    const a = ctl.submitQuotation(id!, {
      sup_name: 'A',
      prices: ['9.5'],
      documents: { [lineId]: [{ name: 'spec.pdf' }] },
      attachments: [{ name: 'terms.pdf' }],
    });
    const b = ctl.submitQuotation(id!, { sup_name: 'B', prices: ['8'] });
    ctl.decide(id!, String(a.quotation_key), true);
    ctl.decide(id!, String(b.quotation_key), false);
    const body = await get(`/v1/quotations/${id}`);
    expect(Object.keys(body).sort()).toEqual([String(a.quotation_key), String(b.quotation_key)].sort());
    const qa = body[String(a.quotation_key)];
    expect(qa).not.toHaveProperty('quotation_key');
    expect(qa.sup_id).toBe(String(a.quotation_key).replace('comp_', ''));
    expect(qa.quotation_date).toMatch(
      /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun) \w{3} \d{2} \d{4} \d{2}:\d{2}:\d{2} GMT\+0700 \(SE Asia Standard Time\)$/,
    );
    expect(qa.quotation_detail[lineId]).toEqual({
      price: '9.5',
      docs: { '0': { file_name: expect.stringMatching(/^[0-9a-f]{32}\.pdf$/), doc_name: 'spec.pdf' } },
    });
    expect(qa.quotation_attachment['0'].doc_name).toBe('terms.pdf');
    expect([qa.status, body[String(b.quotation_key)].status]).toEqual(['success', 'unsuccess']);
    // the winner filter keeps the shape and sup_id with a field selection
    ctl.pickWinner(id!, String(b.quotation_key));
    const won = await get(`/v1/quotations/${id}?status=success&fields=quotation_key,sup_name`);
    expect(won).toEqual({ [String(b.quotation_key)]: { sup_id: expect.any(String), sup_name: 'B' } });
    // none yet: the envelope with an empty keyed object
    const [empty] = await created(1);
    expect(await get(`/v1/quotations/${empty}`)).toEqual({ rfq: { id: empty }, quotations: {} });
  });

  it('renders one field of one RFQ or quotation broken, through the control API', async () => {
    const [id, other] = await created(2);
    expect((await control(`/rfqs/${id}/break`, { field: 'lines.0.qty', value: 'lots' })).status).toBe(200);
    const { rfqs } = await get('/v1/rfqs?status=open');
    expect(rfqs.find((r: { _id: number }) => r._id === id).lines['0'].qty).toBe('lots');
    expect(rfqs.find((r: { _id: number }) => r._id === other).lines['0'].qty).toBe('5');
    const q = env.sandbox.control.submitQuotation(id!, { sup_name: 'C', prices: ['1'] });
    env.sandbox.control.breakField(id!, `quotations.${q.quotation_key}.quotation_date`, 'soon');
    expect((await get(`/v1/quotations/${id}`))[String(q.quotation_key)].quotation_date).toBe('soon');
    expect((await control(`/rfqs/${id}/break`, { value: 1 })).status).toBe(400);
  });
});
