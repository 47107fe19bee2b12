/**
 * What an output of a comparison version is: a writer of one or more files from the model, each written atomically
 * (temporary name, then rename), so a reader never sees half a file. The comparison job writes every registered
 * output (outputs.ts); a new one is a file of its own plus one line there.
 */
import type { ErpOutputs } from '../erp/index.ts';
import type { ComparisonModel } from './types.ts';

/** Where a version's outputs go: the outbox folders and the version's file names (file-names.ts). */
export interface OutputPlace {
  folders: { comparisons: string; awards: string };
  names: { workbook: string; award: string };
  /** The ERP outputs configured (ERP_OUTPUTS), with the vendor cross-reference; none: no ERP files. */
  erp?: ErpOutputs;
}

export interface OutputWriter {
  /** Names the output: its role in a done manifest, its key in what the job wrote. */
  readonly name: string;
  /** The ERP picks its files up: with OUTBOX_DONE_FILES=marker each gets an empty `.done` file beside it. */
  readonly forErp?: boolean;
  /** The files it writes for this model; none when it has nothing to write (the award file of a draft). */
  paths(model: ComparisonModel, place: OutputPlace): string[] | Promise<string[]>;
  /** Writes one of its paths, atomically. */
  write(model: ComparisonModel, path: string): Promise<void>;
}

/** A file an output wrote. */
export interface WrittenFile {
  output: string;
  path: string;
  forErp: boolean;
}
