/**
 * exceljs, loaded on first use. It is the heaviest module the worker has (0.1-0.15 s to load, more than bullmq and
 * express together), and a worker that only creates RFQs or polls never needs it: each command and every worker
 * restart would pay for it at start. Types come from `import type ExcelJS from 'exceljs'`, which loads nothing.
 */
import type ExcelJS from 'exceljs';

let loading: Promise<typeof ExcelJS> | undefined;

export function loadExcelJS(): Promise<typeof ExcelJS> {
  loading ??= import('exceljs').then((m) => m.default);
  return loading;
}
