/**
 * An output profile compiled from its YAML (profile-schema.ts): every column resolved to its source (a vocabulary
 * field, a constant, a setting, a template or blank), every template parsed, every name checked. Problems come back
 * with the path of the field they concern, so the loader (profile-files.ts) can name the file, the line and the field.
 */
import { ERP_CONSTANT_NAMES } from '../settings/index.ts';
import { checkDatePattern } from './date-text.ts';
import { profileSchema, type RawColumn, type RawFormat } from './profile-schema.ts';
import { parseTextTemplate, type TextTemplate } from './text-template.ts';
import { LEVEL_ORDER, VOCABULARY, type FieldLevel } from './vocabulary.ts';

export type ColumnSource =
  | { kind: 'field'; field: string; map?: Record<string, string> }
  | { kind: 'constant'; value: string }
  | { kind: 'setting'; setting: string }
  | { kind: 'template'; template: TextTemplate }
  | { kind: 'blank' };

export interface ErpColumn {
  name: string;
  source: ColumnSource;
  decimals?: number;
  maxLength?: number;
  firstRowOnly: boolean;
}

export interface ErpFileSpec {
  name: TextTemplate;
  rows: 'po' | 'line';
  columns: ErpColumn[];
}

export interface ErpProfile {
  name: string;
  description: string;
  erp: string;
  /** The YAML it came from. */
  file: string;
  newVersion: 'same-keys' | 'new-keys';
  format: RawFormat & { zipName?: TextTemplate };
  groupBy: string[];
  /** The ERP_* settings it needs. */
  settings: string[];
  files: ErpFileSpec[];
  /** The vendor cross-reference's fields its columns read (`erp_vendor_id`, `erp_vendor_site`). */
  vendorFields: Array<'erp_vendor_id' | 'erp_vendor_site'>;
}

/** PO fields made from the grouping itself: never a grouping key. */
const DERIVED_PO_FIELDS = ['po_key', 'po_key_version', 'po_seq', 'po_lines', 'po_total'];

export interface ProfileProblem {
  path: Array<string | number>;
  message: string;
}

type Compiled = { profile: ErpProfile; problems?: undefined } | { problems: ProfileProblem[]; profile?: undefined };

/** Validates one parsed YAML document; `file` is its path (the profile's default name is its stem). */
export function compileOutputProfile(raw: unknown, file: string, stem: string): Compiled {
  const parsed = profileSchema.safeParse(raw);
  if (!parsed.success)
    return {
      problems: parsed.error.issues.map((i) => ({ path: i.path.map((p) => p as string | number), message: i.message })),
    };
  const p = parsed.data;
  const problems: ProfileProblem[] = [];
  const fail = (path: Array<string | number>, message: string) => problems.push({ path, message });
  const format = compileFormat(p.format, fail);
  for (const [i, s] of p.settings.entries())
    if (!ERP_CONSTANT_NAMES.includes(s))
      fail(['settings', i], `${s} is not an ERP setting (${ERP_CONSTANT_NAMES.join(', ')})`);
  for (const [i, g] of p.group_by.entries())
    if (!VOCABULARY[g]) fail(['group_by', i], `"${g}" is not a field of the vocabulary`);
    else if (DERIVED_PO_FIELDS.includes(g))
      fail(['group_by', i], `"${g}" is made from the PO: it cannot decide the PO`);
  if (!p.group_by.some((g) => g === 'supplier_key' || g === 'erp_vendor_id'))
    fail(['group_by'], 'must include supplier_key or erp_vendor_id: a purchase order has one supplier');
  const files = p.files.map((f, fi): ErpFileSpec => {
    const name = parseTextTemplate(f.name, 'award');
    if (typeof name === 'string') fail(['files', fi, 'name'], name);
    const columns = f.columns.flatMap((c, ci) =>
      compileColumn(
        c,
        f.rows === 'po' ? 'po' : 'line',
        f.rows,
        (path, m) => fail(['files', fi, 'columns', ci, ...path], m),
        p.settings,
      ),
    );
    return {
      name: typeof name === 'string' ? { source: f.name, parts: [], level: 'award' } : name,
      rows: f.rows,
      columns,
    };
  });
  if (problems.length > 0) return { problems };
  const used = new Set(
    files.flatMap((f) =>
      f.columns.flatMap((c) =>
        c.source.kind === 'field' ? [c.source.field] : c.source.kind === 'template' ? fieldsOf(c.source.template) : [],
      ),
    ),
  );
  return {
    profile: {
      name: p.name ?? stem,
      description: p.description,
      erp: p.erp,
      file,
      newVersion: p.new_version,
      format,
      groupBy: p.group_by,
      settings: p.settings,
      files,
      vendorFields: (['erp_vendor_id', 'erp_vendor_site'] as const).filter(
        (f) => used.has(f) || p.group_by.includes(f),
      ),
    },
  };
}

function fieldsOf(t: TextTemplate): string[] {
  return t.parts.flatMap((x) => (typeof x === 'string' ? [] : [x.field]));
}

function compileFormat(f: RawFormat, fail: (path: Array<string | number>, m: string) => void): ErpProfile['format'] {
  const at = (k: string) => ['format', k];
  const dateProblem = checkDatePattern(f.date);
  if (dateProblem) fail(at('date'), dateProblem);
  if (f.decimal === f.thousands) fail(at('thousands'), `must differ from the decimal separator "${f.decimal}"`);
  if (f.type !== 'xlsx' && f.delimiter === f.decimal)
    fail(at('delimiter'), `"${f.delimiter}" is also the decimal separator: every amount would need quotes`);
  if (f.type === 'zip' && !f.zip_name) fail(at('zip_name'), 'required with type zip: the name of the zip');
  if (f.type !== 'zip' && f.zip_name) fail(at('zip_name'), 'only with type zip');
  if (f.sheet !== undefined && f.type !== 'xlsx') fail(at('sheet'), 'only with type xlsx');
  let zipName: TextTemplate | undefined;
  if (f.zip_name) {
    const t = parseTextTemplate(f.zip_name, 'award');
    if (typeof t === 'string') fail(at('zip_name'), t);
    else zipName = t;
  }
  return { ...f, ...(zipName ? { zipName } : {}) };
}

function compileColumn(
  c: RawColumn,
  maxLevel: FieldLevel,
  rows: 'po' | 'line',
  fail: (path: Array<string | number>, m: string) => void,
  declared: readonly string[],
): ErpColumn[] {
  if (typeof c === 'string') {
    if (!VOCABULARY[c]) {
      fail([], `"${c}" is not a field of the vocabulary (write { name: ..., constant: ... } or { blank: ${c} })`);
      return [];
    }
    return compileColumn({ name: c, field: c }, maxLevel, rows, fail, declared);
  }
  const sources = (['field', 'constant', 'setting', 'template', 'blank'] as const).filter((k) => c[k] !== undefined);
  if (sources.length !== 1) {
    fail([], `give exactly one of field, constant, setting, template, blank (found ${sources.join(', ') || 'none'})`);
    return [];
  }
  if (c.blank !== undefined) {
    if (c.name !== undefined || c.map || c.decimals !== undefined || c.first_row_only)
      fail(['blank'], 'a blank column takes no other key');
    return (Array.isArray(c.blank) ? c.blank : [c.blank]).map((name) => ({
      name,
      source: { kind: 'blank' },
      firstRowOnly: false,
    }));
  }
  if (c.name === undefined) {
    fail(['name'], 'required: the column header');
    return [];
  }
  const source = columnSource(c, maxLevel, fail, declared);
  if (!source) return [];
  const numeric = source.kind === 'field' && ['int', 'qty', 'money'].includes(VOCABULARY[source.field]!.kind);
  if (c.decimals !== undefined && !numeric) fail(['decimals'], 'only for a number field (qty, money, int)');
  if (c.map && source.kind !== 'field') fail(['map'], 'only with field');
  if (c.first_row_only && rows !== 'line')
    fail(['first_row_only'], 'only in a file of rows: line (a PO file has one row per PO)');
  const level =
    source.kind === 'field'
      ? VOCABULARY[source.field]!.level
      : source.kind === 'template'
        ? source.template.level
        : 'award';
  if (c.first_row_only && level === 'line')
    fail(['first_row_only'], 'its value differs from line to line: it cannot be on the first row only');
  if (c.max_length !== undefined && numeric) fail(['max_length'], 'only for text (a number is never cut)');
  return [
    {
      name: c.name,
      source,
      ...(c.decimals !== undefined ? { decimals: c.decimals } : {}),
      ...(c.max_length !== undefined ? { maxLength: c.max_length } : {}),
      firstRowOnly: c.first_row_only === true,
    },
  ];
}

function columnSource(
  c: Exclude<RawColumn, string>,
  maxLevel: FieldLevel,
  fail: (path: Array<string | number>, m: string) => void,
  declared: readonly string[],
): ColumnSource | undefined {
  if (c.field !== undefined) {
    const f = VOCABULARY[c.field];
    if (!f)
      return void fail(['field'], `"${c.field}" is not a field of the vocabulary (docs/erp-outputs.md#vocabulary)`);
    if (LEVEL_ORDER[f.level] > LEVEL_ORDER[maxLevel])
      return void fail(['field'], `"${c.field}" is a line field: a file of rows: po has one row per purchase order`);
    return { kind: 'field', field: c.field, ...(c.map ? { map: c.map as Record<string, string> } : {}) };
  }
  if (c.constant !== undefined) return { kind: 'constant', value: c.constant };
  if (c.setting !== undefined) {
    if (!ERP_CONSTANT_NAMES.includes(c.setting))
      return void fail(['setting'], `${c.setting} is not an ERP setting (${ERP_CONSTANT_NAMES.join(', ')})`);
    if (!declared.includes(c.setting))
      return void fail(['setting'], `${c.setting} must be listed under the profile's settings: (checked at start)`);
    return { kind: 'setting', setting: c.setting };
  }
  const t = parseTextTemplate(c.template!, maxLevel);
  if (typeof t === 'string') return void fail(['template'], t);
  return { kind: 'template', template: t };
}
