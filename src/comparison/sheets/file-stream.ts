/**
 * exceljs' streaming writer listens for errors of its output stream only once it finalises: a file stream that
 * fails before (a folder that is not writable, a disk that fills part-way) leaves `commit()` waiting forever, and
 * with it the job that wrote. Measured: writeComparisonModel into a missing folder hangs at 5 lines as at 2,000.
 * writeStreamedFile hands the renderer a file stream watched from its first byte: it rejects with the stream's
 * error instead, and resolves only once the file is closed (a Windows share refuses to rename an open file).
 */
import { createWriteStream, type WriteStream } from 'node:fs';
import type ExcelJS from 'exceljs';
import type { Worksheet } from 'exceljs';
import { loadExcelJS } from '../../core/index.ts';

/** `broken()` tells a long renderer the file already failed, so it stops producing rows nobody will read. */
export async function writeStreamedFile(
  filePath: string,
  render: (out: WriteStream, broken: () => Error | undefined) => Promise<void>,
): Promise<void> {
  const file = createWriteStream(filePath);
  let broken: Error | undefined;
  const failed = new Promise<never>((_, reject) => {
    file.once('error', (err) => {
      broken = err;
      reject(err);
    });
  });
  failed.catch(() => undefined);
  const closed = new Promise<void>((resolve) => file.once('close', () => resolve()));
  try {
    await Promise.race([render(file, () => broken), failed]);
    if (!file.writableEnded) file.end();
    await Promise.race([closed, failed]);
  } catch (err) {
    file.destroy();
    throw err;
  }
}

/**
 * A streaming workbook writer on `file`, as every rfq-sync workbook is written: styles, inline strings, our name and
 * time as author and dates, and the autofilter names LibreOffice needs.
 */
export async function workbookWriter(file: WriteStream, at: Date): Promise<ExcelJS.stream.xlsx.WorkbookWriter> {
  const { stream } = await loadExcelJS();
  const wb = new stream.xlsx.WorkbookWriter({ stream: file, useStyles: true, useSharedStrings: false });
  declareFilterRanges(wb);
  wb.creator = 'rfq-sync';
  wb.lastModifiedBy = 'rfq-sync';
  wb.created = at;
  wb.modified = at;
  return wb;
}

/**
 * LibreOffice only shows an autofilter when the workbook also defines the sheet-local name _xlnm._FilterDatabase
 * (Excel writes it too); exceljs' streaming writer does not, and its DefinedNames model cannot carry a sheet id.
 * The writer reads `_definedNames.model` once, in commit(), after the sheets are written: answer it from them.
 */
function declareFilterRanges(wb: ExcelJS.stream.xlsx.WorkbookWriter): void {
  const internal = wb as unknown as { _definedNames: unknown; _worksheets: Array<Worksheet | undefined> };
  internal._definedNames = {
    get model() {
      return internal._worksheets
        .filter((ws): ws is Worksheet => ws !== undefined)
        .flatMap((ws, index) => {
          const ref = typeof ws.autoFilter === 'string' ? ws.autoFilter : undefined;
          if (!ref) return [];
          const [from, to] = ref.split(':') as [string, string];
          const abs = (a: string): string => a.replace(/^([A-Z]+)(\d+)$/, '$$$1$$$2');
          return [
            { name: '_xlnm._FilterDatabase', localSheetId: index, ranges: [`'${ws.name}'!${abs(from)}:${abs(to)}`] },
          ];
        });
    },
  };
}
