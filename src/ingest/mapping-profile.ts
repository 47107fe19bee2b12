/**
 * Mapping profiles: one YAML file per ERP export layout (mappings/*.yaml), validated with zod. A profile says which
 * files it fits (file name globs and/or header names), how header names become requisition fields (templates such
 * as `"PR {PR_NO} - {PLANT}"`), and how that export writes numbers and dates. Header names are compared after
 * normalisation (case, spaces and punctuation do not matter), so `Qty.`, `QTY` and `q t y` are one column.
 */
import { basename, extname } from 'node:path';
import { z } from 'zod';
import { MappingError, isValidTimeZone } from '../core/index.ts';
import { compileCategoryMap, type CategoryMap } from './category-map.ts';
import type { DateFormat } from './date-format.ts';
import type { NumberFormat } from './number-format.ts';

/** Case, spaces and punctuation in headers do not matter. */
export function normalizeHeader(s: string): string {
  return s
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '');
}

export type TemplatePart = { text: string } | { column: string; key: string };
export interface Template {
  source: string;
  parts: TemplatePart[];
}

/** `"PR {PR No.} - {Plant}"` -> literal and column parts; `{{` and `}}` stand for literal braces. */
export function parseTemplate(source: string): Template {
  const parts: TemplatePart[] = [];
  let text = '';
  for (let i = 0; i < source.length; i++) {
    const ch = source[i]!;
    if ((ch === '{' || ch === '}') && source[i + 1] === ch) {
      text += ch;
      i++;
    } else if (ch === '{') {
      const end = source.indexOf('}', i);
      if (end < 0) throw new MappingError(`unclosed "{" in "${source}"`);
      const column = source.slice(i + 1, end).trim();
      if (!column || normalizeHeader(column) === '') throw new MappingError(`empty column name "{}" in "${source}"`);
      if (text) parts.push({ text });
      text = '';
      parts.push({ column, key: normalizeHeader(column) });
      i = end;
    } else if (ch === '}') {
      throw new MappingError(`unmatched "}" in "${source}" (write "}}" for a literal brace)`);
    } else text += ch;
  }
  if (text) parts.push({ text });
  return { source, parts };
}

export function templateColumns(t: Template | undefined): string[] {
  return t ? t.parts.flatMap((p) => ('column' in p ? [p.column] : [])) : [];
}

const template = z.string().min(1, 'must not be empty');
const hhmm = z.string().regex(/^([01]?\d|2[0-3]):[0-5]\d$/, 'must be a time HH:mm');

const profileSchema = z.strictObject({
  name: z
    .string()
    .regex(/^[A-Za-z0-9._-]+$/, 'may hold only letters, digits, . _ -')
    .optional(),
  description: z.string().optional(),
  match: z
    .strictObject({
      filename: z.union([z.string(), z.array(z.string()).min(1)]).optional(),
      headers: z.array(z.string().min(1)).min(1).optional(),
    })
    .default({}),
  source: z
    .strictObject({
      delimiter: z.enum(['auto', ',', ';', '\t', '|']).default('auto'),
      sheet: z.string().min(1).optional(),
      header_row: z.number().int().min(1).max(1000).optional(),
      /** 2: the header is over two rows (names merged down, group headings over sub-headings); each column's lowest name. */
      header_rows: z.number().int().min(1).max(2).optional(),
      /** Rows hidden in the sheet (by a filter or by hand): held with their requisitions (default), left out, or read. */
      hidden_rows: z.enum(['hold', 'skip', 'read']).default('hold'),
    })
    .default({ delimiter: 'auto', hidden_rows: 'hold' }),
  numbers: z
    .strictObject({
      decimal: z.enum(['.', ',']).default('.'),
      thousands: z.enum(['auto', '.', ',', ' ', "'", 'none']).default('auto'),
    })
    .default({ decimal: '.', thousands: 'auto' }),
  dates: z
    .strictObject({
      formats: z.array(z.string().min(1)).min(1).default(['iso', 'excel_serial']),
      time_zone: z
        .string()
        .refine(isValidTimeZone, 'is not an IANA time zone (e.g. Europe/Berlin, UTC)')
        .default('UTC'),
      default_time: hhmm.default('12:00'),
    })
    .default({ formats: ['iso', 'excel_serial'], time_zone: 'UTC', default_time: '12:00' }),
  continuation: z.union([z.boolean(), z.strictObject({ columns: z.array(z.string().min(1)).min(1) })]).default(false),
  qty_rounding: z.enum(['error', 'half_up', 'up', 'down']).default('error'),
  /**
   * ISO 4217 currency of the export's amounts, kept with each tracked RFQ: a code (`EUR`), or a template naming the
   * export's currency column (`"{Currency}"`), read from each requisition's first row.
   */
  currency: z
    .string()
    .regex(
      /^(?:[A-Z]{3}|.*\{[^}]+\}.*)$/,
      'is an ISO 4217 code (three capital letters, e.g. EUR) or a column ("{Currency}")',
    )
    .optional(),
  /** The required date where the export has none: this many days (of 24 hours) after the due date. */
  required_date_rule: z.strictObject({ days_after_due: z.number().int().min(1).max(3650) }).optional(),
  /** ERP value -> the service's category (quote codes with leading zeros in YAML: "001": ...). */
  category_map: z
    .record(z.string().trim().min(1), z.union([z.string(), z.number().transform((n) => String(n))]))
    .refine((m) => Object.values(m).every((v) => v.trim() !== ''), 'every category must be a non-empty text')
    .optional(),
  due_date_rule: z
    .strictObject({ days_after_ingest: z.number().int().min(0).max(3650), at: hhmm.default('17:00') })
    .optional(),
  /** Rows that are not requisition lines (a totals row, a trailer): left out, each reported as skipped with the rule. */
  skip_rows: z
    .array(
      z.union([
        z.strictObject({ column: z.string().min(1), equals: z.array(z.string().min(1)).min(1) }),
        z.strictObject({ column: z.string().min(1), matches: z.string().min(1) }),
        z.strictObject({ column: z.string().min(1), blank: z.literal(true) }),
      ]),
    )
    .default([]),
  fields: z.strictObject({
    requisition: template,
    external_id: template,
    product_name: template,
    qty: template,
    specification: template.optional(),
    uom: template.optional(),
    estimated_price: template.optional(),
    unit_price: template.optional(),
    price_unit: template.optional(),
    /** The ERP's material or item number: the key of the price history (the last price paid for the product). */
    product_code: template.optional(),
    title: template.optional(),
    description: template.optional(),
    due_date: template.optional(),
    required_date: template.optional(),
    rfq_type: template.optional(),
    rfq_category: template.optional(),
    rfq_location: template.optional(),
  }),
});

export type FieldName = keyof z.infer<typeof profileSchema>['fields'];

export interface MappingProfile {
  name: string;
  description: string;
  /** The YAML file it came from (for messages). */
  file: string;
  filenameGlobs: string[];
  filenamePatterns: RegExp[];
  /** Headers (as written in the profile) that identify the layout; default: every column the fields use. */
  matchHeaders: string[];
  delimiter: 'auto' | ',' | ';' | '\t' | '|';
  sheet?: string;
  headerRow?: number;
  /** The header is over two rows (`source.header_rows: 2`). */
  headerRows?: 2;
  /** What becomes of rows hidden in the sheet: their requisitions held, the rows left out, or read as any other. */
  hiddenRows: 'hold' | 'skip' | 'read';
  numbers: NumberFormat;
  dates: DateFormat;
  /** Columns filled from the row above when the requisition column is blank (Odoo); empty = off. */
  continuationColumns: string[];
  qtyRounding: 'error' | 'half_up' | 'up' | 'down';
  dueDateRule?: { daysAfterIngest: number; at: string };
  /** Required date = due date + this many days, where the export gives none. */
  requiredDateRule?: { daysAfterDue: number };
  /** ISO 4217 code of the requisitions' amounts, when the profile names one. */
  currency?: string;
  /** The column template the currency is read from, per requisition (`currency: "{Currency}"`). */
  currencyTemplate?: Template;
  /** ERP values of rfq_category -> the service's categories (`category_map:`). */
  categoryMap?: CategoryMap;
  /** Rows left out (skip_rows): a row is skipped when any rule holds. */
  skipRows: SkipRule[];
  fields: Partial<Record<FieldName, Template>>;
  /** Every column named by a template: all must be in the header. */
  columns: string[];
}

/** One skip_rows rule: the column's text equals one of `equals` (any case), matches `matches`, or is blank. */
export interface SkipRule {
  column: string;
  /** Lower case, trimmed. */
  equals?: string[];
  /** The whole trimmed text, any case (`Rows: \d+`). */
  matches?: RegExp;
  blank?: true;
}

/** Header-level fields: taken from a requisition's first row (they describe the requisition, not the line). */
export const REQUISITION_FIELDS: readonly FieldName[] = [
  'requisition',
  'title',
  'description',
  'due_date',
  'required_date',
  'rfq_type',
  'rfq_category',
  'rfq_location',
];

const DATE_TOKEN_CHECK = /^(iso|excel_serial|[yMdHms.\-/ :,T']+)$/;

export function globToRegExp(glob: string): RegExp {
  const src = glob
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${src}$`, 'i');
}

/** Validate one parsed YAML document; `file` names it in errors. */
export function compileProfile(raw: unknown, file: string): MappingProfile {
  const parsed = profileSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = issue.path.join('.') || '(top level)';
    throw new MappingError(`mapping profile ${file}: field ${field}: ${issue.message}`);
  }
  const p = parsed.data;
  const fail = (field: string, reason: string): never => {
    throw new MappingError(`mapping profile ${file}: field ${field}: ${reason}`);
  };
  const fields: Partial<Record<FieldName, Template>> = {};
  for (const [k, v] of Object.entries(p.fields) as [FieldName, string | undefined][]) {
    if (v === undefined) continue;
    try {
      fields[k] = parseTemplate(v);
    } catch (err) {
      fail(`fields.${k}`, (err as Error).message);
    }
  }
  if (fields.estimated_price && fields.unit_price)
    fail('fields.unit_price', 'give either estimated_price (line total) or unit_price, not both');
  if (fields.price_unit && !fields.unit_price) fail('fields.price_unit', 'needs fields.unit_price');
  if (p.category_map && !fields.rfq_category) fail('category_map', 'needs fields.rfq_category (the values it maps)');
  if (!fields.due_date && !p.due_date_rule)
    fail('fields.due_date', 'give a due_date column or a due_date_rule (days_after_ingest)');
  for (const f of p.dates.formats)
    if (!DATE_TOKEN_CHECK.test(f))
      fail(
        'dates.formats',
        `"${f}" is not a date pattern (tokens yyyy yy MMM MM M dd d HH mm ss, or iso, or excel_serial)`,
      );
  const rfqType = fields.rfq_type;
  if (rfqType && rfqType.parts.every((x) => 'text' in x) && !/^(public|private)$/i.test(rfqType.source.trim())) {
    fail('fields.rfq_type', `"${rfqType.source}" must be Public or Private`);
  }
  let currencyTemplate: Template | undefined;
  if (p.currency?.includes('{'))
    try {
      currencyTemplate = parseTemplate(p.currency);
    } catch (err) {
      fail('currency', (err as Error).message);
    }
  const columns = [...new Set([...Object.values(fields), currencyTemplate].flatMap(templateColumns))];
  const keys = new Set(columns.map(normalizeHeader));
  let continuationColumns: string[] = [];
  if (p.continuation === true) {
    continuationColumns = [
      ...new Set([...REQUISITION_FIELDS.map((f) => fields[f]), currencyTemplate].flatMap(templateColumns)),
    ];
  } else if (typeof p.continuation === 'object') {
    continuationColumns = p.continuation.columns;
    for (const c of continuationColumns)
      if (!keys.has(normalizeHeader(c))) fail('continuation.columns', `"${c}" is not a column used by any field`);
  }
  const skipRows: SkipRule[] = p.skip_rows.map((r, i) => {
    if ('blank' in r && continuationColumns.some((c) => normalizeHeader(c) === normalizeHeader(r.column)))
      fail(
        `skip_rows.${i}.blank`,
        `"${r.column}" is copied down by continuation: its blank rows continue a requisition`,
      );
    if ('blank' in r) return { column: r.column, blank: true };
    if ('equals' in r) return { column: r.column, equals: r.equals.map((v) => v.trim().toLowerCase()) };
    try {
      return { column: r.column, matches: new RegExp(`^(?:${r.matches})$`, 'iu') };
    } catch (err) {
      return fail(`skip_rows.${i}.matches`, `is not a regular expression (${(err as Error).message})`);
    }
  });
  const globs =
    p.match.filename === undefined ? [] : Array.isArray(p.match.filename) ? p.match.filename : [p.match.filename];
  return {
    name: p.name ?? basename(file, extname(file)),
    description: p.description ?? '',
    file,
    filenameGlobs: globs,
    filenamePatterns: globs.map(globToRegExp),
    matchHeaders: p.match.headers ?? columns,
    delimiter: p.source.delimiter,
    sheet: p.source.sheet,
    headerRow: p.source.header_row,
    ...(p.source.header_rows === 2 ? { headerRows: 2 as const } : {}),
    hiddenRows: p.source.hidden_rows,
    numbers: { decimal: p.numbers.decimal, thousands: p.numbers.thousands },
    dates: { formats: p.dates.formats, timeZone: p.dates.time_zone, defaultTime: p.dates.default_time },
    continuationColumns,
    qtyRounding: p.qty_rounding,
    dueDateRule: p.due_date_rule && { daysAfterIngest: p.due_date_rule.days_after_ingest, at: p.due_date_rule.at },
    ...(p.required_date_rule ? { requiredDateRule: { daysAfterDue: p.required_date_rule.days_after_due } } : {}),
    ...(currencyTemplate ? { currencyTemplate } : p.currency ? { currency: p.currency } : {}),
    ...(p.category_map ? { categoryMap: compileCategoryMap(p.category_map) } : {}),
    skipRows,
    fields,
    columns,
  };
}
