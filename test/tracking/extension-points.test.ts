/**
 * The comparison's extension points (docs/development.md#adding-an-output-or-an-award-rule): an output writer and
 * an award rule that exist only in this test are registered with one line each and run through the same path as
 * the built-in ones: the comparison job writes the output beside the workbook and lists it in the done manifest;
 * the rule decides the award file, the Award sheet, the notes and the overview's figures. Real Redis, the sandbox
 * over HTTP, the project's poll, quotations and comparison jobs.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Decimal } from 'decimal.js';
import ExcelJS from 'exceljs';
import { afterEach, describe, expect, it } from 'vitest';
import { writeFileAtomically } from '../../src/core/atomic-write.ts';
import { awardRules, comparisonOutputs, type AwardRule, type OutputWriter } from '../../src/comparison/index.ts';
import { NoteList, supplierLabel } from '../../src/comparison/notes.ts';
import { supplierLinePrice } from '../../src/comparison/stages/index.ts';
import { trackedRfq } from '../../src/tracking/status.ts';
import { ls, readAwardCsv } from '../helpers/files.ts';
import { pollingHarness, type PollingHarness } from '../helpers/polling.ts';
import { usePipeline } from '../helpers/pipeline.ts';

/** One CSV per supplier that quoted, beside the workbook: what that supplier quoted, line by line. */
const csvPerSupplier: OutputWriter = {
  name: 'supplier-csv',
  paths: (model, place) =>
    model.suppliers.map((_, i) =>
      join(place.folders.comparisons, place.names.workbook.replace(/\.xlsx$/, `-supplier-${i + 1}.csv`)),
    ),
  async write(model, path) {
    const s = model.suppliers[Number(/-supplier-(\d+)\.csv$/.exec(path)![1]) - 1]!;
    const rows = model.lines.map((l) => [l.externalId, l.qty ?? '', s.quoted[l.index] ?? ''].join(','));
    await writeFileAtomically(
      path,
      ['supplier_key,external_id,qty,price', ...rows.map((r) => `${s.key},${r}`)].join('\n'),
    );
  },
};

/** The lowest total over every line from at most two qualified suppliers, each line to the cheaper of the two. */
const lowestTotalTwoSuppliers: AwardRule = {
  name: 'lowest-total-two-suppliers',
  label: 'lowest total, at most two suppliers',
  description:
    'Basis: the one or two qualified suppliers with the lowest total over every line, each line to the cheaper.',
  appliesTo: ({ winnerIndex }) => winnerIndex < 0,
  apply({ lines, suppliers, priceBasis }) {
    const total = (s: number, l: number) => supplierLinePrice(priceBasis, suppliers, lines, s, l).total!;
    const cheaper = (pair: number[], l: number): number | undefined =>
      pair.filter((s) => suppliers[s]!.quoted[l] != null).sort((x, y) => total(x, l).cmp(total(y, l)))[0];
    const eligible = suppliers.flatMap((s, i) => (s.eligible ? [i] : []));
    let best: { pair: number[]; sum: Decimal } | undefined;
    for (const a of eligible)
      for (const b of eligible.filter((x) => x >= a)) {
        const pair = a === b ? [a] : [a, b];
        if (lines.some((l) => cheaper(pair, l.index) === undefined)) continue;
        const sum = lines.reduce((acc, l) => acc.add(total(cheaper(pair, l.index)!, l.index)), new Decimal(0));
        if (!best || sum.lt(best.sum)) best = { pair, sum };
      }
    for (const line of lines) {
      const s = best && cheaper(best.pair, line.index);
      if (s === undefined) {
        line.noAwardReason = 'no two qualified suppliers quoted every line';
        continue;
      }
      const { unit, total: lineTotal } = supplierLinePrice(priceBasis, suppliers, lines, s, line.index);
      line.award = { supplier: s, unitPrice: unit, lineTotal, basis: 'lowest-total-two-suppliers' };
    }
    const note = new NoteList('Two suppliers');
    if (best) note.add(`Chosen: ${best.pair.map((i) => supplierLabel(suppliers[i]!)).join(' and ')}.`);
    return {
      notes: [note],
      headline: best ? `At most two suppliers: the lowest such total is ${best.sum.toFixed()}.` : undefined,
    };
  },
};

const pipeline = usePipeline({ sandbox: { pageSize: 5 } });
let h: PollingHarness | undefined;
const unregister: Array<() => void> = [];
afterEach(async () => {
  for (const fn of unregister.splice(0)) fn();
  await h?.close();
  h = undefined;
});

async function sheetRows(path: string, sheet: string): Promise<string[][]> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(path);
  const rows: string[][] = [];
  wb.getWorksheet(sheet)!.eachRow(
    (row, n) => (rows[n] = (row.values as unknown[]).slice(1).map((v) => String(v ?? ''))),
  );
  return rows;
}

describe('an output writer and an award rule added in one line each', () => {
  it('run through the comparison job: the extra files beside the workbook and in the manifest, the award by the new rule', async () => {
    unregister.push(comparisonOutputs.register(csvPerSupplier));
    unregister.push(awardRules.register(lowestTotalTwoSuppliers, { before: 'lowest-qualified-price' }));
    h = await pollingHarness({
      redisUrl: pipeline.redisUrl,
      sandbox: pipeline.sandbox,
      env: { OUTBOX_DONE_FILES: 'manifest' },
    });
    const ctl = pipeline.sandbox.control;
    const id = await h.createTrackedRfq('Two', 3); // qty 2, 4, 6
    const [l1, l2, l3] = ctl.getRfq(id)!.lines.map((l) => l.line_id);
    // Line by line the cheapest are A, B and C (three orders); of every pair, B and C cover all lines cheapest.
    const quotes = [
      ctl.submitQuotation(id, { sup_name: 'A', prices: { [l1!]: '1', [l2!]: '10', [l3!]: '10' } }),
      ctl.submitQuotation(id, { sup_name: 'B', prices: { [l1!]: '9', [l2!]: '1', [l3!]: '10' } }),
      ctl.submitQuotation(id, { sup_name: 'C', prices: { [l1!]: '10', [l2!]: '10', [l3!]: '1' } }),
    ];
    for (const q of quotes) ctl.decide(id, String(q.quotation_key), true);
    ctl.advance(id, 'closed');
    await h.pollAndSettle();

    const rec = (await trackedRfq(h.ctx, id))!;
    const { comparisons, awards } = h.ctx.config.folders;
    // The award file: the rule's basis, each line to the cheaper of B and C.
    const award = readAwardCsv(join(awards, rec.comparison!.awardCsv!));
    expect(award.map((r) => [r.external_id, r.supplier_name, r.unit_price, r.line_total, r.basis])).toEqual([
      ['Two-1', 'B', '9.00', '18.00', 'lowest-total-two-suppliers'],
      ['Two-2', 'B', '1.00', '4.00', 'lowest-total-two-suppliers'],
      ['Two-3', 'C', '1.00', '6.00', 'lowest-total-two-suppliers'],
    ]);
    // The workbook: the rule's description and label on the Award sheet, its notes on the Notes sheet.
    const workbook = join(comparisons, rec.comparison!.workbook);
    const sheet = await sheetRows(workbook, 'Award');
    expect(sheet[2]![0]).toBe(lowestTotalTwoSuppliers.description);
    expect(sheet.filter((r) => r[9] === lowestTotalTwoSuppliers.label)).toHaveLength(3);
    const notes = (await sheetRows(workbook, 'Notes')).map((r) => r.join(' | '));
    expect(notes).toContainEqual(expect.stringContaining('At most two suppliers: the lowest such total is 28.'));
    expect(notes).toContainEqual(expect.stringMatching(/Chosen: (B|C) \(key .*\) and (B|C) \(key/));
    // The overview's figures come from the same award.
    expect(rec.comparison!.summary).toMatchObject({ bestTotal: '28', recommended: 'split: B, C', final: true });

    // The output: one CSV per supplier beside the workbook, each listed in the manifest after the built-in ones.
    const stem = rec.comparison!.workbook.replace(/\.xlsx$/, '');
    const perSupplier = [1, 2, 3].map((n) => `${stem}-supplier-${n}.csv`);
    expect(ls(comparisons)).toEqual([rec.comparison!.workbook, ...perSupplier].sort());
    const written = perSupplier.map((f) => readFileSync(join(comparisons, f), 'utf8').split('\n'));
    expect(written.map((rows) => rows.length)).toEqual([4, 4, 4]);
    expect(written.map((rows) => rows[1]!.split(',')[0]).sort()).toEqual(
      quotes.map((q) => String(q.quotation_key)).sort(),
    );
    const manifest = JSON.parse(
      readFileSync(join(awards, rec.comparison!.awardCsv!.replace(/\.csv$/, '.manifest.json')), 'utf8'),
    ) as { files: Array<{ role: string; path: string }> };
    // (the overview is listed too once it exists: the first poll writes it after this version)
    expect(manifest.files.filter((f) => f.role !== 'overview').map((f) => [f.role, f.path])).toEqual([
      ['workbook', `comparisons/${rec.comparison!.workbook}`],
      ['award', `awards/${rec.comparison!.awardCsv!}`],
      ...perSupplier.map((f) => ['supplier-csv', `comparisons/${f}`]),
    ]);
  });

  it('taken out again, the built-in rule decides and no extra file is written', () => {
    const off = awardRules.register(lowestTotalTwoSuppliers, { before: 'lowest-qualified-price' });
    const offOutput = comparisonOutputs.register(csvPerSupplier);
    expect(awardRules.all.map((r) => r.name)).toEqual([
      'winning-quotation',
      'lowest-total-two-suppliers',
      'lowest-qualified-price',
    ]);
    off();
    offOutput();
    expect(awardRules.all.map((r) => r.name)).toEqual(['winning-quotation', 'lowest-qualified-price']);
    expect(comparisonOutputs.all.map((o) => o.name)).toEqual(['workbook', 'award', 'erp']);
    expect(() => comparisonOutputs.register({ ...csvPerSupplier, name: 'award' })).toThrow(/registered already/);
  });
});
