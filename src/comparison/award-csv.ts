/**
 * The award file the ERP imports: one row per awarded line, exact decimal strings (never a float's rounding),
 * RFC 4180 quoting, CRLF line ends, UTF-8 without BOM. Lines without an award are left out (the Award sheet and
 * the notes say why); every text field is neutralised against formula injection.
 */
import { join } from 'node:path';
import type { Decimal } from 'decimal.js';
import { writeFileAtomically, safeCsvField } from '../core/index.ts';
import { buildComparison } from './model.ts';
import type { OutputWriter } from './output-writer.ts';
import type { ComparisonInput, ComparisonModel } from './types.ts';

export const AWARD_CSV_COLUMNS = [
  'rfq_id',
  'rfq_no',
  'external_id',
  'line_id',
  'supplier_key',
  'supplier_name',
  'qty',
  'unit_price',
  'line_total',
  'currency',
  'basis',
  'supersedes',
] as const;

/** Exact decimal text, at least two decimals for money (1099 -> 1099.00, 0.125 stays 0.125). */
function money(d: Decimal | undefined): string | null {
  if (d === undefined) return null;
  return d.decimalPlaces() < 2 ? d.toFixed(2) : d.toFixed();
}

/** The CSV text for a built model. */
export function awardCsv(model: ComparisonModel): string {
  const { rfq } = model.input;
  const out: string[] = [AWARD_CSV_COLUMNS.join(',')];
  for (const line of model.lines) {
    if (!line.award) continue;
    const s = model.suppliers[line.award.supplier]!;
    out.push(
      [
        safeCsvField(rfq._id),
        safeCsvField(rfq.rfq_no ?? null),
        safeCsvField(line.externalId),
        safeCsvField(line.lineId),
        safeCsvField(s.key),
        safeCsvField(s.name),
        safeCsvField(line.qty ?? null),
        safeCsvField(money(line.award.unitPrice)),
        safeCsvField(money(line.award.lineTotal)),
        safeCsvField(model.currency ?? null),
        safeCsvField(line.award.basis),
        safeCsvField(model.input.supersedes ?? null),
      ].join(','),
    );
  }
  return out.join('\r\n') + '\r\n';
}

/** Builds the comparison and writes the award CSV to `outPath` atomically. */
export async function writeAwardCsv(input: ComparisonInput, outPath: string): Promise<void> {
  await writeFileAtomically(outPath, awardCsv(buildComparison(input)));
}

/** Writes an award CSV for an already built model, atomically. */
export async function writeAwardCsvFromModel(model: ComparisonModel, outPath: string): Promise<void> {
  await writeFileAtomically(outPath, awardCsv(model));
}

/** The award file, for the ERP to act on: outbox/awards/, only once the award is final (a draft stays in the workbook). */
export const awardFileOutput: OutputWriter = {
  name: 'award',
  forErp: true,
  paths: (model, place) => (model.award.final ? [join(place.folders.awards, place.names.award)] : []),
  write: writeAwardCsvFromModel,
};
