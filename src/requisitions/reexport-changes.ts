/**
 * What a re-export changes in a requisition whose RFQ exists: lines (product, specification, uom, qty, estimated
 * price; the service cannot update them) and the header (title, dates, description; pushed with the edit call where
 * PUSH_HEADER_CHANGES allows). One comparison for the create job (which acts on it) and for the ingest report and
 * `status` (which tell people).
 */
import type { ReportedChange } from '../ingest/index.ts';
import type { Requisition, RequisitionLine } from '../core/index.ts';
import { headerChanges, headerOf, type HeaderChange, type PostedHeader } from './header.ts';
import { lineFingerprint, type LineFingerprint } from './record.ts';
import type { RequisitionRecords } from './requisition-records.ts';
import { requisitionId } from '../redis/index.ts';
import { toCreateRfqRequest } from './rfq-body.ts';

const FIELDS = ['product_name', 'specification', 'uom', 'qty', 'estimated_price'] as const;

export interface LineFieldChange {
  externalId: string;
  fields: Array<{ field: string; was: string | number | null; now: string | number | null }>;
}

/** The lines of `lines` that differ from what the RFQ holds (`inRfq`: external_id -> fingerprint as created). */
export function lineChanges(
  inRfq: Record<string, LineFingerprint>,
  lines: readonly RequisitionLine[],
): LineFieldChange[] {
  const out: LineFieldChange[] = [];
  for (const line of lines) {
    const was = inRfq[line.external_id];
    if (!was) continue;
    const now = lineFingerprint(line);
    const fields = FIELDS.flatMap((field, i) =>
      was[i] === now[i] ? [] : [{ field, was: was[i] ?? null, now: now[i] ?? null }],
    );
    if (fields.length > 0) out.push({ externalId: line.external_id, fields });
  }
  return out;
}

/** One row of the Changes sheet of an ingest report (the report's own type). */
export type ReexportChange = ReportedChange;

/**
 * The changes this re-export of `r` brings, against the record of its RFQ (none when it has no RFQ yet). Read-only:
 * the create job decides and records; this tells the person reading the file's report.
 */
export async function previewChanges(
  store: Pick<RequisitionRecords, 'get'>,
  r: Requisition,
  pushHeaders: boolean,
): Promise<ReexportChange[]> {
  const rec = await store.get(requisitionId(r));
  if (rec?.state !== 'created' || rec.rfqId === undefined) return [];
  const rfqId = rec.rfqId;
  const out: ReexportChange[] = [];
  for (const c of lineChanges(rec.lines, r.lines)) {
    for (const f of c.fields)
      out.push({
        requisition: requisitionId(r),
        rfqId,
        subject: c.externalId,
        ...f,
        action: 'reported: the service cannot change a line; change it there by hand',
      });
  }
  const header: HeaderChange[] = rec.header
    ? headerChanges(rec.header as PostedHeader, headerOf(toCreateRfqRequest(r)))
    : [];
  for (const h of header) {
    out.push({
      requisition: requisitionId(r),
      rfqId,
      subject: 'header',
      field: h.field,
      was: h.was,
      now: h.now,
      action: pushHeaders
        ? 'pushed with the edit call where the service has one (see status)'
        : 'reported (PUSH_HEADER_CHANGES is off): change it there by hand',
    });
  }
  return out;
}
