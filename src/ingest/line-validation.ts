/**
 * One data row -> one RequisitionLine (or the reasons it cannot be one), and a requisition's first row -> its
 * header fields. Rules: required fields present, qty a positive whole number (or rounded by the profile's rule, with
 * a warning), prices non-negative and whole after half-up rounding (a warning says when rounding changed them),
 * dates real, due_date in the future (error) and before required_date (warning), text no longer than the service
 * takes (REQUEST_TEXT_LIMITS, shared with the client's request schema). The final shape is checked by zod.
 * A problem keeps only the start of its value: a rejected 50 MB cell must not live on in the report.
 */
import { Decimal } from 'decimal.js';
import { type RowProblem, type Requisition, type RequisitionLine, daysLaterAt } from '../core/index.ts';
import { REQUEST_TEXT_LIMITS, type LimitedTextField } from '../sourcing/index.ts';
import { parseDateCell } from './date-format.ts';
import { cellText, type BoundMapping, type Cell } from './mapping-engine.ts';
import type { FieldName } from './mapping-profile.ts';
import { parseNumber, roundHalfUp } from './number-format.ts';
import { mapCategory } from './category-map.ts';
import { missingReason, type RequiredField } from './required-fields.ts';
import { lineSchema, plainlyValid } from './line-shape.ts';

const PLAIN_INT = /^\d{1,15}$/;
const DAY_MS = 86_400_000;

/** A material number is short (SAP: 40 characters); longer text is cut, it is a key, never sent to the service. */
const PRODUCT_CODE_MAX = 80;

type ErpDays = NonNullable<Requisition['erp_days']>;

export type RequisitionHeader = Omit<Requisition, 'key' | 'sourceFile' | 'profile' | 'lines'>;

export interface LineResult {
  key: string;
  line?: RequisitionLine;
  problems: RowProblem[];
}

interface Ctx {
  file: string;
  row: number;
  problems: RowProblem[];
  m: BoundMapping;
}

/** Longest value kept in a problem (the report shows less; formatRowProblem cuts at 80). */
const MAX_PROBLEM_VALUE = 200;

/** The start of a long value as a string of its own (a plain slice of a 50 MB string would keep all of it alive). */
export function clipValue(value: string, max = MAX_PROBLEM_VALUE): string {
  if (value.length <= max) return value;
  return `${Array.from(value.slice(0, max + 1))
    .slice(0, max - 3)
    .join('')}...`;
}

/** Whether a problem from `from` on is an error (a loop: this runs for every line). */
export function hasError(problems: readonly RowProblem[], from: number): boolean {
  for (let i = from; i < problems.length; i++) if (problems[i]!.severity === 'error') return true;
  return false;
}

function problem(
  ctx: Ctx,
  field: FieldName | string,
  value: string,
  reason: string,
  severity: 'error' | 'warning' = 'error',
): void {
  const column = ctx.m.has(field as FieldName) ? ctx.m.label(field as FieldName) : field;
  ctx.problems.push({ file: ctx.file, row: ctx.row, column, value: clipValue(value), reason, severity });
}

/** False (and a row problem) when the text is longer than the service takes for this field. */
function fits(ctx: Ctx, field: LimitedTextField, value: string | undefined): boolean {
  const max = REQUEST_TEXT_LIMITS[field];
  if (value === undefined || value.length <= max) return true;
  problem(ctx, field, value, `${field} is longer than ${max} characters (got ${value.length})`);
  return false;
}

function required(ctx: Ctx, cells: readonly Cell[], field: FieldName & RequiredField): string {
  const v = ctx.m.text(field, cells);
  if (v === '') missing(ctx, field);
  return v;
}

/** A required field is missing: the row problem names it and the profile setting that fills it. */
function missing(ctx: Ctx, field: RequiredField): void {
  problem(ctx, field, '', missingReason(ctx.m.profile, field));
}

function optional(ctx: Ctx, cells: readonly Cell[], field: FieldName): string | undefined {
  const v = ctx.m.text(field, cells);
  return v === '' ? undefined : v;
}

function numberOf(ctx: Ctx, cells: readonly Cell[], field: FieldName): Decimal | undefined | null {
  const raw = ctx.m.value(field, cells);
  if (raw === null || raw === '' || typeof raw === 'boolean') return raw === '' || raw === null ? undefined : null;
  if (raw instanceof Date) {
    problem(ctx, field, cellText(raw), `${field} is a date, not a number`);
    return null;
  }
  const r = parseNumber(raw, ctx.m.profile.numbers);
  if (!r.ok) {
    problem(ctx, field, cellText(raw), `${field} ${r.reason}`);
    return null;
  }
  if (typeof raw === 'string') {
    const sep = ambiguousThousands(raw, ctx.m.profile.numbers);
    if (sep !== undefined) {
      const dec = ctx.m.profile.numbers.decimal;
      problem(
        ctx,
        field,
        raw,
        `${field} "${raw.trim()}" read as ${r.value.toString()} ("${sep}" taken as thousands separator); if "${sep}" is the decimal separator of this export, set numbers.decimal: "${sep}" in the profile (it says "${dec}")`,
        'warning',
      );
    }
  }
  return r.value;
}

/**
 * "1,000" in a profile with decimal "." (or "1.000" with ",") and thousands: auto is read as a thousand, but an
 * export written with the other decimal separator means one. Such a value (one separator, exactly three digits
 * after it, nothing else) is taken as the profile says, with a warning, so a wrong profile cannot go unnoticed.
 */
function ambiguousThousands(raw: string, fmt: { decimal: '.' | ','; thousands: string }): '.' | ',' | undefined {
  if (fmt.thousands !== 'auto') return undefined;
  const other = fmt.decimal === '.' ? ',' : '.';
  const m = /^\s*[-+]?\d{1,3}([.,])\d{3}\s*$/.exec(raw);
  return m && m[1] === other ? other : undefined;
}

export function mapLine(m: BoundMapping, cells: readonly Cell[], row: number, file: string): LineResult {
  const ctx: Ctx = { file, row, problems: [], m };
  const key = m.text('requisition', cells);
  if (key === '') problem(ctx, 'requisition', '', 'requisition key is empty: the row belongs to no requisition');
  // Overlong text is dropped here (the row is rejected): nothing past this point holds it.
  const external_id = lineExternalId(ctx, cells, key);
  const product_name = requiredText(ctx, cells, 'product_name');
  const specification = optionalText(ctx, cells, 'specification');
  const uom = requiredText(ctx, cells, 'uom');
  const qty = lineQty(ctx, cells);
  let estimated_price: number | undefined;
  let erpPrice: ErpPrice | undefined;
  const before = ctx.problems.length;
  if (m.has('estimated_price')) estimated_price = totalFromEstimate(ctx, cells);
  else if (m.has('unit_price')) {
    erpPrice = totalFromUnitPrice(ctx, cells, qty);
    estimated_price = erpPrice?.total;
  }
  // Missing, not unreadable (that is reported already) nor unknown for want of a quantity (reported too).
  if (estimated_price === undefined && !hasError(ctx.problems, before) && (qty !== undefined || !m.has('unit_price')))
    missing(ctx, 'estimated_price');

  if (hasError(ctx.problems, 0)) return { key, problems: ctx.problems };
  const line: RequisitionLine = { external_id, product_name, qty: qty!, row, uom };
  if (specification !== undefined) line.specification = specification;
  const product_code = optional(ctx, cells, 'product_code');
  if (product_code !== undefined) line.product_code = product_code.slice(0, PRODUCT_CODE_MAX);
  if (estimated_price !== undefined) line.estimated_price = estimated_price;
  if (erpPrice) {
    line.unit_price = erpPrice.unit;
    line.price_unit = erpPrice.per;
  }
  return schemaChecked(ctx, key, line);
}

/**
 * The line's external_id, or '' (with a row problem) when the requisition has a key but the id is incomplete or
 * too long.
 */
function lineExternalId(ctx: Ctx, cells: readonly Cell[], key: string): string {
  const m = ctx.m;
  // An identity built from several columns must have all of them: "{PR}-{Item}" with Item blank is not an id.
  const idGaps = m.emptyColumns('external_id', cells);
  let external_id = m.text('external_id', cells);
  if (key !== '' && (external_id === '' || idGaps.length > 0)) {
    const column = idGaps[0] ?? m.label('external_id');
    ctx.problems.push({
      file: ctx.file,
      row: ctx.row,
      column,
      value: '',
      severity: 'error',
      reason: `external_id is incomplete: column ${column} is empty`,
    });
    external_id = '';
  }
  if (!fits(ctx, 'external_id', external_id)) external_id = '';
  return external_id;
}

/** A required text field, '' when missing or too long (both a row problem). */
function requiredText(ctx: Ctx, cells: readonly Cell[], field: 'product_name' | 'uom'): string {
  const v = required(ctx, cells, field);
  return fits(ctx, field, v) ? v : '';
}

/** An optional text field, undefined when empty or too long (the latter a row problem). */
function optionalText(ctx: Ctx, cells: readonly Cell[], field: 'specification'): string | undefined {
  const v = optional(ctx, cells, field);
  return fits(ctx, field, v) ? v : undefined;
}

/** qty as a positive whole number (rounded by the profile's qty_rounding rule), or undefined with a row problem. */
function lineQty(ctx: Ctx, cells: readonly Cell[]): number | undefined {
  const rawQty = ctx.m.value('qty', cells);
  if (typeof rawQty === 'string' && PLAIN_INT.test(rawQty)) {
    // Plain whole numbers (the usual case) need no decimal arithmetic.
    const qty = Number(rawQty);
    if (qty !== 0) return qty;
    problem(ctx, 'qty', rawQty, 'qty must be a positive whole number');
    return undefined;
  }
  const q = numberOf(ctx, cells, 'qty');
  if (q === undefined) {
    missing(ctx, 'qty');
    return undefined;
  }
  if (q === null) return undefined;
  let qd = q;
  if (!q.isInteger()) {
    const rule = ctx.m.profile.qtyRounding;
    if (rule === 'error')
      problem(ctx, 'qty', q.toString(), 'qty must be a whole number (the profile names no qty_rounding rule)');
    else {
      qd =
        rule === 'half_up'
          ? roundHalfUp(q)
          : rule === 'up'
            ? q.toDecimalPlaces(0, Decimal.ROUND_CEIL)
            : q.toDecimalPlaces(0, Decimal.ROUND_FLOOR);
      problem(ctx, 'qty', q.toString(), `qty rounded to ${qd.toString()} (qty_rounding: ${rule})`, 'warning');
    }
  }
  if (!qd.isInteger()) return undefined;
  if (qd.lte(0)) {
    problem(ctx, 'qty', q.toString(), 'qty must be a positive whole number');
    return undefined;
  }
  if (qd.gt(Number.MAX_SAFE_INTEGER)) {
    problem(ctx, 'qty', q.toString(), 'qty is too large');
    return undefined;
  }
  return qd.toNumber();
}

/** The line total from the estimated_price column (whole after half-up rounding), or undefined. */
function totalFromEstimate(ctx: Ctx, cells: readonly Cell[]): number | undefined {
  const raw = ctx.m.value('estimated_price', cells);
  const fast = typeof raw === 'string' ? plainTotal(raw, ctx.m.profile.numbers.decimal) : undefined;
  if (fast) {
    if (fast.exact !== undefined) {
      problem(
        ctx,
        'estimated_price',
        raw as string,
        `estimated_price: line total ${fast.exact} rounded half-up to ${fast.rounded} (the service takes whole numbers)`,
        'warning',
      );
    }
    return fast.rounded;
  }
  const p = numberOf(ctx, cells, 'estimated_price');
  return p ? money(ctx, 'estimated_price', cellText(raw), p, 'line total') : undefined;
}

/** The ERP's unit price as given, and the line total it makes (qty x unit / price_unit, whole after rounding). */
interface ErpPrice {
  unit: string;
  per: string;
  total: number | undefined;
}

/** Unit price and price unit -> ErpPrice; undefined when either (or qty) is missing or invalid. */
function totalFromUnitPrice(ctx: Ctx, cells: readonly Cell[], qty: number | undefined): ErpPrice | undefined {
  const m = ctx.m;
  const unit = numberOf(ctx, cells, 'unit_price');
  let per: Decimal | undefined | null = new Decimal(1);
  if (m.has('price_unit')) {
    per = numberOf(ctx, cells, 'price_unit') ?? new Decimal(1);
    if (per && per.lte(0)) {
      problem(ctx, 'price_unit', per.toString(), 'price_unit must be greater than zero');
      per = null;
    }
  }
  if (!unit || !per || qty === undefined) return undefined;
  const total = unit.times(qty).dividedBy(per);
  return {
    unit: unit.toFixed(),
    per: per.toFixed(),
    total: money(
      ctx,
      'unit_price',
      cellText(m.value('unit_price', cells)),
      total,
      `line total ${qty} x ${unit.toString()}${per.eq(1) ? '' : ` / ${per.toString()}`} =`,
    ),
  };
}

/** The final shape check (zod): the first issue becomes the row's problem and the line is dropped. */
function schemaChecked(ctx: Ctx, key: string, line: RequisitionLine): LineResult {
  if (plainlyValid(line)) return { key, line, problems: ctx.problems };
  const checked = lineSchema.safeParse(line);
  if (!checked.success) {
    const issue = checked.error.issues[0]!;
    const field = String(issue.path[0] ?? 'line');
    problem(
      ctx,
      field,
      String((line as unknown as Record<string, unknown>)[field] ?? ''),
      `${field}: ${issue.message}`,
    );
    return { key, problems: ctx.problems };
  }
  return { key, line, problems: ctx.problems };
}

/**
 * A plain non-negative amount ("1234", "1234.56" / "1234,56": up to 15 digits, then up to 20 after the separator)
 * rounded half-up without decimal arithmetic: only the first fractional digit decides. `exact` (normalised, as
 * Decimal would print it) is set when rounding changed it. Read by character codes: this runs for every line.
 */
export function plainTotal(text: string, dec: '.' | ','): { rounded: number; exact?: string } | undefined {
  const n = text.length;
  let i = 0;
  while (i < n && isDigit(text.charCodeAt(i))) i++;
  const intEnd = i;
  if (intEnd === 0 || intEnd > 15) return undefined;
  if (intEnd === n) return { rounded: Number(text) };
  if (text.charCodeAt(intEnd) !== (dec === '.' ? 46 : 44)) return undefined;
  const fracStart = intEnd + 1;
  for (i = fracStart; i < n && isDigit(text.charCodeAt(i)); i++);
  if (i !== n || n === fracStart || n - fracStart > 20) return undefined;
  let fracEnd = n;
  while (fracEnd > fracStart && text.charCodeAt(fracEnd - 1) === 48) fracEnd--; // trailing '0's
  const intPart = text.slice(0, intEnd);
  if (fracEnd === fracStart) return { rounded: Number(intPart) };
  const rounded = Number(intPart) + (text.charCodeAt(fracStart) >= 53 ? 1 : 0); // '5' = 53
  let lead = 0;
  while (lead < intEnd - 1 && text.charCodeAt(lead) === 48) lead++; // leading '0's, one digit kept
  return { rounded, exact: `${text.slice(lead, intEnd)}.${text.slice(fracStart, fracEnd)}` };
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/** Non-negative, whole after half-up rounding; warns when rounding changed the value. */
function money(ctx: Ctx, field: FieldName, shown: string, total: Decimal, what: string): number | undefined {
  if (total.isNegative()) {
    problem(ctx, field, shown, `${field} must not be negative`);
    return undefined;
  }
  const rounded = roundHalfUp(total);
  if (rounded.gt(Number.MAX_SAFE_INTEGER)) {
    problem(ctx, field, shown, `${field} is too large`);
    return undefined;
  }
  if (!rounded.eq(total)) {
    problem(
      ctx,
      field,
      shown,
      `estimated_price: ${what} ${total.toString()} rounded half-up to ${rounded.toString()} (the service takes whole numbers)`,
      'warning',
    );
  }
  return rounded.toNumber();
}

export interface HeaderResult {
  header?: RequisitionHeader;
  problems: RowProblem[];
}

/** The date's instant; a date the ERP gave without a time of day also puts its calendar day in `days`. */
function dateOf(
  ctx: Ctx,
  cells: readonly Cell[],
  field: 'due_date' | 'required_date',
  days: ErpDays,
): number | undefined | null {
  if (!ctx.m.has(field)) return undefined;
  const raw = ctx.m.value(field, cells);
  if (raw === null || raw === '' || typeof raw === 'boolean') return undefined;
  const r = parseDateCell(raw, ctx.m.profile.dates);
  if (!r.ok) {
    problem(ctx, field, cellText(raw), `${field} ${r.reason}`);
    return null;
  }
  if (r.day !== undefined) days[field] = r.day;
  return r.ms;
}

export function mapRequisitionHeader(
  m: BoundMapping,
  cells: readonly Cell[],
  row: number,
  file: string,
  key: string,
  now: Date,
): HeaderResult {
  const ctx: Ctx = { file, row, problems: [], m };
  const title = m.text('title', cells) || `Requisition ${key}`;
  fits(ctx, 'title', title);
  const description = optional(ctx, cells, 'description');
  fits(ctx, 'description', description);
  const rfq_type = rfqType(ctx, cells);
  const rfq_category = rfqCategory(ctx, cells);
  const rfq_location = required(ctx, cells, 'rfq_location');
  fits(ctx, 'rfq_location', rfq_location);
  const days: ErpDays = {};
  let due = dateOf(ctx, cells, 'due_date', days);
  const rule = m.profile.dueDateRule;
  // N calendar days after ingest in the profile's zone, at the rule's time of day
  if (due === undefined && rule)
    due = daysLaterAt(now.getTime(), rule.daysAfterIngest, rule.at, m.profile.dates.timeZone);
  if (due === undefined) missing(ctx, 'due_date');
  else if (due !== null && due <= now.getTime()) {
    problem(
      ctx,
      'due_date',
      cellText(m.value('due_date', cells)),
      `due_date ${new Date(due).toISOString()} is not in the future`,
    );
  }
  let required_date = dateOf(ctx, cells, 'required_date', days);
  const after = m.profile.requiredDateRule?.daysAfterDue;
  if (required_date === undefined && after !== undefined && typeof due === 'number')
    required_date = due + after * DAY_MS;
  if (required_date === undefined && after === undefined) missing(ctx, 'required_date');
  if (typeof due === 'number' && typeof required_date === 'number' && due >= required_date) {
    problem(
      ctx,
      'due_date',
      cellText(m.value('due_date', cells)),
      `due_date ${new Date(due).toISOString()} is not before required_date ${new Date(required_date).toISOString()}`,
      'warning',
    );
  }
  if (hasError(ctx.problems, 0)) return { problems: ctx.problems };
  const header: RequisitionHeader = {
    title,
    due_date: due as number,
    required_date: required_date as number,
    rfq_type: rfq_type!,
    rfq_category,
    rfq_location,
  };
  if (description !== undefined) header.description = description;
  if (days.due_date !== undefined || days.required_date !== undefined) header.erp_days = days;
  return { header, problems: ctx.problems };
}

/** Public or Private (any case), or undefined with a row problem (required: a silent Private reaches only invitees). */
function rfqType(ctx: Ctx, cells: readonly Cell[]): 'Public' | 'Private' | undefined {
  const text = required(ctx, cells, 'rfq_type');
  if (text === '') return undefined;
  if (/^public$/i.test(text)) return 'Public';
  if (/^private$/i.test(text)) return 'Private';
  problem(ctx, 'rfq_type', text, 'rfq_type must be Public or Private');
  return undefined;
}

/** The category through the profile's category_map (an unmapped value is sent as it is, with a warning). */
function rfqCategory(ctx: Ctx, cells: readonly Cell[]): string {
  const erp = required(ctx, cells, 'rfq_category');
  const map = ctx.m.profile.categoryMap;
  if (erp === '' || !map) {
    fits(ctx, 'rfq_category', erp);
    return erp;
  }
  const mapped = mapCategory(map, erp);
  if (mapped === undefined) {
    problem(
      ctx,
      'rfq_category',
      erp,
      `rfq_category "${erp}" is not in category_map of mapping profile "${ctx.m.profile.name}": sent as it is`,
      'warning',
    );
  }
  const category = mapped ?? erp;
  fits(ctx, 'rfq_category', category);
  return category;
}
