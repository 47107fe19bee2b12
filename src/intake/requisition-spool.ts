/**
 * A file's valid requisitions, spooled to JSONL beside the file while it is read, so that none is enqueued before
 * the whole file has been read without a refusal (a file refused part-way creates nothing). Memory stays bounded:
 * lines are written in chunks and read back one at a time.
 *
 * Crash and retry: the spool's name is fixed per taken file; each attempt unlinks what an earlier one left and
 * starts a new file (never appends to it), and reads back through its own handle, so a stalled copy of the same
 * job still running elsewhere keeps reading its own spool.
 */
import { open, rm, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { UnexpectedError, type Requisition } from '../core/index.ts';

const FLUSH_BYTES = 64 * 1024;

export interface RequisitionSpool {
  readonly path: string;
  /** Requisitions added so far. */
  readonly count: number;
  add(r: Requisition): Promise<void>;
  /** Every requisition added, in order (after the last add). */
  read(): AsyncGenerator<Requisition>;
  /** Close and delete. Safe to call more than once. */
  remove(): Promise<void>;
}

/** Dot-name: recovery of processing/ leaves it alone (src/intake/inbox-intake.ts). */
export function spoolPathFor(folder: string, token: string): string {
  return join(folder, `.${token}.requisitions.jsonl`);
}

export async function openRequisitionSpool(path: string): Promise<RequisitionSpool> {
  let fh: FileHandle | undefined;
  for (let attempt = 0; !fh; attempt++) {
    await rm(path, { force: true });
    try {
      fh = await open(path, 'wx+');
    } catch (err) {
      // Another copy of the job made it between our rm and open: take the name over again.
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || attempt >= 2) throw err;
    }
  }
  const handle = fh;
  let chunk: string[] = [];
  let chunkBytes = 0;
  let count = 0;
  let closed = false;
  const flush = async () => {
    if (chunk.length === 0) return;
    const text = chunk.join('');
    chunk = [];
    chunkBytes = 0;
    await handle.write(text);
  };
  return {
    path,
    get count() {
      return count;
    },
    async add(r) {
      // JSON.stringify escapes every line break inside strings: one requisition per line.
      const line = `${JSON.stringify(r)}\n`;
      chunk.push(line);
      chunkBytes += line.length;
      count++;
      if (chunkBytes >= FLUSH_BYTES) await flush();
    },
    async *read() {
      await flush();
      const lines = createInterface({
        input: handle.createReadStream({ start: 0, autoClose: false, encoding: 'utf8' }),
        crlfDelay: Infinity,
      });
      let n = 0;
      for await (const line of lines) {
        if (line === '') continue;
        n++;
        yield JSON.parse(line) as Requisition;
      }
      if (n !== count) throw new UnexpectedError(`requisition spool ${path}: read back ${n} of ${count} requisitions`);
    },
    async remove() {
      if (!closed) {
        closed = true;
        await handle.close();
      }
      await rm(path, { force: true });
    },
  };
}
