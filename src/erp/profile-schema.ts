/**
 * The shape of an output profile (erp-outputs/*.yaml), checked by zod; what the shape alone cannot say (a field of
 * the vocabulary, a setting the schema knows, a template that parses) is checked by output-profile.ts. Every key is
 * documented in docs/erp-outputs.md#writing-a-profile.
 */
import { z } from 'zod';

const name = z.string().trim().min(1, 'must not be empty');

/**
 * A column: a vocabulary field by its name (`po_key`), or one of `field`, `constant`, `setting`, `template`
 * (with a `name`), or `blank` (one or more columns left empty, for templates read by position).
 */
export const columnSchema = z.union([
  name,
  z.strictObject({
    name: name.optional(),
    field: name.optional(),
    constant: z.union([z.string(), z.number().transform(String)]).optional(),
    setting: name.optional(),
    template: name.optional(),
    blank: z.union([name, z.array(name).min(1)]).optional(),
    /** Values of the field -> the ERP's (units, currencies); a value not in the map is written as it is. */
    map: z.record(z.string(), z.union([z.string(), z.number().transform(String)])).optional(),
    /** A number rounded half-up to this many decimals and written with exactly that many. */
    decimals: z.number().int().min(0).max(10).optional(),
    /** Text cut to this many characters (the ERP's field length; the award file keeps the whole text). */
    max_length: z.number().int().min(1).max(100_000).optional(),
    /** Written on the first row of each PO only (Odoo's header fields); the PO's other rows leave it empty. */
    first_row_only: z.boolean().optional(),
  }),
]);

export const fileSchema = z.strictObject({
  /** The file's name: a template of award fields (`RFQ-{rfq_label}-v{award_version}.csv`). */
  name,
  /** One row per purchase order (`po`: a header file) or per awarded line (`line`). */
  rows: z.enum(['po', 'line']),
  columns: z.array(columnSchema).min(1, 'must list at least one column'),
});

export const formatSchema = z.strictObject({
  /** `csv`, `xlsx` (one workbook per file), or `zip` (the files as CSVs in one zip: Oracle FBDI). */
  type: z.enum(['csv', 'xlsx', 'zip']).default('csv'),
  /** The zip's name (type zip): a template of award fields. */
  zip_name: name.optional(),
  encoding: z.enum(['utf-8', 'utf-8-bom', 'windows-1252', 'iso-8859-1', 'utf-16le-bom']).default('utf-8'),
  delimiter: z.enum([',', ';', '\t', '|']).default(','),
  /** `as-needed`: a field is quoted when it holds the delimiter, a quote or a line break; `always`: every field. */
  quote: z.enum(['as-needed', 'always']).default('as-needed'),
  line_ending: z.enum(['crlf', 'lf']).default('crlf'),
  header_row: z.boolean().default(true),
  decimal: z.enum(['.', ',']).default('.'),
  thousands: z.enum(['', ',', '.', ' ', "'"]).default(''),
  /** Date pattern: yyyy yy MM dd HH mm ss and literal separators (`dd.MM.yyyy`, `yyyy/MM/dd`). */
  date: name.default('yyyy-MM-dd'),
  /** Text that would start a formula in a spreadsheet (= + - @ tab CR LF) is written with a leading `'`. */
  spreadsheet_safe: z.boolean().default(true),
  /** The worksheet's name (type xlsx). */
  sheet: name.optional(),
});

export const profileSchema = z.strictObject({
  name: z
    .string()
    .regex(/^[A-Za-z0-9._-]+$/, 'may hold only letters, digits, . _ -')
    .optional(),
  description: z.string().default(''),
  /** The ERP and its import route, for people (`SAP S/4HANA: upload report for BAPI_PO_CREATE1`). */
  erp: name,
  /**
   * What a superseding award version writes: `same-keys` (the POs keep their keys: import it as an update) or
   * `new-keys` (new PO keys: the earlier version's POs are cancelled in the ERP). Documented per ERP.
   */
  new_version: z.enum(['same-keys', 'new-keys']),
  format: formatSchema.default({
    type: 'csv',
    encoding: 'utf-8',
    delimiter: ',',
    quote: 'as-needed',
    line_ending: 'crlf',
    header_row: true,
    decimal: '.',
    thousands: '',
    date: 'yyyy-MM-dd',
    spreadsheet_safe: true,
  }),
  /** What makes one purchase order: award, PO or line fields; must include the supplier. */
  group_by: z.array(name).min(1).default(['requisition', 'supplier_key']),
  /** The ERP_* settings the installation must set for this profile (checked at start). */
  settings: z.array(name).default([]),
  files: z.array(fileSchema).min(1, 'must list at least one file'),
});

export type RawProfile = z.output<typeof profileSchema>;
export type RawColumn = z.output<typeof columnSchema>;
export type RawFormat = z.output<typeof formatSchema>;
