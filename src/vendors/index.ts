/**
 * The account's vendor directory: its store in Redis and the category check of requisitions against it; the suppliers
 * seen in quotations and the draft of the ERP's vendor cross-reference made from both.
 */
export { categoryChecker } from './category-check.ts';
export { categoryCounts, followersOf, readable, type VendorDirectory } from './vendor-directory.ts';
export { type VendorPort, vendorStore } from './vendor-store.ts';
export { noteSuppliersSeen, suppliersSeen } from './suppliers-seen.ts';
export { type DraftRow, xrefDraftCsv, xrefDraftRows } from './xref-draft.ts';
