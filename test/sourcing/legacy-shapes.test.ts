/**
 * The older shapes of the real service's records (ralese/docs source/Apis/rfq.rst and quotation.rst, older
 * revisions), each read as a dialect of the same field, from the documentation's own examples over HTTP; and the
 * date forms one by one, with those refused because they would need a time zone guessed.
 */
import { describe, expect, it } from 'vitest';
import { readWireDate } from '../../src/sourcing/wire-dates.ts';
import { useScriptedService } from './fake-service.ts';

const { answers, client } = useScriptedService();

async function all<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

describe('dates: every documented form, the zone never guessed', () => {
  it.each([
    ['a number of ms', 1492668000613, 1492668000613],
    ['a string of ms', '1492668000613', 1492668000613],
    ['{"$date": {"$numberLong"}}', { $date: { $numberLong: '1492668000613' } }, 1492668000613],
    ['{"$date": ISO with Z}', { $date: '2017-04-20T06:00:00.613Z' }, 1492668000613],
    ['{"$date": ISO with an offset}', { $date: '2017-04-20T13:00:00.613+07:00' }, 1492668000613],
    ['{"$date": ms}', { $date: 1492668000613 }, 1492668000613],
    [
      "the older example's date text at GMT+0700",
      'Fri May 05 2017 17:26:41 GMT+0700 (SE Asia Standard Time)',
      Date.UTC(2017, 4, 5, 10, 26, 41),
    ],
    [
      'a date text at GMT-0500 without a zone name',
      'Fri May 05 2017 17:26:41 GMT-0500',
      Date.UTC(2017, 4, 5, 22, 26, 41),
    ],
  ])('%s', (_what, value, ms) => {
    expect(readWireDate(value)).toEqual({ ms });
  });

  it.each([
    ['an ISO time without a zone', { $date: '2017-04-20T06:00:00' }, /zone is never guessed/],
    ['a day', '2017-04-20', /expected Unix ms/],
    ['a date text whose weekday is wrong', 'Sat May 05 2017 17:26:41 GMT+0700', /is no Sat/],
    ['a date text without an offset', 'Fri May 05 2017 17:26:41', /expected Unix ms/],
    ['a $date of something else', { $date: { $oid: 'x' } }, /\$numberLong/],
    ['a negative number', -5, /not a date/],
  ])('refused: %s', (_what, value, reason) => {
    const r = readWireDate(value);
    expect(r && 'error' in r ? r.error : r).toMatch(reason);
  });
});

describe('the older list example (rfq.rst)', () => {
  it('extended-JSON dates, "0"-keyed lines and the invitation map are read; unknown fields pass', async () => {
    // the documentation's example, as written there (less its trailing comma)
    answers.set('/v1/rfqs', {
      rfqs: [
        {
          _id: 14,
          title: 'Indomie Rasa Ayam Bawang',
          due_date: { $date: { $numberLong: '1492668000613' } },
          required_date: { $date: { $numberLong: '1493100000783' } },
          rfq_date: { $date: { $numberLong: '1492066348215' } },
          description: 'Bumbu dari ayam yang sudah mati',
          lines: {
            '0': {
              product_name: 'Indomie',
              specification: 'Rasa Ayam Bawang',
              uom: 'Box isi 48',
              qty: '50',
              estimated_price: '2500000',
              line_id: '58ef20294a7b614c8e224322',
              each_price: '50000',
              status: 'active',
              docs: {},
            },
          },
          invitation: {
            '0': {
              sup_name: 'PT. Indofood Sukses Makmur',
              contact: 'Anthony Salim',
              sup_email: 'info@indofood.id',
              sup_id: '4',
              status: 'pending',
            },
          },
          rfq_no: 1,
          comp_srl: '32',
          comp_name: 'Indoproc',
          version: 1,
          status: 'cancelled',
          created_date: { $date: { $numberLong: '1492066345000' } },
          created_by: 'andywihalim2@gmail.com',
        },
      ],
      links: { next: null, last: null },
      meta: { total: 1 },
    });
    const [r] = await all(client().listRfqs('all'));
    expect(r).toMatchObject({
      _id: 14,
      due_date: 1492668000613,
      required_date: 1493100000783,
      rfq_date: 1492066348215,
      labelState: 'cancelled',
      invitations: [
        {
          sup_name: 'PT. Indofood Sukses Makmur',
          contact: 'Anthony Salim',
          sup_email: 'info@indofood.id',
          sup_id: '4',
          status: 'pending',
        },
      ],
    });
    expect(r!.lines).toEqual([
      expect.objectContaining({
        position: 0,
        line_id: '58ef20294a7b614c8e224322',
        qty: 50,
        estimated_price: '2500000',
      }),
    ]);
    expect(r!.unreadable).toBeUndefined();
  });
});

describe('the older quotation example (quotation.rst)', () => {
  // the documentation's example: no envelope, an object keyed by quotation key, `sup_id` instead of quotation_key
  const older = {
    '1': {
      sup_id: '1',
      sup_name: 'PT. Angkasa Beverage',
      revision_no: 0,
      quotation_date: 'Fri May 05 2017 17:26:41 GMT+0700 (SE Asia Standard Time)',
      notes: 'Test data 1',
      quotation_detail: {
        '590c4a664a7b6137ff7ba8c2': {
          price: '10000000',
          docs: { '0': { file_name: '18ced9e0568fa564ccc5495480e58e04.jpg', doc_name: 'Arm_Astalos.jpg' } },
        },
        '590c4a664a7b6137ff7ba8c3': {
          price: '18000000',
          docs: { '0': { file_name: 'e6199f0964b6e02a237d83d75007382d.jpg', doc_name: 'Arm_Gammoth.jpg' } },
        },
      },
      quotation_attachment: {
        '0': { file_name: '2e79ce72899d1112d93be41bc2577a2d.jpg', doc_name: 'Arm_Mizutsune.jpg' },
      },
      status: 'unsuccess',
    },
    comp_38: {
      sup_id: '38',
      sup_name: 'Bernard Ltd',
      revision_no: 0,
      quotation_date: 'Fri May 05 2017 17:28:37 GMT+0700 (SE Asia Standard Time)',
      notes: 'Ask us',
      quotation_detail: {
        '590c4a664a7b6137ff7ba8c2': { price: '9000000', docs: { '0': { file_name: 'a.jpg', doc_name: 'b.jpg' } } },
        '590c4a664a7b6137ff7ba8c3': { price: '12000000', docs: { '0': { file_name: 'c.jpg', doc_name: 'd.jpg' } } },
      },
      quotation_attachment: {
        '0': { file_name: 'dba262521b176f1ff37ca159178bb110.jpg', doc_name: 'Arm_Mizutsune.jpg' },
      },
      status: 'success',
    },
  };

  it('keyed by quotation key (the key, never sup_id), text dates, "0"-keyed documents, success/unsuccess', async () => {
    answers.set('/v1/quotations/90', older);
    const list = await client().listQuotations(90);
    expect(list.invalid).toEqual([]);
    const [angkasa, bernard] = list.quotations;
    expect(angkasa).toMatchObject({
      quotation_key: '1',
      sup_name: 'PT. Angkasa Beverage',
      quotation_date: Date.UTC(2017, 4, 5, 10, 26, 41),
      status: 'not qualified',
      statusWord: 'unsuccess',
      attachments: [{ file_name: '2e79ce72899d1112d93be41bc2577a2d.jpg', doc_name: 'Arm_Mizutsune.jpg' }],
    });
    expect(angkasa!.detail).toEqual([
      {
        line_id: '590c4a664a7b6137ff7ba8c2',
        price: '10000000',
        docs: [{ file_name: '18ced9e0568fa564ccc5495480e58e04.jpg', doc_name: 'Arm_Astalos.jpg' }],
      },
      {
        line_id: '590c4a664a7b6137ff7ba8c3',
        price: '18000000',
        docs: [{ file_name: 'e6199f0964b6e02a237d83d75007382d.jpg', doc_name: 'Arm_Gammoth.jpg' }],
      },
    ]);
    expect(bernard).toMatchObject({ quotation_key: 'comp_38', status: 'qualified', statusWord: 'success' });
  });

  it('the same keying inside the envelope; a record whose own key differs from the one it is filed under is set apart', async () => {
    answers.set('/v1/quotations/91', {
      rfq: { id: 91 },
      quotations: {
        '7': { sup_name: 'Seven', quotation_key: 7 },
        comp_8: { sup_name: 'Eight', quotation_key: 'comp_9' },
      },
    });
    const list = await client().listQuotations(91);
    expect(list.quotations.map((q) => [q.quotation_key, q.sup_name])).toEqual([['7', 'Seven']]);
    expect(list.invalid).toEqual([
      { index: 1, quotation_key: 'comp_8', reason: expect.stringContaining('filed under key comp_8') },
    ]);
  });

  it('an array of records with sup_id and no quotation_key: their key is not guessed from sup_id', async () => {
    answers.set('/v1/quotations/92', { rfq: { id: 92 }, quotations: [{ sup_id: '38', sup_name: 'Bernard Ltd' }] });
    const list = await client().listQuotations(92);
    expect(list.quotations).toEqual([]);
    expect(list.invalid).toEqual([
      { index: 0, quotation_key: undefined, reason: expect.stringContaining('quotation_key') },
    ]);
  });

  it('an unknown status word is left out and named: the quotation counts as undecided', async () => {
    answers.set('/v1/quotations/93', { rfq: { id: 93 }, quotations: [{ quotation_key: 1, status: 'shortlisted' }] });
    const [q] = (await client().listQuotations(93)).quotations;
    expect(q!.status).toBeUndefined();
    expect(q!.unreadable).toEqual([
      { field: 'status', reason: expect.stringContaining('expected qualified, not qualified, success or unsuccess') },
    ]);
  });
});
