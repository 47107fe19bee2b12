/**
 * exceljs' streaming writer listens for errors of its output stream only once it finalises: a file stream that
 * fails before (a folder that is not writable, a disk that fills part-way) leaves `commit()` waiting forever, and
 * with it the job that wrote. Measured: writeComparisonModel into a missing folder hangs at 5 lines as at 2,000.
 * writeStreamedFile hands the renderer a file stream watched from its first byte: it rejects with the stream's
 * error instead, and resolves only once the file is closed (a Windows share refuses to rename an open file).
 */
import { createWriteStream, type WriteStream } from 'node:fs';

/** `broken()` tells a long renderer the file already failed, so it stops producing rows nobody will read. */
export async function writeStreamedFile(filePath: string, render: (out: WriteStream, broken: () => Error | undefined) => Promise<void>): Promise<void> {
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
