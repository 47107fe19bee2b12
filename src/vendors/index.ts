/** The account's vendor directory: its store in Redis and the category check of requisitions against it. */
export { categoryChecker } from './category-check.ts';
export { categoryCounts, followersOf, readable, type VendorDirectory } from './vendor-directory.ts';
export { type VendorPort, vendorStore } from './vendor-store.ts';
