/**
 * One file of the audit log, at the byte level: appending a line so that it is whole and starts a line, and reading
 * lines back from any offset (for the index, src/audit/audit-index.ts, and the streamed reader).
 *
 * Appending: the line goes out in ONE write(2) on a file opened O_APPEND, then fdatasync: several processes of one
 * host never interleave, and a caller that awaited it has its line on disk. Before that, the file's last byte is
 * read: a file that does not end with a newline (a torn line, from a crash or a disk that filled mid-line) gets the
 * newline as the first byte of the same write, so the torn part stays one unreadable line of its own and the new
 * line is whole. A short write (a full disk) is not mended there and then (the mending would fail the same way): the
 * next append does it. Files are 0640 whatever the umask (the log names requisitions, files and suppliers).
 */
import { type FileHandle, open } from 'node:fs/promises';
import { closeSync, openSync, readSync } from 'node:fs';

export const AUDIT_FILE_MODE = 0o640;
const NEWLINE = 0x0a;

/** What an append did: `mended` when the file ended mid-line before it (the line then started with a newline). */
export interface Appended {
  mended: boolean;
}

/** Append `line` (which ends with a newline) to `path`, whole, durable when this resolves. */
export async function appendWholeLine(path: string, line: Buffer): Promise<Appended> {
  let fh: FileHandle | undefined;
  try {
    fh = await open(path, 'a+', AUDIT_FILE_MODE);
    const st = await fh.stat();
    // the umask may have taken bits away (or a file someone else made may have more): 0640 either way
    if ((st.mode & 0o777) !== AUDIT_FILE_MODE) await fh.chmod(AUDIT_FILE_MODE).catch(() => undefined);
    let buf = line;
    let mended = false;
    if (st.size > 0) {
      const last = Buffer.alloc(1);
      await fh.read(last, 0, 1, st.size - 1);
      if (last[0] !== NEWLINE) {
        buf = Buffer.concat([Buffer.from('\n'), line]);
        mended = true;
      }
    }
    // a write may take part of the line (the disk filling): the rest is written again, and a disk that is full
    // answers ENOSPC to that write (the caller reports a full disk; the torn part is mended before the next line)
    for (let at = 0; at < buf.length;) at += (await fh.write(buf, at, buf.length - at)).bytesWritten;
    await fh.datasync();
    return { mended };
  } finally {
    await fh?.close();
  }
}

/** A line found in a file: its byte offset and length (without the newline) and its bytes. */
export interface RawLine {
  off: number;
  len: number;
  bytes: Buffer;
}

/**
 * The whole lines of `buf`, which starts at file offset `base`; `rest` is where the bytes after the last newline
 * begin (a line not ended yet: being written, or torn at the end of the file).
 */
export function wholeLines(buf: Buffer, base: number): { lines: RawLine[]; rest: number } {
  const lines: RawLine[] = [];
  let start = 0;
  for (let nl = buf.indexOf(NEWLINE, start); nl >= 0; nl = buf.indexOf(NEWLINE, start)) {
    lines.push({ off: base + start, len: nl - start, bytes: buf.subarray(start, nl) });
    start = nl + 1;
  }
  return { lines, rest: start };
}

const CHUNK = 1 << 20;

/**
 * The whole lines of `path` from byte `from` to `to` (its size when read), chunk by chunk, synchronously (for the
 * index's own thread or process, never the worker's event loop): `onLines` gets each chunk's lines. Returns the
 * offset after the last whole line and the length of what follows it (a line not ended).
 */
export function readWholeLinesSync(
  path: string,
  from: number,
  to: number,
  onLines: (lines: RawLine[]) => void,
): { end: number; tail: number } {
  const fd = openSync(path, 'r');
  try {
    let pos = from;
    let carry = Buffer.alloc(0);
    let carryAt = from;
    while (pos < to) {
      const chunk = Buffer.allocUnsafe(Math.min(CHUNK, to - pos));
      const n = readSync(fd, chunk, 0, chunk.length, pos);
      if (n === 0) break;
      pos += n;
      const buf = carry.length ? Buffer.concat([carry, chunk.subarray(0, n)]) : chunk.subarray(0, n);
      const { lines, rest } = wholeLines(buf, carryAt);
      if (lines.length) onLines(lines);
      carry = Buffer.from(buf.subarray(rest));
      carryAt += rest;
    }
    return { end: carryAt, tail: carry.length };
  } finally {
    closeSync(fd);
  }
}

/** The bytes of `path` from `from` to `to`, read without blocking (the writer's own file, after its append). */
export async function readRange(path: string, from: number, to: number): Promise<Buffer> {
  const fh = await open(path, 'r');
  try {
    const buf = Buffer.allocUnsafe(Math.max(0, to - from));
    const { bytesRead } = await fh.read(buf, 0, buf.length, from);
    return buf.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
}

/** The bytes of the lines at these places of one file (positioned reads, in the order given). */
export function readLinesAtSync(path: string, places: ReadonlyArray<{ off: number; len: number }>): Buffer[] {
  const fd = openSync(path, 'r');
  try {
    return places.map((p) => {
      const b = Buffer.allocUnsafe(p.len);
      const n = readSync(fd, b, 0, p.len, p.off);
      return b.subarray(0, n);
    });
  } finally {
    closeSync(fd);
  }
}
