/**
 * What a tracked RFQ's record adds to a comparison, shared by the comparison job and `rfq-sync compare`: the
 * requisition it came from, its currency, the ERP's own unit prices and the dates the ERP gave as days.
 */
import { type ComparisonInput, defaultPaper } from '../comparison/index.ts';
import type { TrackedRfq } from '../rfqs/index.ts';

type FromRecord = Pick<
  ComparisonInput,
  | 'requisition'
  | 'currency'
  | 'erpPrices'
  | 'erpDays'
  | 'priceBasis'
  | 'timeZone'
  | 'paper'
  | 'signOff'
  | 'productCodes'
>;

export function comparisonInputFromRecord(
  rec: TrackedRfq | undefined,
  config: {
    REQUISITION_CURRENCY?: string | undefined;
    TIME_ZONE: string;
    QUOTATION_PRICE_BASIS: NonNullable<ComparisonInput['priceBasis']>;
    PRINT_PAPER?: 'a4' | 'letter' | undefined;
    COMPARISON_SIGN_OFF?: boolean;
  },
): FromRecord {
  const r = rec?.requisition;
  // The currency kept with the tracked RFQ; an untracked (or earlier tracked) RFQ takes the global setting.
  const currency = r?.currency ?? config.REQUISITION_CURRENCY;
  return {
    ...(r
      ? { requisition: { key: r.key, sourceFile: r.sourceFile, ...(r.profile ? { profile: r.profile } : {}) } }
      : {}),
    timeZone: config.TIME_ZONE,
    priceBasis: config.QUOTATION_PRICE_BASIS,
    ...(currency ? { currency } : {}),
    ...(r?.erpPrices ? { erpPrices: r.erpPrices } : {}),
    ...(r?.erpDays ? { erpDays: r.erpDays } : {}),
    ...(r?.productCodes ? { productCodes: r.productCodes } : {}),
    paper: config.PRINT_PAPER ?? defaultPaper(config.TIME_ZONE),
    signOff: config.COMPARISON_SIGN_OFF ?? true,
  };
}
