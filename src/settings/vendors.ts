/**
 * Settings: The account's vendor directory and what it checks.
 * Part of the one configuration schema (src/settings/config.ts); each default is documented above its field, and the table
 * of docs/operations.md is generated from these comments (scripts/config-doc.ts).
 */
import { z } from 'zod';
import { int } from './fields.ts';

export const vendorSettings = {
  /**
   * What ingestion does with a requisition whose rfq_category no vendor of the account follows (its RFQ would reach no
   * supplier): `hold` keeps it back (row error in the file report, `status`), `warn` sends it with a warning (file
   * report, log, `status`), `off` does not look. Checked only while the vendor directory is readable (read at most
   * hourly with the poll); a service without one is never blocked. With `hold`, an ingest that finds no directory
   * read yet reads it first (CATEGORY_CHECK_WAIT_MS) and, when it cannot, holds the file in the inbox until it is
   * read: never sent unchecked. Default `warn`.
   */
  CATEGORY_CHECK: z.enum(['hold', 'warn', 'off']).default('warn'),
  /**
   * With CATEGORY_CHECK=hold, how long an ingest that finds no vendor directory read yet (a new installation) waits
   * to read it, ms; a file whose directory is still unread then is held in the inbox (report, `status`) and read
   * once the directory is. Default 30,000.
   */
  CATEGORY_CHECK_WAIT_MS: int(100, 600_000).default(30_000),
};
