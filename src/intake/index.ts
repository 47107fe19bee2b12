/**
 * The watched inbox and the life of a file: taken, ledgered, held, read into requisitions and queued for creation.
 */
export { listCategoryHeldFiles } from './category-held-files.ts';
export { type HeldFile, listHeldFiles } from './held-files.ts';
export { type AdmitResult, ingestOneFile, type IntakeConfig } from './inbox-intake.ts';
export { type InboxWatcher, startInboxWatcher } from './inbox-watcher.ts';
export { type IngestResult, type IngestRunConfig, runIngest } from './ingest-run.ts';
export {
  assertIntakeFolder,
  claimIntake,
  describeFolder,
  type IntakeFolder,
  readIntakeFolder,
  takeOverIntake,
  thisFolder,
} from './intake-folder.ts';
export { currentMappingSets, type MappingSet, type MappingWatch, startMappingSetWatch } from './mapping-sets.ts';
