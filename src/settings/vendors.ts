/**
 * Settings: The account's vendor directory and what it checks.
 * Part of the one configuration schema (src/config.ts); each default is documented above its field, and the table
 * of docs/operations.md is generated from these comments (app/config-doc.ts).
 */
import { z } from 'zod';

export const vendorSettings = {
  /**
   * What ingestion does with a requisition whose rfq_category no vendor of the account follows (its RFQ would reach no
   * supplier): `hold` keeps it back (row error in the file report, `status`), `warn` sends it with a warning (file
   * report, log, `status`), `off` does not look. Checked only while the vendor directory is readable (read at most
   * hourly with the poll); a service without one is never blocked. Default `warn`.
   */
  CATEGORY_CHECK: z.enum(['hold', 'warn', 'off']).default('warn'),
};
