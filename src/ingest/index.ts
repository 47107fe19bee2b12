/**
 * Reading an ERP export into requisitions: readers for every format behind one interface, recognition by content,
 * mapping profiles (docs/mapping.md), validation, grouping and the per-file report.
 */
export { ingestFile, type IngestOptions, type IngestSummary } from './ingest-file.ts';
export { MAX_REPORTED } from './row-report.ts';
export { FORMATS, sniffFile, type FileFormat, type IngestLimits, type SniffedFile } from './formats/index.ts';
export { compileProfile, normalizeHeader, type MappingProfile } from './mapping-profile.ts';
export {
  loadProfiles,
  loadProfileCatalog,
  mappingFolderHash,
  type BrokenProfile,
  type ProfileCatalog,
} from './profile-catalog.ts';
export type { RowStatus } from './requisition-grouper.ts';
export { writeIngestReport, refusedFileSummary } from './ingest-report.ts';
export { runCheck } from './check-command.ts';
export { parseNumber, type NumberFormat } from './number-format.ts';
export { parseDateText, parseDateCell, type DateFormat } from './date-format.ts';
export type { ReportedChange } from './ingest-report.ts';
export type { RequisitionCheck } from './requisition-grouper.ts';
