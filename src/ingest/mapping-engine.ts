/**
 * A profile bound to one file's header row: template columns resolved to cell indexes, so each data row is turned
 * into field text (or the raw typed cell, for numbers and dates from xlsx) without looking names up again.
 */
import { DateTime, type CellValue } from './formats/index.ts';
import { normalizeHeader, type FieldName, type MappingProfile, type Template } from './mapping-profile.ts';

export type Cell = CellValue | string;

/** What a template of the profile fills: a field, or the requisition's currency (`currency: "{Currency}"`). */
export type BoundField = FieldName | 'currency';

/** A cell as text: dates as ISO (yyyy-MM-dd, or with time), numbers as JS writes them, trimmed. */
export function cellText(c: Cell | undefined): string {
  if (c === null || c === undefined) return '';
  if (typeof c === 'string') return c.trim();
  if (c instanceof Date) {
    if (Number.isNaN(c.getTime())) return '';
    const iso = new Date(Math.round(c.getTime() / 1000) * 1000).toISOString();
    return iso.endsWith('T00:00:00.000Z') && !(c instanceof DateTime) ? iso.slice(0, 10) : iso.slice(0, 19);
  }
  return String(c);
}

export function isBlankRow(cells: readonly Cell[]): boolean {
  for (const c of cells) if (cellText(c) !== '') return false;
  return true;
}

const NONE: string[] = [];

/** A template part bound to the file: literal text, or a cell index (-1: the column is not in the file). */
interface BoundPart {
  text: string | undefined;
  index: number;
}

/** A field's template bound to the file, with what each row's read of it needs worked out once. */
interface BoundTemplate {
  parts: BoundPart[];
  /** The cell index when the template is exactly one column (-1: not in the file), else NOT_ONE_COLUMN. */
  column: number;
  /** The text when the template is literal text alone (trimmed). */
  constant: string | undefined;
  /** The column label for reports (label()). */
  label: string;
}
const NOT_ONE_COLUMN = -2;

export interface BoundMapping {
  profile: MappingProfile;
  /** 1-based row number of the header row. */
  headerRow: number;
  /** Header text as written in the file, by cell index. */
  headers: string[];
  has(field: BoundField): boolean;
  /** Rendered template text (trimmed); '' when the field is unmapped or its cells are empty. */
  text(field: BoundField, cells: readonly Cell[]): string;
  /** The typed cell when the template is exactly one column, else the rendered text. */
  value(field: FieldName, cells: readonly Cell[]): Cell;
  /** Headers of the template's columns that are empty in this row. */
  emptyColumns(field: FieldName, cells: readonly Cell[]): string[];
  /** Column label for reports: the file's header for a one-column template, else the field name. */
  label(field: BoundField): string;
  /** Odoo-style continuation rows: blank requisition column -> copy the parent columns from the row above. */
  fillFromAbove(cells: Cell[], above: readonly Cell[] | undefined): Cell[];
  /** Why the row is left out (the profile's skip_rows), or undefined: it is a requisition line. */
  skipReason(cells: readonly Cell[]): string | undefined;
}

/** Where the header's columns sit; `missing` lists the profile's columns the row lacks. */
export function headerIndex(headerCells: readonly Cell[]): Map<string, number> {
  const idx = new Map<string, number>();
  headerCells.forEach((c, i) => {
    const k = normalizeHeader(cellText(c));
    if (k && !idx.has(k)) idx.set(k, i);
  });
  return idx;
}

export function missingColumns(profile: MappingProfile, idx: Map<string, number>): string[] {
  const need = [...new Set([...profile.columns, ...profile.matchHeaders, ...profile.skipRows.map((r) => r.column)])];
  return need.filter((c) => !idx.has(normalizeHeader(c)));
}

export function bindMapping(profile: MappingProfile, headerCells: readonly Cell[], headerRow: number): BoundMapping {
  const idx = headerIndex(headerCells);
  const headers = headerCells.map(cellText);
  const bound = new Map<BoundField, BoundTemplate>();
  const templates = Object.entries(profile.fields) as [BoundField, Template][];
  if (profile.currencyTemplate) templates.push(['currency', profile.currencyTemplate]);
  for (const [field, t] of templates) {
    const parts: BoundPart[] = t.parts.map((p) =>
      'text' in p ? { text: p.text, index: -1 } : { text: undefined, index: idx.get(p.key) ?? -1 },
    );
    const one = parts.length === 1 ? parts[0]! : undefined;
    const column = one && one.text === undefined ? one.index : NOT_ONE_COLUMN;
    // A field built from several columns ("{PR}-{Line}") is named with them, so the user knows where to look.
    const cols = parts.filter((p) => p.text === undefined && p.index >= 0).map((p) => headers[p.index] ?? '');
    const label =
      column !== NOT_ONE_COLUMN
        ? (column >= 0 && headers[column]) || field
        : cols.length > 0
          ? `${field} (${cols.join(' + ')})`
          : field;
    bound.set(field, { parts, column, constant: one?.text?.trim(), label });
  }
  const contIdx = profile.continuationColumns
    .map((c) => idx.get(normalizeHeader(c)))
    .filter((i): i is number => i !== undefined && i >= 0);
  const skips = profile.skipRows.flatMap((r) => {
    const index = idx.get(normalizeHeader(r.column));
    return index === undefined ? [] : [{ ...r, index }];
  });
  const keyParts = bound
    .get('requisition')!
    .parts.filter((p) => p.text === undefined)
    .map((p) => p.index);

  const text = (field: BoundField, cells: readonly Cell[]): string => {
    const b = bound.get(field);
    if (!b) return '';
    if (b.column >= 0) return cellText(cells[b.column]);
    if (b.constant !== undefined) return b.constant;
    if (b.column === -1) return '';
    let s = '';
    let anyColumn = false;
    let anyValue = false;
    for (const p of b.parts) {
      if (p.text !== undefined) s += p.text;
      else {
        anyColumn = true;
        const v = p.index >= 0 ? cellText(cells[p.index]) : '';
        if (v !== '') anyValue = true;
        s += v;
      }
    }
    // "PR {A}-{B}" with both columns empty is empty, not "PR -".
    return anyColumn && !anyValue ? '' : s.trim();
  };

  return {
    profile,
    headerRow,
    headers,
    has: (field) => bound.has(field),
    text,
    value(field, cells) {
      const b = bound.get(field);
      if (b !== undefined && b.column !== NOT_ONE_COLUMN) {
        const c = b.column >= 0 ? cells[b.column] : undefined;
        return c === undefined ? null : typeof c === 'string' ? c.trim() : c;
      }
      return text(field, cells);
    },
    emptyColumns(field, cells) {
      const parts = bound.get(field)?.parts ?? [];
      let out: string[] | undefined;
      for (const p of parts) {
        if (p.text === undefined && (p.index < 0 || cellText(cells[p.index]) === ''))
          (out ??= []).push(headers[p.index] ?? '');
      }
      return out ?? NONE;
    },
    label: (field) => bound.get(field)?.label ?? field,
    skipReason(cells) {
      for (const r of skips) {
        const t = cellText(cells[r.index]);
        if (r.blank ? t === '' : r.matches ? r.matches.test(t) : r.equals!.includes(t.toLowerCase()))
          return `skipped by the profile's skip_rows: "${headers[r.index] ?? r.column}" is ${r.blank ? 'blank' : `"${t}"`}`;
      }
      return undefined;
    },
    fillFromAbove(cells, above) {
      if (contIdx.length === 0 || !above) return cells;
      if (keyParts.some((i) => cellText(cells[i]) !== '')) return cells;
      const out = cells.slice();
      for (const i of contIdx) if (cellText(out[i]) === '') out[i] = above[i] ?? null;
      return out;
    },
  };
}
