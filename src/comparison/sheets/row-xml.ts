/**
 * Rows written as XML straight into a streaming worksheet, for the Comparison sheet's line rows (1,250,000 cells at
 * 5,000 lines x 50 quotations). exceljs builds a Row, a Cell per cell, a model of each and renders that through its
 * XML stream: measured, about half the CPU time of the whole comparison (model, lookups and write) and most of the
 * write's garbage. This writer makes the same XML exceljs would, byte for byte (test/comparison/row-xml.test.ts
 * compares them), from the same values and style objects; styles still go through exceljs' style manager, so a style
 * has one id wherever it is used.
 *
 * What it leans on of exceljs' WorksheetWriter (4.4): rows are committed in order, `_rowZero` is the first row not
 * yet committed, `stream` is the sheet's XML stream, `startedData` says whether `<sheetData>` is open. A row whose
 * cells carry notes (comments) goes through exceljs' own Row instead (rowCells in sheet-common.ts).
 */
import type ExcelJS from 'exceljs';
import type { Style, Worksheet } from 'exceljs';
import { UnexpectedError } from '../../core/index.ts';
import { colLetter, type RowCells, type Value } from './sheet-common.ts';

/** exceljs' ValueType numbers: the style manager picks a number format for a style without one from them. */
const NULL_TYPE = 0;
const NUMBER_TYPE = 2;
const STRING_TYPE = 3;
const DATE_TYPE = 4;

interface WorksheetInternals {
  _rows: unknown[];
  _rowZero: number;
  startedData: boolean;
  stream: { write(chunk: string): void };
  _writeColumns(): void;
  _writeOpenSheetData(): void;
}

interface StyleManager {
  addStyleModel(style: Partial<Style>, cellType: number): number;
}

/** What exceljs' xmlEncode does: escape markup, drop what XML 1.0 cannot carry. */
const XML_SPECIAL = /[<>&'"\x7F\x00-\x08\x0B\x0C\x0E-\x1F]/;
const XML_SPECIAL_ALL = /[<>&'"\x7F\x00-\x08\x0B\x0C\x0E-\x1F]/g;
const ESCAPES: Record<string, string> = { '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' };
const xmlText = (text: string): string =>
  XML_SPECIAL.test(text) ? text.replace(XML_SPECIAL_ALL, (c) => ESCAPES[c] ?? '') : text;

export class RowXmlWriter {
  private readonly sheet: WorksheetInternals;
  private readonly styles: StyleManager;
  /** Column letters by column number, filled as columns are first used. */
  private readonly letters: string[] = [];

  constructor(wb: ExcelJS.stream.xlsx.WorkbookWriter, ws: Worksheet) {
    this.sheet = ws as unknown as WorksheetInternals;
    this.styles = (wb as unknown as { styles: StyleManager }).styles;
  }

  /** Row `number` (every row above it committed), `height` in points or the default; commit() writes it. */
  row(number: number, height?: number): RowCells & { commit(): void } {
    const { sheet, styles, letters } = this;
    if (sheet._rows.some((r) => r !== undefined) || number < sheet._rowZero)
      throw new UnexpectedError(`row ${number} is written as XML while rows before it are not committed`);
    let cells = '';
    let first = 0;
    let last = 0;
    let hasValues = false;
    return {
      put(col: number, value: Value, style?: Partial<Style>): void {
        if (col <= last) throw new UnexpectedError(`row ${number}: column ${col} written after column ${last}`);
        const type =
          value === null
            ? NULL_TYPE
            : typeof value === 'number'
              ? NUMBER_TYPE
              : typeof value === 'string'
                ? STRING_TYPE
                : DATE_TYPE;
        if (first === 0) first = col;
        last = col;
        const id = styles.addStyleModel(style ?? {}, type);
        if (type === NULL_TYPE && !id) return;
        const ref = `${(letters[col] ??= colLetter(col))}${number}`;
        const s = id ? ` s="${id}"` : '';
        if (type === NULL_TYPE) {
          cells += `<c r="${ref}"${s}/>`;
          return;
        }
        hasValues = true;
        if (type === NUMBER_TYPE) cells += `<c r="${ref}"${s}><v>${value as number}</v></c>`;
        else if (type === STRING_TYPE) cells += `<c r="${ref}"${s} t="str"><v>${xmlText(value as string)}</v></c>`;
        else cells += `<c r="${ref}"${s}><v>${25569 + (value as Date).getTime() / 86_400_000}</v></c>`;
      },
      note(col: number): void {
        throw new UnexpectedError(`row ${number}: a note on column ${col} needs exceljs' Row (rowCells)`);
      },
      commit(): void {
        if (!sheet.startedData) {
          sheet._writeColumns();
          sheet._writeOpenSheetData();
          sheet.startedData = true;
        }
        if (hasValues || height) {
          const ht = height ? ` ht="${height}" customHeight="1"` : '';
          const spans = first > 0 ? ` spans="${first}:${last}"` : '';
          const open = `<row r="${number}"${ht}${spans} x14ac:dyDescent="0.25"`;
          sheet.stream.write(cells ? `${open}>${cells}</row>` : `${open}/>`);
        }
        sheet._rows.length = 0;
        sheet._rowZero = number + 1;
      },
    };
  }
}
