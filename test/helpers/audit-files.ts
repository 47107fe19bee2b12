/** The audit log's files in a folder, sorted (the index beside them, `index.<host>.sqlite`, is not one of them). */
import { existsSync, readdirSync } from 'node:fs';

export function auditLogFiles(dir: string): string[] {
  return existsSync(dir)
    ? readdirSync(dir)
        .filter((n) => n.endsWith('.jsonl'))
        .sort()
    : [];
}
