/**
 * The ERP's own purchase-order import files from a final award (docs/erp-outputs.md): output profiles (declarative
 * YAML in erp-outputs/, the mirror of mapping profiles) with their format (CSV in any encoding and number style,
 * xlsx, a zip of CSVs), record structure, grouping into POs and columns from a vocabulary of award fields; the vendor
 * cross-reference from the service's suppliers to the ERP's vendors. Pure apart from reading its files.
 */
export type { ErpAward, ErpAwardLine } from './award.ts';
export {
  loadErpOutputs,
  planErpFiles,
  profileFolder,
  type ErpConfig,
  type ErpOutputs,
  type ErpPlan,
  type PlannedFile,
} from './erp-outputs.ts';
export type { ErpProfile } from './output-profile.ts';
export type { MissingVendor } from './po-grouping.ts';
export { loadFolderProfiles, loadOutputProfiles } from './profile-files.ts';
export { foldName, openVendorXref, type VendorXref } from './vendor-xref.ts';
export { XREF_COLUMNS, XREF_OPTIONAL } from './vendor-xref-file.ts';
export { VOCABULARY } from './vocabulary.ts';
