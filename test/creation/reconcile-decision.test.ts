/**
 * The reconcile's decisions as tables (src/creation/fingerprint.ts, reconcile-decision.ts, adoption.ts): pure, no
 * Redis, no HTTP. What a listed RFQ is to a body we posted; adopt, park or post from a walk's candidates; and which
 * lines an adopted RFQ holds, taken from what was posted.
 */
import { describe, expect, it } from 'vitest';
import { adoptedLines } from '../../src/creation/adoption.ts';
import { matchListed, postedBodyOf } from '../../src/creation/fingerprint.ts';
import type { PostedBody } from '../../src/requisitions/record.ts';
import {
  CLOCK_SKEW_MS,
  candidatesOf,
  byTitle,
  decideByBody,
  decideByExternalId,
  type Candidate,
  type KnownBodies,
  type PendingEntry,
} from '../../src/creation/reconcile-decision.ts';
import type { CreateRfqRequest, ListedRfq } from '../../src/sourcing/types.ts';

const DUE = 1_924_992_000_000;
const body = (over: Partial<CreateRfqRequest> = {}): CreateRfqRequest => ({
  title: 'Office  supplies  PR-1',
  due_date: String(DUE),
  rfq_type: 'Public',
  rfq_category: 'Stationery',
  lines: [
    {
      product_name: 'Copy paper  A4',
      specification: '80 g',
      uom: 'Pkg',
      qty: 5,
      estimated_price: 2000,
      external_id: 'pr-1-a',
    },
    { product_name: 'Toner', uom: 'pcs', qty: 1, estimated_price: 9000, external_id: 'pr-1-b' },
  ],
  ...over,
});
/** The RFQ as a list shows what was posted: numbers as the parser gives them, no external_ids. */
function listed(b: CreateRfqRequest, id = 1, over: Partial<ListedRfq> = {}): ListedRfq {
  return {
    _id: id,
    title: b.title,
    due_date: Number(b.due_date),
    rfq_type: b.rfq_type,
    rfq_category: b.rfq_category,
    rfq_date: DUE - 10 * 86_400_000,
    lines: b.lines.map((l, position) => ({
      position,
      line_id: `${id}-${position}`,
      product_name: l.product_name,
      specification: l.specification ?? '',
      uom: l.uom ?? '',
      qty: l.qty,
      ...(l.estimated_price !== undefined ? { estimated_price: String(l.estimated_price) } : {}),
      docs: {},
    })),
    ...over,
  };
}
const posted = postedBodyOf(body());
const rewrite = (r: ListedRfq, f: (l: ListedRfq['lines'][number]) => Partial<ListedRfq['lines'][number]>) => ({
  ...r,
  lines: r.lines.map((l) => ({ ...l, ...f(l) })),
});

describe('a listed RFQ against a body we posted (fingerprint.ts)', () => {
  const base = listed(body());
  it.each<[string, ListedRfq, 'exact' | 'near' | 'none']>([
    ['as posted', base, 'exact'],
    [
      'units upper-cased, spaces collapsed',
      rewrite({ ...base, title: 'Office supplies PR-1' }, (l) => ({
        uom: l.uom?.toUpperCase(),
        product_name: l.product_name?.replace(/\s+/g, ' '),
      })),
      'exact',
    ],
    ['product names upper-cased', rewrite(base, (l) => ({ product_name: l.product_name?.toUpperCase() })), 'exact'],
    ['estimated_price left out of the list', rewrite(base, () => ({ estimated_price: undefined })), 'exact'],
    [
      'amounts in another decimal form',
      rewrite(base, (l) => ({ estimated_price: `${l.estimated_price}.00` })),
      'exact',
    ],
    ['a required date the service filled in', { ...base, required_date: DUE }, 'exact'],
    ['the lines left out of the list', { ...base, lines: [] }, 'near'],
    ['a quantity differs', rewrite(base, (l) => ({ qty: l.position === 1 ? 2 : l.qty })), 'near'],
    [
      'a specification differs',
      rewrite(base, (l) => ({ specification: l.position === 0 ? '90 g' : l.specification })),
      'near',
    ],
    ['the category differs', { ...base, rfq_category: 'IT' }, 'near'],
    ['another title', { ...base, title: 'Office supplies PR-2' }, 'none'],
    ['another number of lines', { ...base, lines: base.lines.slice(0, 1) }, 'none'],
    ['no title listed', { ...base, title: undefined }, 'none'],
  ])('%s: %s', (_what, r, want) => {
    expect(matchListed(r, posted)).toBe(want);
  });

  it('fingerprints fold what services rewrite: one per distinct body', () => {
    const same = postedBodyOf(body({ title: 'OFFICE SUPPLIES PR-1' }));
    expect(same.fp).toBe(posted.fp);
    expect(postedBodyOf(body({ title: 'Office supplies PR-2' })).fp).not.toBe(posted.fp);
    expect(same.near).toBe(posted.near);
  });
});

const FIRST_POST = DUE - 10 * 86_400_000;
function pending(id: string, b: PostedBody = posted, over: Partial<PendingEntry> = {}): PendingEntry {
  return {
    id,
    externalIds: b.lines.map((l) => l.external_id),
    posted: [b],
    since: FIRST_POST + 10_000,
    firstPostAt: FIRST_POST,
    requisition: {
      key: id,
      sourceFile: 'x.csv',
      profile: 'generic',
      title: b.title,
      due_date: DUE,
      rfq_type: 'Public',
      lines: [],
    },
    ...over,
  };
}
const cand = (rfq: ListedRfq, match: 'exact' | 'near', claimants: string[] = []): Candidate => ({
  rfq,
  match,
  body: posted,
  claimants,
});

describe('adopt, park or post from a walk of settled lists (decideByBody)', () => {
  const mine = listed(body(), 7, { rfq_date: FIRST_POST + 500 });
  const nearOne = rewrite(listed(body(), 8, { rfq_date: FIRST_POST + 900 }), (l) => ({ qty: (l.qty ?? 0) + 1 }));
  it.each<[string, Candidate[], string, RegExp | number | undefined]>([
    ['nothing like it: absent, post again', [], 'absent', undefined],
    ['one exact, made since our first POST: adopt it', [cand(mine, 'exact')], 'found', 7],
    [
      'two exact: park',
      [cand(mine, 'exact'), cand({ ...mine, _id: 9 }, 'exact')],
      'ambiguous',
      /2 RFQs match what was posted: 7, 9/,
    ],
    [
      'one exact another requisition also posted: park, naming both',
      [cand(mine, 'exact', ['generic/PR-2'])],
      'ambiguous',
      /matches what was posted for generic\/PR-1, generic\/PR-2/,
    ],
    [
      'one exact made before our first POST (by hand?): park',
      [cand({ ...mine, rfq_date: FIRST_POST - CLOCK_SKEW_MS - 1 }, 'exact')],
      'ambiguous',
      /before our first POST/,
    ],
    [
      'one exact and a near one made since: park',
      [cand(mine, 'exact'), cand(nearOne, 'near')],
      'ambiguous',
      /RFQ 8 looks like what was posted/,
    ],
    [
      'a near one made since our first POST: park, never absent',
      [cand(nearOne, 'near')],
      'ambiguous',
      /RFQ 8 looks like what was posted \(same title and line count\)/,
    ],
    [
      'a near one without its lines listed: park',
      [cand({ ...nearOne, lines: [] }, 'near')],
      'ambiguous',
      /lines not listed/,
    ],
    [
      'a near one made long before our first POST: not ours, absent',
      [cand({ ...nearOne, rfq_date: FIRST_POST - CLOCK_SKEW_MS - 1 }, 'near')],
      'absent',
      undefined,
    ],
    [
      "a near one that is exactly another requisition's body: theirs, absent",
      [cand(nearOne, 'near', ['generic/PR-3'])],
      'absent',
      undefined,
    ],
  ])('%s', (_what, cs, outcome, detail) => {
    const res = decideByBody(1, pending('generic/PR-1'), cs);
    expect(res.outcome).toBe(outcome);
    if (res.outcome === 'found')
      expect([res.rfq._id, res.how, res.body?.fp]).toEqual([detail, 'fingerprint', posted.fp]);
    if (res.outcome === 'ambiguous') expect(res.reason).toMatch(detail as RegExp);
  });

  it('candidates: by title, folded; claimants from every known requisition that posted the same, registered or not', () => {
    const x = pending('generic/X');
    const yBody = postedBodyOf(body({ rfq_category: 'Office' })); // same title and lines, another category
    const known: KnownBodies = (near) =>
      near === posted.near
        ? [
            { id: 'generic/X', posted: [posted] },
            { id: 'generic/Y', posted: [yBody] }, // in back-off, not registered with this walk
          ]
        : [];
    const ofY = listed(body({ rfq_category: 'Office' }), 21, { rfq_date: FIRST_POST + 100 });
    const ofXY = { ...listed(body(), 22, { rfq_date: FIRST_POST + 100 }), rfq_category: undefined }; // lists no category
    const titled = byTitle([ofY, { ...ofY, _id: 23, title: 'Something else' }]);
    // Y's RFQ is near to X (another category) but exactly Y's: not X's, not ambiguous for X
    expect(candidatesOf(x, titled, known)).toEqual([
      { rfq: ofY, match: 'near', body: posted, claimants: ['generic/Y'] },
    ]);
    expect(decideByBody(1, x, candidatesOf(x, titled, known)).outcome).toBe('absent');
    // an RFQ that shows nothing to tell X's from Y's: both claim it, parked
    const both = candidatesOf(x, byTitle([ofXY]), known);
    expect(both[0]?.claimants).toEqual(['generic/Y']);
    expect(decideByBody(1, x, both)).toMatchObject({ outcome: 'ambiguous', rfqIds: [22] });
  });
});

describe('by external_id (decideByExternalId)', () => {
  const withExt = (id: number, ext: string[]): ListedRfq => ({
    _id: id,
    lines: ext.map((e, position) => ({ position, line_id: `${id}-${position}`, external_id: e, docs: {} })),
  });
  const a = pending('generic/A');
  const b = pending('generic/B', postedBodyOf(body({ lines: [{ ...body().lines[0]!, external_id: 'pr-2-a' }] })));
  it.each<[string, ListedRfq[], Record<string, string>]>([
    ['its ids, as listed', [withExt(5, ['pr-1-a', 'pr-1-b'])], { 'generic/A': 'found 5' }],
    ['its ids rewritten (upper-cased, padded)', [withExt(5, [' PR-1-A', 'PR-1-B '])], { 'generic/A': 'found 5' }],
    ["another system's ids only", [withExt(5, ['x-1'])], {}],
    [
      'two RFQs carry its ids: park',
      [withExt(5, ['pr-1-a']), withExt(6, ['pr-1-b'])],
      { 'generic/A': 'ambiguous 5,6' },
    ],
    [
      "one RFQ carries two requisitions' ids: park both",
      [withExt(5, ['pr-1-a', 'PR-2-A'])],
      { 'generic/A': 'ambiguous 5', 'generic/B': 'ambiguous 5' },
    ],
  ])('%s', (_what, rfqs, want) => {
    const got = Object.fromEntries(
      [...decideByExternalId(1, [a, b], rfqs)].map(([id, r]) => [
        id,
        r.outcome === 'found'
          ? `found ${r.rfq._id}`
          : r.outcome === 'ambiguous'
            ? `ambiguous ${r.rfqIds.join(',')}`
            : r.outcome,
      ]),
    );
    expect(got).toEqual(want);
  });
});

describe('the lines of an adopted RFQ come from what was posted (adoptedLines)', () => {
  // [a, b] posted, the answer lost; [c, a, b] re-exported and reconciling first
  const reexport = [
    { external_id: 'pr-1-c', product_name: 'Stapler', qty: 1, row: 2 },
    { external_id: 'pr-1-a', product_name: 'Copy paper A4', uom: 'Pkg', qty: 7, estimated_price: 2800, row: 3 },
    { external_id: 'pr-1-b', product_name: 'Toner', uom: 'pcs', qty: 1, estimated_price: 9000, row: 4 },
  ];
  const rfq = listed(body(), 31);
  it("found by the body posted: line i is that body's line i, whatever the export reconciling now holds", () => {
    const lines = adoptedLines(
      { walkStartedAt: 1, outcome: 'found', rfq, how: 'fingerprint', body: posted },
      [posted],
      reexport,
    );
    expect(lines.map((l) => [l.line.external_id, l.position, l.line.qty])).toEqual([
      ['pr-1-a', 0, 5],
      ['pr-1-b', 1, 1],
    ]);
  });

  it('found by external_id (rewritten by the service): each line by its own id, in our spelling, as posted', () => {
    const echoed = { ...rfq, lines: rfq.lines.map((l, i) => ({ ...l, external_id: i === 0 ? 'PR-1-A' : ' pr-1-b' })) };
    const lines = adoptedLines(
      { walkStartedAt: 1, outcome: 'found', rfq: echoed, how: 'external_id' },
      [posted],
      reexport,
    );
    expect(lines.map((l) => [l.line.external_id, l.position, l.line.qty])).toEqual([
      ['pr-1-a', 0, 5],
      ['pr-1-b', 1, 1],
    ]);
  });
});
