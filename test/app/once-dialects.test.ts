/**
 * `rfq-sync once` against each dialect of the service, as the real service was tried: three ERP exports, an account
 * holding 300 hand-made RFQs, pages of 10, and a quarter of the creates committed then answered 502. `once` finishes
 * (exit 0) and every requisition has exactly one RFQ; the docs dialect's capitalised filter is the one detected.
 */
import { onceAgainstDialect } from './once-dialects.ts';

// the docs dialect: once-dialects-docs.test.ts (a file each, so they run side by side)
onceAgainstDialect('friendly', 'lower');
