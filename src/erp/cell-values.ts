/**
 * The value of one column in one row of an output profile's file: the vocabulary field (mapped, rounded, in the
 * profile's number and date style), the constant, the setting or the template, as text ready for the file. Text from
 * outside (supplier names, product texts) is made safe for what reads it: line breaks and tabs become spaces (an
 * ERP import reads a record per line), it is cut to the column's `max_length`, fitted to the file's encoding, and,
 * for a profile a spreadsheet may open, kept from starting a formula (src/core/spreadsheet-safety.ts).
 */
import type { Decimal } from 'decimal.js';
import { safeCellText } from '../core/index.ts';
import type { ErpAward, ErpAwardLine } from './award.ts';
import { dateText } from './date-text.ts';
import { fitEncoding } from './file-encoding.ts';
import { numberText, roundedFor } from './number-text.ts';
import type { ErpColumn, ErpProfile } from './output-profile.ts';
import type { TextTemplate } from './text-template.ts';
import { VOCABULARY, type ErpPo, type FieldValue } from './vocabulary.ts';

/** A cell: its text, and for a number the value a workbook cell holds. */
export interface Cell {
  text: string;
  number?: number;
}

export interface RowContext {
  award: ErpAward;
  po: ErpPo;
  line?: ErpAwardLine;
  /** 1-based position of the line in its PO (1 for a PO row). */
  lineNo: number;
  settings: Readonly<Record<string, string | undefined>>;
  /** Each text that had to change (cut, encoding), for the log. */
  warnings: string[];
}

const EMPTY: Cell = { text: '' };

function isDecimal(v: FieldValue): v is Decimal {
  return typeof v === 'object' && v !== null && 'toFixed' in v;
}

/** A field's value as plain text inside a template: numbers exact (padded when asked), dates in the profile's pattern. */
function plain(v: FieldValue, profile: ErpProfile, award: ErpAward, pad?: number): string {
  if (v === undefined) return '';
  if (typeof v === 'string') return v;
  if (isDecimal(v)) return pad !== undefined ? v.toFixed().padStart(pad, '0') : v.toFixed();
  return dateText(v, profile.format.date, award.timeZone);
}

export function templateText(
  t: TextTemplate,
  profile: ErpProfile,
  ctx: Omit<RowContext, 'warnings' | 'settings'>,
): string {
  return t.parts
    .map((p) =>
      typeof p === 'string'
        ? p
        : plain(VOCABULARY[p.field]!.get(ctx.award, ctx.po, ctx.line, ctx.lineNo), profile, ctx.award, p.pad),
    )
    .join('');
}

/** Text from outside as the file may hold it (see the file's comment). */
function safeText(raw: string, col: ErpColumn, profile: ErpProfile, ctx: RowContext): Cell {
  let text = raw.replace(/[\r\n\t]+/g, ' ');
  if (col.maxLength !== undefined && [...text].length > col.maxLength) {
    text = [...text].slice(0, col.maxLength).join('').trimEnd();
    ctx.warnings.push(`${col.name}: "${raw}" cut to ${col.maxLength} characters`);
  }
  const fitted = fitEncoding(text, profile.format.encoding);
  if (fitted.changed)
    ctx.warnings.push(`${col.name}: "${text}" written as "${fitted.text}" (${profile.format.encoding})`);
  text = fitted.text;
  return { text: profile.format.spreadsheet_safe ? safeCellText(text) : text };
}

function fieldCell(
  col: ErpColumn,
  field: string,
  map: Record<string, string> | undefined,
  profile: ErpProfile,
  ctx: RowContext,
): Cell {
  const def = VOCABULARY[field]!;
  const v = def.get(ctx.award, ctx.po, ctx.line, ctx.lineNo);
  if (v === undefined) return EMPTY;
  if (map) {
    const key = plain(v, profile, ctx.award);
    if (key in map) return safeText(map[key]!, col, profile, ctx);
  }
  if (typeof v === 'string') return safeText(v, col, profile, ctx);
  if (isDecimal(v)) {
    const f = profile.format;
    return {
      text: numberText(v, def.kind, col.decimals, { decimal: f.decimal, thousands: f.thousands }),
      number: roundedFor(v, col.decimals).toNumber(),
    };
  }
  return { text: dateText(v, profile.format.date, ctx.award.timeZone) };
}

/** The cell of `col` in this row; `first`: the PO's first row (a `first_row_only` column is empty on the others). */
export function cellOf(col: ErpColumn, profile: ErpProfile, ctx: RowContext, first: boolean): Cell {
  if (col.firstRowOnly && !first) return EMPTY;
  const s = col.source;
  switch (s.kind) {
    case 'blank':
      return EMPTY;
    case 'constant':
      return safeText(s.value, col, profile, ctx);
    case 'setting':
      return safeText(ctx.settings[s.setting] ?? '', col, profile, ctx);
    case 'template':
      return safeText(templateText(s.template, profile, ctx), col, profile, ctx);
    case 'field':
      return fieldCell(col, s.field, s.map, profile, ctx);
  }
}
