/**
 * The stages of a comparison, in order: lines -> quotations (one per key, prices checked) -> supplier order and
 * ranks by total -> per-line statistics. The award is a separate rule (../award/); ../model.ts runs them all.
 * Pure code: decimal maths only, no I/O. Each stage is a file of its own (stage-lines.ts, stage-quotations.ts,
 * stage-order.ts, stage-line-statistics.ts, then the basis check in stage-price-basis.ts); this module names them all.
 */
export { DERIVED_UNIT_PLACES, parseDecimal, priceParts } from './price-parts.ts';
export { assignRanks, compareTie, tieReason } from './ranking.ts';
export { documentNames } from './quotation-documents.ts';
export { normaliseLines, type LinesStage } from './stage-lines.ts';
export { normaliseQuotations, type QuotationsStage } from './stage-quotations.ts';
export { orderSuppliers, type OrderStage } from './stage-order.ts';
export { lineStatistics, supplierLinePrice, type LineStatsStage } from './stage-line-statistics.ts';
export { checkPriceBasis } from './stage-price-basis.ts';
