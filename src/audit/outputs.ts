/**
 * The audit lines of a comparison version (src/awarding/comparison-runner.ts writes them with one call, after its
 * files are written and before anyone is told of them or the version is recorded): the workbook written, with its
 * sha256, and, when this version wrote the award file, the award: supplier per line and the totals per currency,
 * exact (decimal.js), read back from the award file itself.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { parse } from 'csv-parse/sync';
import { Decimal } from 'decimal.js';
import type { AuditEvent } from './events.ts';
import type { AuditSink } from './writer.ts';

export interface ComparisonWritten {
  rfqId: number;
  rfqNo?: number | undefined;
  version: number;
  /** Paths of the files this version wrote; `award` only when it wrote the award file. */
  workbook: string;
  award?: string | undefined;
  winnerKey?: string | undefined;
  /**
   * What the version reflected, as its record keeps it: revision_no per quotation_key and whether it was pulled for
   * the award (`recover` restores the record from them, so no version is written again for nothing).
   */
  revisions?: Record<string, number> | undefined;
  forAward?: boolean | undefined;
}

export async function auditComparison(audit: AuditSink | undefined, o: ComparisonWritten): Promise<void> {
  if (!audit) return;
  for (const e of await comparisonEvents(o)) await audit.write(e);
}

export async function comparisonEvents(o: ComparisonWritten): Promise<AuditEvent[]> {
  const rfq = { rfq_id: o.rfqId, ...(o.rfqNo !== undefined ? { rfq_no: o.rfqNo } : {}) };
  const book = await readFile(o.workbook).catch(() => undefined);
  const out: AuditEvent[] = [
    {
      event: 'comparison-written',
      summary: `comparison workbook v${o.version} written for RFQ ${o.rfqId}`,
      ...rfq,
      version: o.version,
      workbook: o.workbook,
      ...(book ? { sha256: createHash('sha256').update(book).digest('hex') } : {}),
      ...(o.revisions ? { revisions: o.revisions } : {}),
      ...(o.forAward !== undefined ? { for_award: o.forAward } : {}),
      ...(o.winnerKey !== undefined ? { winner: o.winnerKey } : {}),
    },
  ];
  if (o.award === undefined) return out;
  const text = await readFile(o.award, 'utf8').catch(() => '');
  const a = awardOf(text);
  const totals = Object.entries(a.totals).map(([c, v]) => (c === 'XXX' ? `${v} (no currency given)` : `${v} ${c}`));
  out.push({
    event: 'award-final',
    summary: `award final for RFQ ${o.rfqId}: ${a.suppliers.join(', ') || '-'}; total ${totals.join(' + ') || '-'}`,
    ...rfq,
    version: o.version,
    award: o.award,
    ...(text ? { sha256: createHash('sha256').update(text).digest('hex') } : {}),
    ...(o.winnerKey !== undefined ? { winner: o.winnerKey } : {}),
    lines: a.lines,
    totals: a.totals,
  });
  return out;
}

/**
 * Supplier per line and the totals per currency (`XXX`, ISO 4217's "no currency", when none is given), read with a
 * real CSV parser: a quoted field may hold a comma, a doubled quote or a line break (a supplier's name from the
 * service). A file that does not parse gives no lines (the summary then says `-`), never a guess.
 */
function awardOf(text: string): {
  lines: Array<{ external_id: string; supplier: string; line_total: string }>;
  totals: Record<string, string>;
  suppliers: string[];
} {
  let rows: Array<Record<string, string>> = [];
  try {
    rows = parse(text, { columns: true, skip_empty_lines: true, bom: true, relax_column_count: true });
  } catch {
    rows = [];
  }
  const lines: Array<{ external_id: string; supplier: string; line_total: string }> = [];
  const sums = new Map<string, Decimal>();
  for (const v of rows) {
    const total = v.line_total ?? '';
    const currency = v.currency || 'XXX';
    lines.push({ external_id: v.external_id ?? '', supplier: v.supplier_name ?? '', line_total: total });
    if (/^-?\d+(\.\d+)?$/.test(total)) sums.set(currency, (sums.get(currency) ?? new Decimal(0)).plus(total));
  }
  const totals = Object.fromEntries([...sums].map(([c, d]) => [c, d.toFixed(2)]));
  return { lines, totals, suppliers: [...new Set(lines.map((l) => l.supplier))] };
}
