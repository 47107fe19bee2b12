/**
 * The templates of an output profile (file names, `{ template: ... }` columns): literal text with vocabulary fields
 * in braces, `{field}` or `{field:N}` (a whole number zero-padded to N digits: `{po_seq:3}` -> `007`); `{{` and `}}`
 * stand for literal braces.
 */
import { VOCABULARY, LEVEL_ORDER, type FieldLevel } from './vocabulary.ts';

export type TemplatePart = string | { field: string; pad?: number };

export interface TextTemplate {
  source: string;
  parts: TemplatePart[];
  /** The deepest level a field of it reads (`award` < `po` < `line`). */
  level: FieldLevel;
}

/** Parses `source`; a problem is returned as text (the loader names the file, line and field). */
export function parseTextTemplate(source: string, maxLevel: FieldLevel): TextTemplate | string {
  const parts: TemplatePart[] = [];
  let text = '';
  let level: FieldLevel = 'award';
  for (let i = 0; i < source.length; i++) {
    const ch = source[i]!;
    if ((ch === '{' || ch === '}') && source[i + 1] === ch) {
      text += ch;
      i++;
      continue;
    }
    if (ch === '}') return `unmatched "}" in "${source}" (write "}}" for a literal brace)`;
    if (ch !== '{') {
      text += ch;
      continue;
    }
    const end = source.indexOf('}', i);
    if (end < 0) return `unclosed "{" in "${source}"`;
    const m = /^\s*([a-z_]+)\s*(?::\s*(\d{1,2})\s*)?$/.exec(source.slice(i + 1, end));
    if (!m) return `"{${source.slice(i + 1, end)}}" is not {field} or {field:digits}`;
    const field = VOCABULARY[m[1]!];
    if (!field) return `"${m[1]}" is not a field of the vocabulary (docs/erp-outputs.md#vocabulary)`;
    if (LEVEL_ORDER[field.level] > LEVEL_ORDER[maxLevel])
      return `"${m[1]}" is a ${field.level} field: not known where this template is used (${maxLevel} level)`;
    if (LEVEL_ORDER[field.level] > LEVEL_ORDER[level]) level = field.level;
    if (text) parts.push(text);
    text = '';
    parts.push(m[2] !== undefined ? { field: m[1]!, pad: Number(m[2]) } : { field: m[1]! });
    i = end;
  }
  if (text) parts.push(text);
  return { source, parts, level };
}
