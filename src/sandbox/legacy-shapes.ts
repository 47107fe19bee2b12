/**
 * The sandbox's `legacy` shapes (`rfq-sync sandbox --shapes legacy`): the same data as the interface's shapes
 * (render.ts), written the way older revisions of the real service's public documentation show it
 * (ralese/docs source/Apis/rfq.rst and quotation.rst):
 *   - RFQ dates in turn as `{"$date": {"$numberLong": "<ms>"}}`, `{"$date": "<ISO time>"}`, a number of ms and a
 *     string of ms (the form follows the RFQ and the field, so every form is met on every page);
 *   - an `invitation` map keyed "0","1",... of `{sup_name, contact, sup_email, sup_id, status}`, and `comp_srl`,
 *     `created_date`, `created_by`;
 *   - quotations as an object keyed by quotation key (no envelope when there are some), each with `sup_id` instead
 *     of `quotation_key`, `quotation_date` as a JavaScript date text at GMT+0700 (`Fri May 05 2017 17:26:41
 *     GMT+0700 (SE Asia Standard Time)`, seconds only) or as `{"$date": ...}`, documents and attachments as
 *     "0"-keyed objects of `{file_name, doc_name}`, and statuses `success` / `unsuccess` for qualified / not
 *     qualified.
 */
import { createHash } from 'node:crypto';
import { renderQuotation, renderRfq } from './render.ts';
import type { StoredQuotation, StoredRfq } from './store.ts';

const DATE_FIELDS = ['rfq_date', 'due_date', 'required_date', 'created_date'] as const;

/** One of the four wire forms of a date, chosen by `turn`. */
function legacyDate(ms: number, turn: number): unknown {
  switch (turn % 4) {
    case 0:
      return { $date: { $numberLong: String(ms) } };
    case 1:
      return { $date: new Date(ms).toISOString() };
    case 2:
      return ms;
    default:
      return String(ms);
  }
}

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const pad = (n: number) => String(n).padStart(2, '0');

/** `Fri May 05 2017 17:26:41 GMT+0700 (SE Asia Standard Time)`: what JavaScript's Date#toString wrote there. */
export function jsDateText(ms: number): string {
  const d = new Date(ms + 7 * 3_600_000);
  return `${DAYS[d.getUTCDay()]} ${MONTHS[d.getUTCMonth()]} ${pad(d.getUTCDate())} ${d.getUTCFullYear()} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} GMT+0700 (SE Asia Standard Time)`;
}

/** Documents as the older example writes them: `{"0": {file_name, doc_name}}` (a stored hash name, the name shown). */
function legacyDocs(docs: unknown[]): Record<string, { file_name: string; doc_name: string }> {
  const out: Record<string, { file_name: string; doc_name: string }> = {};
  docs.forEach((d, i) => {
    const o = d && typeof d === 'object' ? (d as Record<string, unknown>) : {};
    const name = typeof o.name === 'string' ? o.name : typeof d === 'string' ? d : `document-${i + 1}.pdf`;
    const ext = /\.[A-Za-z0-9]{1,5}$/.exec(name)?.[0] ?? '';
    const stored = createHash('md5').update(`${name}:${i}`).digest('hex');
    out[String(i)] = { file_name: `${stored}${ext}`, doc_name: name };
  });
  return out;
}

export function renderRfqLegacy(r: StoredRfq, breakSchema: boolean, echoExternalId: boolean): Record<string, unknown> {
  const base = renderRfq(r, breakSchema, echoExternalId);
  const dates: Record<string, number | undefined> = {
    rfq_date: r.rfq_date,
    due_date: Number(r.due_date),
    required_date: r.required_date === undefined ? undefined : Number(r.required_date),
    created_date: r.rfq_date,
  };
  const out: Record<string, unknown> = { ...base };
  DATE_FIELDS.forEach((f, i) => {
    const ms = dates[f];
    if (ms !== undefined && Number.isSafeInteger(ms)) out[f] = legacyDate(ms, r._id + i);
  });
  const invitation: Record<string, unknown> = {};
  (r.invitations ?? []).forEach((inv, i) => {
    invitation[String(i)] = {
      sup_name: inv.sup_name,
      contact: inv.contact ?? '',
      sup_email: inv.sup_email ?? '',
      sup_id: String(inv.sup_id),
      status: inv.status,
    };
  });
  return {
    ...out,
    invitation,
    comp_srl: String(32),
    created_by: 'buyer@sandbox.invalid',
  };
}

/** One quotation in the older example's shape (without its key: the answer is keyed by it). */
function legacyQuotation(q: StoredQuotation, breakSchema: boolean): Record<string, unknown> {
  const { quotation_key, ...base } = renderQuotation(q, breakSchema);
  const key = String(quotation_key);
  const detail: Record<string, unknown> = {};
  for (const [lineId, d] of Object.entries(q.detail)) detail[lineId] = { price: d.price, docs: legacyDocs(d.docs) };
  return {
    sup_id: key.replace(/^comp_/, ''),
    ...base,
    quotation_date: q.revision_no % 2 === 0 ? jsDateText(q.quotation_date) : legacyDate(q.quotation_date, 0),
    quotation_detail: detail,
    quotation_attachment: legacyDocs(q.attachments),
    ...(q.status !== undefined ? { status: q.status === 'qualified' ? 'success' : 'unsuccess' } : {}),
  };
}

/**
 * The answer to GET /v1/quotations/<id>: the bare object keyed by quotation key when there are quotations (the
 * older example), else the interface's envelope with an empty keyed object.
 */
export function renderQuotationsLegacy(
  rfqId: number,
  list: StoredQuotation[],
  breakSchema: () => boolean,
  pickFields: (o: Record<string, unknown>) => Record<string, unknown>,
): Record<string, unknown> {
  if (list.length === 0) return { rfq: { id: rfqId }, quotations: {} };
  return Object.fromEntries(list.map((q) => [String(q.quotation_key), pickFields(legacyQuotation(q, breakSchema()))]));
}
