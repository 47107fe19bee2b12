/**
 * What the comparison was written without: fields of the RFQ or of a quotation that the service wrote in a shape
 * that could not be read (src/sourcing/field-tolerant-parse.ts). Each goes to the notes with its reason; those
 * that could change the award keep it a DRAFT (no award file), whatever else is decided:
 *   - a line's quantity (line totals, supplier totals, the single-supplier award);
 *   - a quotation's prices (`quotation_detail`, or one line's entry or price in it) and its qualification `status`;
 *   - a quotation's date where prices tie for the lowest (the earlier quotation wins a tie).
 * Other fields (texts, estimates, documents, the revision number, other dates) are shown empty and noted only.
 */
import { NoteList } from './notes.ts';
import type { ComparisonInput } from './types.ts';

const RFQ_BLOCKS = /^lines\.\d+\.qty$/;
const QUOTATION_BLOCKS = /^(quotation_detail(\..*)?|status)$/;

export interface LeftOut {
  notes: NoteList;
  /** The left-out fields that could change the award, as the notes name them. */
  couldChangeAward: string[];
}

export function leftOutParts(input: ComparisonInput, ties: boolean): LeftOut {
  const notes = new NoteList('Left out (unreadable)');
  const couldChangeAward: string[] = [];
  for (const u of input.rfq.unreadable ?? []) {
    const blocks = RFQ_BLOCKS.test(u.field);
    if (blocks) couldChangeAward.push(`RFQ field ${u.field}`);
    notes.add(
      `RFQ field ${u.field} could not be read (${u.reason}): left out and shown empty${blocks ? '; it could change the award, which stays a DRAFT' : ''}.`,
    );
  }
  for (const q of input.quotations) {
    const who = `quotation key ${q.quotation_key}${q.sup_name ? ` (${q.sup_name})` : ''}`;
    for (const u of q.unreadable ?? []) {
      const blocks = QUOTATION_BLOCKS.test(u.field) || (u.field === 'quotation_date' && ties);
      if (blocks) couldChangeAward.push(`${who} field ${u.field}`);
      notes.add(
        `Field ${u.field} of ${who} could not be read (${u.reason}): left out${blocks ? '; it could change the award, which stays a DRAFT' : ''}.`,
      );
    }
  }
  return { notes, couldChangeAward };
}

/** What the notes say of the service's other words and lists: `success` / `unsuccess`, invited suppliers. */
export function serviceWordNotes(input: ComparisonInput): NoteList[] {
  const words = new NoteList('Qualification');
  const said = new Set(input.quotations.map((q) => q.statusWord).filter((w) => w !== undefined));
  if (said.size > 0)
    words.add(
      `The service gave quotation statuses as ${[...said].join(' / ')} (an older form of its interface), read as qualified / not qualified: its documentation describes this field as "qualified or not qualified". The award follows the winning quotation the service names once the RFQ is completed.`,
    );
  const invited = new NoteList('Invited suppliers');
  const quoted = new Set(input.quotations.map((q) => (q.sup_name ?? '').trim().toLowerCase()).filter(Boolean));
  for (const i of input.rfq.invitations ?? []) {
    const name = i.sup_name ?? (i.sup_id !== undefined ? `supplier id ${i.sup_id}` : 'unnamed supplier');
    const answered = i.sup_name !== undefined && quoted.has(i.sup_name.trim().toLowerCase());
    invited.add(
      `${name}${i.sup_email ? ` <${i.sup_email}>` : ''}: invitation ${i.status ?? 'status not given'}; ${answered ? 'a quotation under this name was received' : 'no quotation under this name'}.`,
    );
  }
  return [words, invited];
}
