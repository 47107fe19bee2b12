/**
 * Tolerant reading of the shapes the interface leaves loose (docs/architecture.md#where-the-interface-is-silent),
 * from hand-written answers over HTTP:
 * lines as map or array, numbers as strings or numbers, quotation_key int or comp_<n>, quotation_detail as map
 * or array; strict where the spec is strict, with the field and the RFQ named.
 */
import { describe, expect, it } from 'vitest';
import { InvalidResponseError } from '../../src/core/errors.ts';
import { useScriptedService } from './fake-service.ts';

const { answers, client } = useScriptedService('/prefix');

async function all<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

describe('listed RFQs', () => {
  it('lines as the spec map with string numbers, and as an array with plain numbers, come out the same', async () => {
    answers.set('/prefix/v1/rfqs?status=open', {
      rfqs: [
        {
          _id: 11,
          title: 'Map lines',
          rfq_no: '3',
          version: '2',
          rfq_date: '1767225600000',
          due_date: '1893456000000',
          status: 'Active',
          lines: {
            '1': {
              line_id: 'b',
              product_name: 'Nut',
              qty: '200',
              estimated_price: '30',
              each_price: '0.15',
              status: 'active',
              docs: {},
            },
            '0': {
              line_id: 'a',
              product_name: 'Bolt',
              qty: '100',
              estimated_price: '125',
              each_price: '1.25',
              status: 'active',
              external_id: 'PR1-1',
              docs: {},
            },
          },
        },
        {
          _id: '12',
          title: 'Array lines',
          rfq_no: 4,
          version: 1,
          rfq_date: 1767225600000,
          due_date: 1893456000000,
          lines: [
            {
              line_id: 'c',
              product_name: 'Bolt',
              qty: 100,
              estimated_price: 125,
              each_price: 1.25,
              external_id: 'PR2-1',
            },
            { line_id: 77, product_name: 'Washer', qty: 5, estimated_price: 0.1 },
          ],
          unknown_extra: { kept: 'out' },
        },
      ],
      links: { next: null, last: null },
      meta: { total: 2 },
    });
    const [a, b] = await all(client().listRfqs('open'));
    expect(a).toMatchObject({ _id: 11, rfq_no: 3, version: 2, rfq_date: 1767225600000, due_date: 1893456000000 });
    expect(a!.lines.map((l) => [l.position, l.line_id, l.qty, l.estimated_price, l.each_price, l.external_id])).toEqual(
      [
        [0, 'a', 100, '125', '1.25', 'PR1-1'],
        [1, 'b', 200, '30', '0.15', undefined],
      ],
    );
    expect(b).toMatchObject({ _id: 12, rfq_no: 4, version: 1, rfq_date: 1767225600000 });
    expect(b!.lines.map((l) => [l.position, l.line_id, l.qty, l.estimated_price, l.each_price])).toEqual([
      [0, 'c', 100, '125', '1.25'],
      [1, '77', 5, '0.1', undefined],
    ]);
    expect(b).not.toHaveProperty('unknown_extra');
  });

  it('a bad field is left out of its RFQ and named; a bad identity names the field and the RFQ', async () => {
    answers.set('/prefix/v1/rfqs?status=closed', {
      rfqs: [
        { _id: 21, lines: { '0': { line_id: 'a', qty: '5' } } },
        { _id: 22, lines: { '0': { line_id: 'a', qty: '5' }, '1': { line_id: 'b', qty: 'five' } } },
        { _id: 23, lines: { '0': { line_id: 'a', qty: '5' }, '1': { qty: '6' } } },
      ],
      links: {},
      meta: { total: 3 },
    });
    const bad: Array<{ rfqId?: number; field: string }> = [];
    const read = await all(client().listRfqs('closed', { onInvalid: (b) => bad.push(b) }));
    expect(read.map((r) => r._id)).toEqual([21, 22]);
    expect(read[1]!.lines.map((l) => [l.line_id, l.qty])).toEqual([
      ['a', 5],
      ['b', undefined],
    ]);
    expect(read[1]!.unreadable).toEqual([
      { field: 'lines.1.qty', reason: expect.stringMatching(/integer.*\(was "five"\)$/) },
    ]);
    expect(read[0]!.unreadable).toBeUndefined();
    expect(bad.map((b) => [b.rfqId, b.field])).toEqual([[23, 'lines.1.line_id']]);
    // without onInvalid, the record that cannot be read throws, naming the field and the RFQ
    const err = await all(client().listRfqs('closed')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InvalidResponseError);
    expect((err as InvalidResponseError).rfqId).toBe(23);
    expect((err as InvalidResponseError).field).toBe('lines.1.line_id');
    expect((err as Error).message).toContain('field lines.1.line_id of RFQ 23');
  });

  it('an RFQ without a usable _id is named by its place in the list', async () => {
    answers.set('/prefix/v1/rfqs?status=cancelled', { rfqs: [{ title: 'no id', lines: [] }], links: {} });
    const err = (await all(client().listRfqs('cancelled')).catch((e: unknown) => e)) as InvalidResponseError;
    expect(err).toBeInstanceOf(InvalidResponseError);
    expect(err.field).toBe('rfqs[0] (page 1)._id');
  });

  it('a list without rfqs is an invalid response', async () => {
    answers.set('/prefix/v1/rfqs?status=completed', { data: [] });
    const err = (await all(client().listRfqs('completed')).catch((e: unknown) => e)) as InvalidResponseError;
    expect(err).toBeInstanceOf(InvalidResponseError);
    expect(err.field).toBe('rfqs');
  });
});

describe('listed RFQs: one bad RFQ among good ones', () => {
  // Two pages: the bad RFQ sits between good ones on page 1, page 2 holds one more good RFQ.
  const page1 = {
    rfqs: [
      { _id: 41, title: 'good', lines: { '0': { line_id: 'a', qty: '5' } } },
      { _id: '42', title: 'bad line', lines: { '0': { line_id: ['a'], qty: '5' } } },
      { title: 'no id at all', lines: [] },
      { _id: 43, title: 'good too', lines: [{ line_id: 'b', qty: 1 }] },
    ],
    links: { next: '/prefix/v1/rfqs?status=open&page=2', last: '/prefix/v1/rfqs?status=open&page=2' },
    meta: { total: 5 },
  };
  const page2 = { rfqs: [{ _id: 44, lines: [] }], links: { next: null, last: '/prefix/v1/rfqs?status=open&page=2' } };

  it('listRfqs yields every valid RFQ and reports each invalid one with its field and _id', async () => {
    answers.set('/prefix/v1/rfqs?status=open', page1);
    answers.set('/prefix/v1/rfqs?status=open&page=2', page2);
    const bad: Array<{ rfqId?: number; field: string; page: number; index: number; error: InvalidResponseError }> = [];
    const good = await all(client().listRfqs('open', { onInvalid: (b) => bad.push(b) }));
    expect(good.map((r) => r._id)).toEqual([41, 43, 44]);
    expect(bad.map((b) => [b.rfqId, b.field, b.page, b.index])).toEqual([
      [42, 'lines.0.line_id', 1, 1],
      [undefined, 'rfqs[2] (page 1)._id', 1, 2],
    ]);
    expect(bad[0]!.error).toBeInstanceOf(InvalidResponseError);
    expect(bad[0]!.error.message).toContain('field lines.0.line_id of RFQ 42');
  });

  it('listRfqPages keeps the invalid RFQs of each page beside the valid ones', async () => {
    answers.set('/prefix/v1/rfqs?status=open', page1);
    answers.set('/prefix/v1/rfqs?status=open&page=2', page2);
    const pages = await all(client().listRfqPages('open', { onInvalid: () => undefined }));
    expect(pages.map((p) => [p.page, p.rfqs.map((r) => r._id), (p.invalid ?? []).map((b) => b.rfqId ?? null)])).toEqual(
      [
        [1, [41, 43], [42, null]],
        [2, [44], []],
      ],
    );
  });

  it('a broken envelope still throws with onInvalid given', async () => {
    const onInvalid = () => undefined;
    answers.set('/prefix/v1/rfqs?status=closed', { rfqs: { '0': { _id: 1 } }, links: {} });
    const notArray = (await all(client().listRfqs('closed', { onInvalid })).catch(
      (e: unknown) => e,
    )) as InvalidResponseError;
    expect(notArray).toBeInstanceOf(InvalidResponseError);
    expect(notArray.field).toBe('rfqs');
    answers.set('/prefix/v1/rfqs?status=cancelled', ['not', 'an', 'object']);
    expect(await all(client().listRfqs('cancelled', { onInvalid })).catch((e: unknown) => e)).toBeInstanceOf(
      InvalidResponseError,
    );
    answers.set('/prefix/v1/rfqs?status=completed', { rfqs: [], links: { next: 42 } });
    const links = (await all(client().listRfqs('completed', { onInvalid })).catch(
      (e: unknown) => e,
    )) as InvalidResponseError;
    expect(links).toBeInstanceOf(InvalidResponseError);
    expect(links.field).toBe('links.next');
  });
});

describe('quotations', () => {
  it('quotation_detail as a map and as an array; keys int or comp_<n>; a bad field left out, a bad key set apart', async () => {
    answers.set('/prefix/v1/quotations/31', {
      rfq: { id: 31 },
      quotations: [
        {
          quotation_key: 5,
          sup_name: 'Acme',
          revision_no: 2,
          quotation_date: '1767225600000',
          notes: 'n',
          quotation_detail: { a: { price: '1.20', docs: [{ name: 'x.pdf' }] }, b: { price: '0.15', docs: [] } },
          quotation_attachment: [],
          status: 'qualified',
        },
        {
          quotation_key: 'comp_9',
          sup_name: 'Nordic',
          revision_no: '0',
          quotation_detail: [
            { line_id: 'a', price: 1.1, docs: [] },
            { line_id: 'b', price: '' },
          ],
          status: 'Not Qualified',
        },
        { quotation_key: 'comp_10', sup_name: 'Broken', quotation_detail: { a: { price: 'cheap' } } },
        { sup_name: 'No key' },
      ],
    });
    const list = await client().listQuotations(31);
    expect(list.quotations.map((q) => q.quotation_key)).toEqual(['5', 'comp_9', 'comp_10']);
    const [acme, nordic, broken] = list.quotations;
    expect(acme).toMatchObject({
      sup_name: 'Acme',
      revision_no: 2,
      quotation_date: 1767225600000,
      status: 'qualified',
    });
    expect(acme!.detail).toEqual([
      { line_id: 'a', price: '1.20', docs: [{ name: 'x.pdf' }] },
      { line_id: 'b', price: '0.15', docs: [] },
    ]);
    expect(nordic).toMatchObject({ revision_no: 0, status: 'not qualified', attachments: [] });
    expect(nordic!.detail).toEqual([
      { line_id: 'a', price: '1.1', docs: [] },
      { line_id: 'b', price: null, docs: [] },
    ]);
    // The price that cannot be read is left out and named; the quotation is still compared.
    expect(broken).toMatchObject({ sup_name: 'Broken', detail: [{ line_id: 'a', price: null, docs: [] }] });
    expect(broken!.unreadable).toEqual([
      { field: 'quotation_detail.a.price', reason: expect.stringContaining('(was "cheap")') },
    ]);
    expect(acme!.unreadable).toBeUndefined();
    expect(list.invalid).toEqual([
      { index: 3, quotation_key: undefined, reason: expect.stringContaining('quotation_key') },
    ]);
  });

  it('one quotation by key, whatever envelope the service uses for it', async () => {
    const q = { quotation_key: 'comp_9', sup_name: 'Nordic', quotation_detail: [] };
    answers.set('/prefix/v1/quotations/32/comp_9', { rfq: { id: 32 }, quotations: [q] });
    answers.set('/prefix/v1/quotations/33/comp_9', { rfq: { id: 33 }, quotation: q });
    answers.set('/prefix/v1/quotations/34/comp_9', q);
    for (const id of [32, 33, 34]) {
      const list = await client().listQuotations(id, { quotationKey: 'comp_9' });
      expect(list.quotations.map((x) => x.sup_name)).toEqual(['Nordic']);
    }
  });

  it('an answer about another RFQ is refused', async () => {
    answers.set('/prefix/v1/quotations/35', { rfq: { id: 36 }, quotations: [] });
    const err = (await client()
      .listQuotations(35)
      .catch((e: unknown) => e)) as InvalidResponseError;
    expect(err).toBeInstanceOf(InvalidResponseError);
    expect(err.field).toBe('rfq.id');
  });

  it('asks for quotation_key along with the selected fields, and status=success for the winner', async () => {
    answers.set('/prefix/v1/quotations/37?status=success&fields=quotation_key%2Csup_name%2Cquotation_detail', {
      rfq: { id: 37 },
      quotations: [{ quotation_key: 1, sup_name: 'W' }],
    });
    const list = await client().listQuotations(37, { status: 'success', fields: ['sup_name', 'quotation_detail'] });
    expect(list.quotations).toEqual([{ quotation_key: '1', sup_name: 'W', detail: [], attachments: [] }]);
  });
});
