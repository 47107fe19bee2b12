/**
 * The audit lines of a comparison version (src/awarding/comparison-runner.ts writes them with one call, after its
 * files are written and before anyone is told of them or the version is recorded): the workbook written, with its
 * sha256, and, when this version wrote the award file, the award: supplier per line and the totals per currency,
 * exact (decimal.js), read back from the award file itself.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
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

/** Supplier per line and the totals per currency (`XXX`, ISO 4217's "no currency", when none is given). */
function awardOf(text: string): {
  lines: Array<{ external_id: string; supplier: string; line_total: string }>;
  totals: Record<string, string>;
  suppliers: string[];
} {
  const rows = text.split(/\r?\n/).filter(Boolean);
  const head = csvFields(rows[0] ?? '');
  const col = (name: string) => head.indexOf(name);
  const lines: Array<{ external_id: string; supplier: string; line_total: string }> = [];
  const sums = new Map<string, Decimal>();
  for (const row of rows.slice(1)) {
    const v = csvFields(row);
    const total = v[col('line_total')] ?? '';
    const currency = v[col('currency')] || 'XXX';
    lines.push({
      external_id: v[col('external_id')] ?? '',
      supplier: v[col('supplier_name')] ?? '',
      line_total: total,
    });
    if (/^-?\d+(\.\d+)?$/.test(total)) sums.set(currency, (sums.get(currency) ?? new Decimal(0)).plus(total));
  }
  const totals = Object.fromEntries([...sums].map(([c, d]) => [c, d.toFixed(2)]));
  return { lines, totals, suppliers: [...new Set(lines.map((l) => l.supplier))] };
}

/** One RFC 4180 row (quoted fields, doubled quotes). */
function csvFields(row: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < row.length; i++) {
    const c = row[i]!;
    if (quoted) {
      if (c === '"' && row[i + 1] === '"') {
        cur += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cur += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      out.push(cur);
      cur = '';
    } else cur += c;
  }
  out.push(cur);
  return out;
}
