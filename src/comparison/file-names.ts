/** Output names that are safe on Windows and Linux shares whatever the RFQ title holds. */
import { safeFileName } from '../core/index.ts';
import type { ListedRfq } from '../sourcing/index.ts';

/**
 * `RFQ-<rfq_no>-<_id>-<title>[-v<version>].xlsx` for the workbook and `RFQ-<rfq_no>-<_id>[-v<version>].csv` for
 * the award (an ERP picks files by a stable pattern; the title adds nothing there). The RFQ number and id always
 * survive truncation of a long title.
 */
export function comparisonFileNames(rfq: ListedRfq, version?: number): { workbook: string; award: string } {
  const id = rfq.rfq_no !== undefined ? `RFQ-${rfq.rfq_no}-${rfq._id}` : `RFQ-${rfq._id}`;
  const v = version !== undefined ? `-v${version}` : '';
  const title = rfq.title ? safeFileName(rfq.title, 80) : '';
  const stem = safeFileName(title && title !== '_' ? `${id}-${title}` : id, 110);
  return { workbook: `${stem}${v}.xlsx`, award: `${safeFileName(id)}${v}.csv` };
}
