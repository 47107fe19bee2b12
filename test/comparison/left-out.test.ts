/**
 * A comparison written from what could be read (issue 27): fields the service wrote in a shape that could not be
 * read are named in the Notes with their reason; those that could change the award keep it a DRAFT (no award file),
 * the others do not. The older shapes' other words reach the notes: success / unsuccess, invited suppliers, the
 * name of a document rather than its stored file's.
 */
import { describe, expect, it } from 'vitest';
import { buildComparison } from '../../src/comparison/index.ts';
import { documentNames } from '../../src/comparison/stages/index.ts';
import type { ComparisonInput } from '../../src/comparison/index.ts';
import { GENERATED_AT, makeRfq, quote } from './fixtures.ts';

const rfq = makeRfq([
  { ext: 'E1', product: 'Bolt', qty: 10, est: '100' },
  { ext: 'E2', product: 'Nut', qty: 20, est: '60' },
]);
const decided = [
  quote('1', 'Low', { L1: '9', L2: '2' }, { status: 'qualified', statusWord: 'success' }),
  quote('comp_2', 'High', { L1: '11', L2: '3' }, { status: 'not qualified', statusWord: 'unsuccess' }),
];
const input = (over: Partial<ComparisonInput> = {}): ComparisonInput => ({
  rfq,
  state: 'closed',
  quotations: decided,
  generatedAt: GENERATED_AT,
  ...over,
});
const notes = (i: ComparisonInput) => buildComparison(i).notes.map((n) => `${n.topic}: ${n.text}`);

describe('parts left out unread', () => {
  it('everything readable and decided: final, and the notes say how success / unsuccess were read', () => {
    const m = buildComparison(input());
    expect(m.award).toMatchObject({ final: true, finalBecause: 'all-decided' });
    expect(m.award.blockedBy).toBeUndefined();
    expect(notes(input()).join('\n')).toContain(
      'Qualification: The service gave quotation statuses as success / unsuccess (an older form of its interface), read as qualified / not qualified',
    );
  });

  it("a line's quantity left out: named in the notes, the award a DRAFT saying why", () => {
    const broken = input({
      rfq: {
        ...rfq,
        lines: rfq.lines.map((l, i) => (i === 0 ? { ...l, qty: undefined } : l)),
        unreadable: [{ field: 'lines.0.qty', reason: 'expected an integer (was "lots")' }],
      },
    });
    const m = buildComparison(broken);
    expect(m.award.final).toBe(false);
    expect(m.award.blockedBy).toEqual(['RFQ field lines.0.qty']);
    const text = notes(broken).join('\n');
    expect(text).toContain(
      'Left out (unreadable): RFQ field lines.0.qty could not be read (expected an integer (was "lots")): left out and shown empty; it could change the award, which stays a DRAFT.',
    );
    expect(text).toMatch(
      /Award: DRAFT: part of what the service answered could not be read and could change the award \(RFQ field lines\.0\.qty; see Notes\)/,
    );
  });

  it('a due date or a revision number left out: named, the award still final', () => {
    const m = buildComparison(
      input({
        rfq: { ...rfq, due_date: undefined, unreadable: [{ field: 'due_date', reason: 'expected a date' }] },
        quotations: [
          {
            ...decided[0]!,
            revision_no: undefined,
            unreadable: [{ field: 'revision_no', reason: 'expected an integer' }],
          },
          decided[1]!,
        ],
      }),
    );
    expect(m.award.final).toBe(true);
    const text = m.notes.map((n) => n.text).join('\n');
    expect(text).toContain('RFQ field due_date could not be read (expected a date): left out and shown empty.');
    expect(text).toContain(
      'Field revision_no of quotation key 1 (Low) could not be read (expected an integer): left out.',
    );
  });

  it("a quotation's price left out: a DRAFT, even when the RFQ is completed with its winner", () => {
    const m = buildComparison(
      input({
        state: 'completed',
        winnerKey: '1',
        quotations: [
          { ...decided[0]!, unreadable: [{ field: 'quotation_detail.L2.price', reason: 'expected a decimal number' }] },
          decided[1]!,
        ],
      }),
    );
    expect(m.award.final).toBe(false);
    expect(m.award.blockedBy).toEqual(['quotation key 1 (Low) field quotation_detail.L2.price']);
  });

  it('a quotation date left out blocks the award only where prices tie for the lowest', () => {
    const undated = {
      ...decided[0]!,
      quotation_date: undefined,
      unreadable: [{ field: 'quotation_date', reason: 'x' }],
    };
    expect(buildComparison(input({ quotations: [undated, decided[1]!] })).award.final).toBe(true);
    const tie = quote('3', 'Same', { L1: '9', L2: '2' }, { status: 'qualified' });
    expect(buildComparison(input({ quotations: [undated, decided[1]!, tie] })).award.final).toBe(false);
  });

  it('invited suppliers are listed, with whether a quotation came under their name', () => {
    const text = notes(
      input({
        rfq: {
          ...rfq,
          invitations: [
            { sup_name: 'Low', sup_email: 'low@example.invalid', status: 'pending' },
            { sup_name: 'Quiet Co', status: 'pending' },
            { sup_id: '4' },
          ],
        },
      }),
    ).join('\n');
    expect(text).toContain(
      'Invited suppliers: Low <low@example.invalid>: invitation pending; a quotation under this name was received.',
    );
    expect(text).toContain('Invited suppliers: Quiet Co: invitation pending; no quotation under this name.');
    expect(text).toContain(
      'Invited suppliers: supplier id 4: invitation status not given; no quotation under this name.',
    );
  });

  it("a document's name before its stored file's (the older {file_name, doc_name})", () => {
    expect(documentNames([{ file_name: '18ced9e0568fa564ccc5495480e58e04.jpg', doc_name: 'Arm_Astalos.jpg' }])).toEqual(
      ['Arm_Astalos.jpg'],
    );
  });
});
