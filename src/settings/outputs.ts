/**
 * Settings: What the quotations and requisitions mean in the comparison workbook, award file and overview.
 * Part of the one configuration schema (src/settings/config.ts); each default is documented above its field, and the table
 * of docs/operations.md is generated from these comments (scripts/config-doc.ts).
 */
import { z } from 'zod';
import { bool, int, timeZone } from './fields.ts';

export const outputSettings = {
  /**
   * IANA time zone of the dates and times shown in comparison workbooks and the overview (e.g. `Europe/Berlin`):
   * wall-clock times of that zone, with the zone named in the workbook. Default `UTC`.
   */
  TIME_ZONE: timeZone.default('UTC'),

  /**
   * What a quotation's `price` for a line is: `unit` (line total = price x qty) or `line_total` (unit price =
   * price / qty). The interface does not say; the real service's supplier guide suggests line totals. Default
   * `unit`, what the sandbox and earlier award files use; each workbook warns (Notes, log, status) when the quotes
   * look like the other basis against the estimates. Check one quotation on the service before going live.
   */
  QUOTATION_PRICE_BASIS: z.enum(['unit', 'line_total']).default('unit'),
  /**
   * ISO 4217 currency of requisitions whose mapping profile names none (`currency:`), e.g. `EUR`. Kept with each
   * tracked RFQ when it is created, shown in the workbook header and number formats, and written in the award
   * file. Default: none (amounts name no currency).
   */
  REQUISITION_CURRENCY: z
    .string()
    .regex(/^[A-Z]{3}$/, 'is not an ISO 4217 code (three capital letters, e.g. EUR)')
    .optional(),

  /**
   * Paper of the printed comparison workbook: `a4` or `letter`. Default: Letter where TIME_ZONE is a zone of the
   * United States, Canada, Mexico, the Philippines or another Letter country of the Americas, else A4.
   */
  PRINT_PAPER: z.enum(['a4', 'letter']).optional(),
  /**
   * The sign-off block ("Evaluated by / Approved by / Date") at the end of the Comparison sheet, on its last printed
   * page. Default true.
   */
  COMPARISON_SIGN_OFF: bool.default(true),
  /**
   * Days each final award is kept in the price history (Redis), the source of the last price paid beside every
   * line of later comparisons and of the overview's Prices sheet; a product not awarded again within this many days
   * shows "no earlier award". Default 1,095 (three years).
   */
  PRICE_HISTORY_DAYS: int(1, 36_500).default(1095),
};
