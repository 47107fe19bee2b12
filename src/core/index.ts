/**
 * The building blocks every folder may use: the error catalogue, the logger, time zones, text folding, spreadsheet-safe
 * and terminal-safe text, atomic writes and the requisition type.
 */
export {
  removeStaleTemps,
  safeFileName,
  writeAtomically,
  writeFileAtomically,
  writeNewFileAtomically,
} from './atomic-write.ts';
export {
  AttemptBusyError,
  AuditUnwritableError,
  AuthError,
  ClaimConflictError,
  ConfigError,
  CrossDeviceError,
  DiskFullError,
  errorFromHttpStatus,
  FileNotHereError,
  FileRefusedError,
  formatRowProblem,
  InvalidRequestError,
  InvalidResponseError,
  isRetryablePageError,
  MappingError,
  MAX_ERROR_BODY_CHARS,
  noRedisServer,
  NotifyError,
  NotifyStoppedError,
  PermanentHttpError,
  ProfileBrokenError,
  RateLimitError,
  ReconcileUnstableError,
  redisPortTaken,
  redisServerSilent,
  RedisUnfitError,
  redisUnreachable,
  ReplicationLagError,
  rfqNotFound,
  rfqNotListed,
  RfqSyncError,
  type RowProblem,
  LookupRefusedError,
  SandboxError,
  SheetNotFoundError,
  ThrottledError,
  TransientHttpError,
  UnexpectedError,
  VendorXrefError,
  WorkbookPartError,
} from './errors.ts';
export { loadExcelJS } from './exceljs-loader.ts';
export { foldText } from './fold-text.ts';
export { createLogger, type Logger, registerSecret, scrubSecrets, silentLogger } from './logger.ts';
export type { Requisition, RequisitionLine } from './requisition.ts';
export { safeCellText, safeCsvField } from './spreadsheet-safety.ts';
export { terminalLines, terminalText } from './terminal-text.ts';
export {
  canonicalTimeZone,
  daysLaterAt,
  isValidTimeZone,
  minuteText,
  type WallClock,
  wallClockAt,
  wallDate,
  wallToUtc,
  zoneOffsetLabel,
} from './time-zone.ts';
export { InvalidJobPayloadError } from './errors.ts';
