/**
 * The outputs of a comparison behind one interface: each writer renders its data to a path, atomically
 * (temporary name, then rename), so a reader never sees half a file. The comparison job and `rfq-sync compare`
 * both write through writeComparisonOutputs.
 */
import { writeAtomically, writeFileAtomically } from '../atomic-write.ts';
import { awardCsv } from './award-csv.ts';
import { buildComparison } from './model.ts';
import type { ComparisonInput, ComparisonModel } from './types.ts';
import { writeComparisonModel } from './workbook.ts';

export interface OutputWriter<T> {
  readonly output: 'workbook' | 'award' | 'overview';
  /** Writes `data` to `path` atomically. */
  write(data: T, path: string): Promise<void>;
}

export const workbookWriter: OutputWriter<ComparisonModel> = {
  output: 'workbook',
  write: (model, path) => writeAtomically(path, (tmp) => writeComparisonModel(model, tmp)),
};

export const awardFileWriter: OutputWriter<ComparisonModel> = {
  output: 'award',
  write: (model, path) => writeFileAtomically(path, awardCsv(model)),
};

/** Writes the outputs of one model to the paths given (a path left out is not written); returns what was written. */
export async function writeComparisonOutputs(
  model: ComparisonModel,
  paths: { workbook?: string; award?: string },
): Promise<{ workbook?: string; award?: string }> {
  const written: { workbook?: string; award?: string } = {};
  if (paths.workbook !== undefined) {
    await workbookWriter.write(model, paths.workbook);
    written.workbook = paths.workbook;
  }
  if (paths.award !== undefined) {
    await awardFileWriter.write(model, paths.award);
    written.award = paths.award;
  }
  return written;
}

/** Builds the comparison once and writes the workbook and the award CSV, each atomically. */
export async function writeComparisonFiles(
  input: ComparisonInput,
  paths: { workbook: string; award: string },
): Promise<ComparisonModel> {
  const model = buildComparison(input);
  await writeComparisonOutputs(model, paths);
  return model;
}
