/**
 * The outputs of a comparison version, in the order written (and listed in a done manifest): the comparison job
 * writes every one registered here. A new output (a CSV per supplier, a PDF) is a file of its own implementing
 * OutputWriter (output-writer.ts) and one line in this list.
 */
import { awardFileOutput } from './award-csv.ts';
import { erpOutput } from './erp-output.ts';
import { buildComparison } from './model.ts';
import type { OutputPlace, OutputWriter, WrittenFile } from './output-writer.ts';
import { Registry } from './registry.ts';
import type { ComparisonInput, ComparisonModel } from './types.ts';
import { workbookOutput } from './sheets/index.ts';

export const comparisonOutputs = new Registry<OutputWriter>('comparison output', [
  workbookOutput,
  awardFileOutput,
  erpOutput,
]);

/** Writes every registered output of one model, one file after the other; returns what was written, in order. */
export async function writeComparisonOutputs(model: ComparisonModel, place: OutputPlace): Promise<WrittenFile[]> {
  const written: WrittenFile[] = [];
  for (const output of comparisonOutputs.all) {
    for (const path of await output.paths(model, place)) {
      await output.write(model, path);
      written.push({ output: output.name, path, forErp: output.forErp === true });
    }
  }
  return written;
}

/** Builds the comparison once and writes the workbook and the award CSV to these paths (a draft's award too). */
export async function writeComparisonFiles(
  input: ComparisonInput,
  paths: { workbook: string; award: string },
): Promise<ComparisonModel> {
  const model = buildComparison(input);
  await workbookOutput.write(model, paths.workbook);
  await awardFileOutput.write(model, paths.award);
  return model;
}
