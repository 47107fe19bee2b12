/**
 * The audit writer's faults (writer.ts): an error that means its folder cannot be written (missing and not made,
 * read-only, refused, not a folder) or its disk is full becomes the fault in force, said once when it begins and
 * once when it ends (the logger, and `onFault`: IT, `status`), until a line is written again or a look at the folder
 * finds it writable (with space, after a full disk). Any other error is a passing one and stays the caller's.
 */
import { access, constants, mkdir, statfs } from 'node:fs/promises';
import { AuditUnwritableError, DiskFullError, type Logger } from '../core/index.ts';

/** Why the log cannot be written now: its folder, the error, since when. */
export interface AuditFault {
  dir: string;
  /** `EROFS`, `EACCES`, `ENOSPC`... */
  code: string;
  /** One sentence naming the folder (or file) and the error. */
  error: string;
  since: number;
  host: string;
}

/** Error codes that mean "this folder cannot be written" rather than a passing failure. */
const UNWRITABLE = new Set(['EROFS', 'EACCES', 'EPERM', 'ENOTDIR', 'ENOENT', 'EISDIR', 'EIO', 'ENAMETOOLONG']);
const FULL = new Set(['ENOSPC', 'EDQUOT']);
/** Free space under which a full disk is still full (a line and its newline fit in much less). */
const MIN_FREE_BYTES = 64 * 1024;

export interface FaultKeeper {
  fault(): AuditFault | undefined;
  /** A line was written: the fault, if any, is over. */
  cleared(): void;
  /** A write to `path` failed: throws DiskFullError or AuditUnwritableError (the fault set), or `err` as it is. */
  raise(err: unknown, path: string): never;
  /** Look at the folder now, making it when missing: the fault in force after the look. */
  check(): Promise<AuditFault | undefined>;
}

export function faultKeeper(o: {
  dir: string;
  host: string;
  now: () => number;
  logger?: Logger | undefined;
  onFault?: ((fault: AuditFault | undefined, was: AuditFault | undefined) => void) | undefined;
}): FaultKeeper {
  const { dir, host } = o;
  let fault: AuditFault | undefined;
  const set = (f: AuditFault | undefined) => {
    const was = fault;
    if (!f && !was) return;
    if (f && was && f.code === was.code) return; // the same fault goes on
    fault = f ? { ...f, since: was?.since ?? f.since } : undefined;
    if (fault) o.logger?.error({ event: 'audit.unwritable', ...fault }, `audit log: ${fault.error}`);
    else o.logger?.info({ event: 'audit.writable', dir }, `audit log: ${dir} can be written again`);
    o.onFault?.(fault, was);
  };
  const faultOf = (err: unknown, path: string): AuditFault | undefined => {
    const code = (err as NodeJS.ErrnoException).code ?? '';
    const message = (err as Error).message.split('\n')[0]!;
    if (FULL.has(code)) return { dir, code, error: `${path}: the disk is full (${code})`, since: o.now(), host };
    if (UNWRITABLE.has(code)) return { dir, code, error: `${dir} cannot be written: ${message}`, since: o.now(), host };
    return undefined;
  };
  return {
    fault: () => fault,
    cleared: () => set(undefined),
    raise(err, path) {
      const f = faultOf(err, path);
      if (!f) throw err;
      set(f);
      if (FULL.has(f.code)) throw new DiskFullError(path, f.code, { cause: err });
      throw new AuditUnwritableError(dir, `${f.code}: ${(err as Error).message}`, { cause: err });
    },
    async check() {
      try {
        await mkdir(dir, { recursive: true });
        await access(dir, constants.W_OK);
        if (fault && FULL.has(fault.code)) {
          const fs = await statfs(dir);
          if (fs.bavail * fs.bsize < MIN_FREE_BYTES) return fault;
        }
        set(undefined);
      } catch (err) {
        set(faultOf(err, dir) ?? { dir, code: 'E?', error: `${dir}: ${(err as Error).message}`, since: o.now(), host });
      }
      return fault;
    },
  };
}
