/**
 * What a format module says about its format (one module per format in this folder, listed in index.ts): its kind
 * and name, how it is recognised by content, how its text is decoded (its own encoding rules), the limits of its
 * sheets, how much memory a whole-file parse takes, and how it is opened as a RowSource. The sniffer, the row source
 * of ingestion, the draft's sampler and docs/mapping.md's reader table all read the list; nothing else spells a
 * format.
 */
import type { Delimiter } from './csv-reader.ts';
import type { TextDecision, TextProbe } from './text-encoding.ts';

/** A typed cell as the readers give it (dates as Date whose UTC fields hold the wall clock). */
export type CellValue = string | number | boolean | Date | null;

/** A row as the readers give it. */
export interface HeadRow {
  /** 1-based, as the sheet shows it (CSV: as a spreadsheet shows it; HTML: the table's rows; SAP list: lines). */
  row: number;
  cells: CellValue[];
  /** Workbooks and HTML: the sheet or table the row came from. */
  sheet?: string;
  /** The row is hidden in the sheet (by a filter or by hand): the profile's source.hidden_rows decides. */
  hidden?: true;
}

export type FormatKind = 'xlsx' | 'ods' | 'xls' | 'xml2003' | 'html' | 'sap-list' | 'csv';

/** What the sniffer found, for each format to recognise itself in. */
export type Evidence =
  /** An OLE2 compound document: the names of its streams. */
  | { container: 'ole2'; streams: readonly string[] }
  /** A zip: its entries' names, and the OpenDocument `mimetype` when it is stored first. */
  | { container: 'zip'; entries: ReadonlySet<string>; mimetype: string | undefined }
  /** Text: its first 64 KiB, decoded by its byte order mark (else byte for byte), without the mark. */
  | { container: 'text'; text: string };

/** A format's sheet size: a sheet whose last used row is `rows` may have been cut there by its writer. */
export interface SheetLimit {
  /** The sheet, as messages name it: "an .xls sheet (BIFF8)". */
  what: string;
  rows: number;
  columns: number;
}

export interface FileFormat {
  kind: FormatKind;
  /** What the format is called in messages ("binary Excel workbook (.xls)"). */
  name: string;
  container: Evidence['container'];
  /** This format (true), not this one (false), or this format refused outright. */
  recognize(e: Evidence): boolean | { refuse: string };
  /** Text formats: the encoding by the format's own rules (`head`: the first 64 KiB, undecoded), or a refusal. */
  encoding?(head: Buffer, probe: () => Promise<TextProbe>): Promise<TextDecision | { refuse: string }>;
  /**
   * Formats parsed whole in memory: peak memory as a multiple of the bytes parsed (the file, or an .ods' content
   * uncompressed), rounded up from what `npm run bench:ingest` measures.
   */
  inMemory?: { expansion: number; of: 'file' | 'uncompressed'; called: string };
  /** The sheet sizes of the format's versions (none for text, which has no sheet to fill). */
  limits: readonly SheetLimit[];
  /** Its row of docs/mapping.md's reader table (scripts/readers-doc.ts). */
  doc: { title: string; recognisedBy: string; read: string; encodings: string };
  open(file: SniffedFile): RowSource;
}

/** A file the sniffer recognised. */
export interface SniffedFile {
  path: string;
  /** The name messages give it. */
  file: string;
  size: number;
  format: FileFormat;
  /** Text formats: how the bytes are decoded, and how that was decided. */
  text?: TextDecision;
}

/**
 * One reader interface over every format: `open(sheet, delimiter)` yields batches of rows of typed cells from the
 * first row on, `sheets()` names the sheets (workbooks) or tables (HTML) in the order they are tried. Formats without
 * sheets ignore `sheet`; only CSV text takes a delimiter.
 */
export interface RowSource {
  /** True when the format has several sheets or tables to choose from. */
  readonly multiSheet: boolean;
  open(sheet: string | undefined, delimiter: Delimiter | 'auto'): AsyncGenerator<HeadRow[]>;
  /** Sheet or table names in the order they are tried (visible sheets first); [] for single-table formats. */
  sheets(): Promise<string[]>;
  /** The size limit of the sheet last read (by the file's version), once read; undefined for formats without one. */
  limit(): SheetLimit | undefined;
}
