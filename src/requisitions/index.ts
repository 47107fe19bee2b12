/**
 * The requisition as rfq-sync posts and records it: the create request built from it, its record in Redis (read
 * here by the later stages; creation's claim and post protocol writes it), and what a re-export changes against it.
 */
export {
  headerChanges,
  headerOf,
  type HeaderChange,
  type HeaderField,
  type HeaderOutcome,
  type PostedHeader,
} from './header.ts';
export {
  lineFingerprint,
  type LineChange,
  type LineFingerprint,
  type PostedBody,
  type PostedLine,
  type RequisitionRecord,
  type RequisitionState,
} from './record.ts';
export { lineChanges, previewChanges, type ReexportChange } from './reexport-changes.ts';
export { requisitionRecords, type RequisitionRecords } from './requisition-records.ts';
export { toCreateRfqRequest } from './rfq-body.ts';
