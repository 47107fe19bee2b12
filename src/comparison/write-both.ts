/** Workbook and award CSV from one calculation (the model of 5,000 x 50 takes about a second to build). */
import { writeAtomically } from '../atomic-write.ts';
import { writeAwardCsvFromModel } from './award-csv.ts';
import { buildComparison } from './model.ts';
import type { ComparisonInput, ComparisonModel } from './model.ts';
import { writeComparisonModel } from './workbook.ts';

/** Builds the comparison once and writes the workbook and the award CSV, each atomically. */
export async function writeComparisonFiles(
  input: ComparisonInput,
  paths: { workbook: string; award: string },
): Promise<ComparisonModel> {
  const model = buildComparison(input);
  await writeAtomically(paths.workbook, (tmp) => writeComparisonModel(model, tmp));
  await writeAwardCsvFromModel(model, paths.award);
  return model;
}
