/**
 * One bad field never hides a record (docs/architecture.md#where-the-interface-is-silent): a record is read through
 * its schema; each field that breaks it is left out (named with its reason and the value it had) and the rest read
 * again, unless the field is part of the record's identity (`isIdentity`): then the record as a whole cannot be
 * read. What was left out travels with the record, so the workbook can say so and decide whether it matters.
 */
import type { z } from 'zod';
import type { UnreadableField } from './types.ts';

export type TolerantResult<T> =
  { ok: true; data: T; unreadable: UnreadableField[] } | { ok: false; field: string; reason: string };

/** Passes at most: each pass drops every field that broke (nested shapes may show more after a drop). */
const MAX_PASSES = 6;
/** A record with more unreadable fields than this is not one record with bad fields: it is another shape. */
const MAX_UNREADABLE = 200;

type Path = Array<string | number>;

export function parseFieldTolerant<T>(
  schema: z.ZodType<T>,
  raw: unknown,
  isIdentity: (path: readonly string[]) => boolean,
): TolerantResult<T> {
  let value = raw;
  let cloned = false;
  const unreadable: UnreadableField[] = [];
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    const r = schema.safeParse(value);
    if (r.success) return { ok: true, data: r.data, unreadable };
    const leaves = leafIssues(r.error.issues, []);
    // Later array positions first, so removing one does not shift the others of this pass.
    leaves.sort((a, b) => compareDesc(a.path, b.path));
    if (!cloned) {
      value = structuredClone(value);
      cloned = true;
    }
    for (const { path, message } of leaves) {
      const field = path.map(String).join('.') || '(body)';
      if (path.length === 0 || isIdentity(path.map(String))) return { ok: false, field, reason: message };
      const had = valueAt(raw, path);
      if (!removeAt(value, path)) return { ok: false, field, reason: message };
      unreadable.push({ field, reason: had === undefined ? message : `${message} (was ${show(had)})` });
      if (unreadable.length > MAX_UNREADABLE)
        return { ok: false, field, reason: `${message}; more than ${MAX_UNREADABLE} fields unreadable` };
    }
  }
  const last = schema.safeParse(value);
  if (last.success) return { ok: true, data: last.data, unreadable };
  const leaf = leafIssues(last.error.issues, [])[0];
  return { ok: false, field: leaf?.path.map(String).join('.') || '(body)', reason: leaf?.message ?? 'invalid' };
}

/** Each issue down to its leaf; of a union's branches, the one that got furthest (the shape the sender meant). */
function leafIssues(issues: readonly z.core.$ZodIssue[], prefix: Path): Leaf[] {
  const out: Leaf[] = [];
  for (const issue of issues) {
    const path = [...prefix, ...(issue.path as Path)];
    if (issue.code === 'invalid_union' && issue.errors.length > 0) {
      let best: Leaf[] | undefined;
      let bestScore = -1;
      for (const branch of issue.errors) {
        const leaves = leafIssues(branch, path);
        const depth = Math.max(...leaves.map((l) => l.path.length));
        // deeper first; at one depth, a branch that took the value's type and refused its content says more
        const score = depth * 2 + (leaves.some((l) => l.generic) ? 0 : 1);
        if (score > bestScore) {
          best = leaves;
          bestScore = score;
        }
      }
      const depth = Math.floor(bestScore / 2);
      // No branch got past the value itself: the value is what is unreadable.
      if (best && depth > path.length) out.push(...best);
      else out.push({ path, message: best?.[0]?.message ?? issue.message, generic: best?.[0]?.generic ?? true });
    } else
      out.push({
        path,
        message: issue.message,
        generic: issue.code === 'invalid_type' || issue.code === 'invalid_value',
      });
  }
  return out;
}

/** An issue at its leaf; `generic`: only a type or literal mismatch (another branch may explain better). */
interface Leaf {
  path: Path;
  message: string;
  generic: boolean;
}

function compareDesc(a: Path, b: Path): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    if (a[i] === b[i]) continue;
    const x = Number(a[i]);
    const y = Number(b[i]);
    if (Number.isInteger(x) && Number.isInteger(y)) return y - x;
    return String(b[i]) < String(a[i]) ? -1 : 1;
  }
  return b.length - a.length;
}

function valueAt(root: unknown, path: Path): unknown {
  let v = root;
  for (const k of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string, unknown>)[String(k)];
  }
  return v;
}

/** Removes the value at `path` (an array element is spliced out); false when there is nothing there to remove. */
function removeAt(root: unknown, path: Path): boolean {
  const parent = valueAt(root, path.slice(0, -1));
  const key = path[path.length - 1]!;
  if (parent === null || typeof parent !== 'object') return false;
  if (Array.isArray(parent)) {
    const i = Number(key);
    if (!Number.isInteger(i) || i < 0 || i >= parent.length) return false;
    parent.splice(i, 1);
    return true;
  }
  if (!(String(key) in parent)) return false;
  delete (parent as Record<string, unknown>)[String(key)];
  return true;
}

/** A short, safe rendering of the value that was left out. */
function show(v: unknown): string {
  let s: string;
  try {
    s = typeof v === 'string' ? JSON.stringify(v) : (JSON.stringify(v) ?? String(v));
  } catch {
    s = String(v);
  }
  return s.length > 60 ? `${s.slice(0, 57)}...` : s;
}
