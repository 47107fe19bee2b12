/**
 * `rfq-sync check --suggest FILE`: a mapping profile drafted from a sample export. It reads a bounded sample
 * (suggest-sample.ts), reads what each column holds, and assigns fields from the header names (header-vocabulary.ts)
 * confirmed by the values: the requisition column is the one whose values come in consecutive runs, the line
 * column a counter that restarts per requisition (or a column unique per row), the quantity a positive number, the
 * price a line total or a unit price told apart by total = qty x price on the rows. Every choice carries its evidence
 * and a confidence; whatever the values cannot settle becomes a review point (a `# REVIEW:` comment in the YAML),
 * never a silent guess. The YAML validates against the profile schema (mapping-profile.ts compileProfile).
 */
import { basename, extname } from 'node:path';
import { Decimal } from 'decimal.js';
import { stringify } from 'yaml';
import { FileRefusedError } from '../errors.ts';
import type { IngestLimits } from './file-sniffer.ts';
import { nameScore, type Concept } from './header-vocabulary.ts';
import { cellText, type Cell } from './mapping-engine.ts';
import { compileProfile, normalizeHeader, type MappingProfile } from './mapping-profile.ts';
import { parseNumber, type NumberFormat } from './number-format.ts';
import { inferColumnDates, type ColumnDates } from './suggest-dates.ts';
import { inferNumberStyle, numberCore, type NumberStyle } from './suggest-numbers.ts';
import { readSample, type FileSample } from './suggest-sample.ts';

export type Confidence = 'high' | 'medium' | 'low';

export interface Evidence {
  /** Profile setting, e.g. `fields.qty`, `numbers.decimal`. */
  what: string;
  choice: string;
  confidence: Confidence;
  why: string;
}

export interface ReviewPoint {
  /** Profile setting the point is about, e.g. `fields.qty`. */
  path: string;
  text: string;
}

export interface Suggestion {
  name: string;
  /** The profile as YAML, review points as `# REVIEW:` comments. */
  yaml: string;
  /** The profile as a plain object (what the YAML holds). */
  raw: Record<string, unknown>;
  profile: MappingProfile;
  evidence: Evidence[];
  reviews: ReviewPoint[];
  sample: FileSample;
}

export interface SuggestOptions {
  limits: IngestLimits;
  name?: string;
  displayName?: string;
  /** Dates before this are not due or required dates (document dates). */
  now?: Date;
}

/** What one column of the sample holds. */
interface Column {
  i: number;
  header: string;
  cells: Cell[];
  texts: string[];
  nonEmpty: number;
  distinct: number;
  /** Set when every non-empty value is a number (in the file's number style). */
  numbers?: (Decimal | undefined)[];
  dates?: ColumnDates;
  avgLen: number;
}

interface Runs {
  contiguous: boolean;
  runs: number;
  blanks: number;
  /** Run index of each row (blank rows belong to the run above). */
  runOf: number[];
}

const DEFAULT_DUE_DAYS = 14;

export async function suggestProfile(path: string, opts: SuggestOptions): Promise<Suggestion> {
  const displayName = opts.displayName ?? basename(path);
  const sample = await readSample(path, opts.limits, displayName);
  return suggestFromSample(sample, { ...opts, displayName });
}

export function suggestFromSample(
  sample: FileSample,
  opts: Omit<SuggestOptions, 'limits'> & { displayName: string },
): Suggestion {
  const now = opts.now ?? new Date();
  const evidence: Evidence[] = [];
  const reviews: ReviewPoint[] = [];
  const say = (what: string, choice: string, confidence: Confidence, why: string): void =>
    void evidence.push({ what, choice, confidence, why });
  const review = (path: string, text: string): void => void reviews.push({ path, text });
  const ref = (c: Column): string => `{${templateName(c.header)}}`;
  const q = (c: Column): string => `"${c.header}"`;

  const refuse = (reason: string): never => {
    throw new FileRefusedError(opts.displayName, reason);
  };
  if (sample.rows.length === 0)
    refuse(
      `has a header row (row ${sample.headerRow}) but no data rows below it: a profile is drafted from sample lines`,
    );
  /** A column for a field the schema requires, or a clear refusal naming the field. */
  const need = (c: Column | undefined, field: string): Column =>
    c ??
    refuse(
      `has no column left that could be the ${field} (columns: ${sample.headers
        .filter(Boolean)
        .map((h) => `"${h}"`)
        .join(', ')})`,
    );

  // ---- source
  const source: Record<string, unknown> = {};
  const n = sample.rows.length;
  const extent = sample.complete ? `all ${n} data rows` : `the first ${n} data rows (the file has more)`;
  if (sample.kind === 'csv') {
    say(
      'source.encoding',
      sample.encoding!,
      'high',
      sample.bom
        ? 'byte order mark'
        : sample.encoding === 'utf8'
          ? 'the first MiB decodes as UTF-8'
          : 'not UTF-8 in the first MiB: Windows-1252',
    );
    source.delimiter = sample.delimiter;
    const fit = sample.delimiterFit!;
    say(
      'source.delimiter',
      JSON.stringify(sample.delimiter),
      fit.fit === fit.of ? 'high' : 'medium',
      `${fit.fit} of ${fit.of} sampled rows split into at most the header's ${sample.headers.length} cells`,
    );
  } else {
    source.sheet = sample.sheet;
    const others = sample.sheets!.filter((s) => s !== sample.sheet);
    say(
      'source.sheet',
      JSON.stringify(sample.sheet),
      'high',
      others.length > 0
        ? `the sheet with a header and data rows (others: ${others.map((s) => `"${s}"`).join(', ')})`
        : 'the only sheet',
    );
  }
  say(
    'source.header_row',
    String(sample.headerRow),
    'high',
    sample.titleRows > 0
      ? `${sample.titleRows} title line(s) above it; the header is found by its columns, so it is not pinned`
      : 'first row',
  );
  say('sample', `${n} rows`, 'high', `read ${extent}`);

  // ---- columns and number style
  const headers = sample.headers;
  const columns: Column[] = [];
  const seenKeys = new Set<string>();
  headers.forEach((h, i) => {
    const key = normalizeHeader(h);
    if (key === '' || seenKeys.has(key) || /[{}]/.test(h)) return; // unnamed, repeated, or braced: no template can name it
    seenKeys.add(key);
    const cells = sample.rows.map((r) => r.cells[i] ?? null);
    const texts = cells.map(cellText);
    const ne = texts.filter((t) => t !== '');
    columns.push({
      i,
      header: h,
      cells,
      texts,
      nonEmpty: ne.length,
      distinct: new Set(ne).size,
      avgLen: ne.reduce((a, t) => a + t.length, 0) / Math.max(1, ne.length),
    });
  });
  const numberTexts: string[] = [];
  for (const c of columns) {
    const strs = c.cells.filter((x): x is string => typeof x === 'string' && x.trim() !== '');
    if (strs.length > 0 && strs.every((s) => numberCore(s) !== undefined)) numberTexts.push(...strs);
  }
  const hint: '.' | ',' = sample.delimiter === ';' || headers.some((h) => /[äöüß]/i.test(h)) ? ',' : '.';
  const style = inferNumberStyle(numberTexts, hint);
  const fmt: NumberFormat = style.format;
  sayNumbers(style, say);
  if (style.review) review('numbers.decimal', style.review);
  for (const c of columns) {
    if (c.nonEmpty === 0) continue;
    // Stops at the first value that is not a number: text columns cost one parse, not one per row.
    const nums: (Decimal | undefined)[] = [];
    for (const x of c.cells) {
      if (x === null || (typeof x === 'string' && x.trim() === '')) nums.push(undefined);
      else if (typeof x === 'number') nums.push(new Decimal(x));
      else if (typeof x !== 'string') break;
      else {
        const r = parseNumber(x, fmt);
        if (!r.ok) break;
        nums.push(r.value);
      }
    }
    if (nums.length === c.cells.length) c.numbers = nums;
  }

  // ---- dates
  const usd =
    columns.some((c) => nameScore(c.header, 'currency') >= 2 && c.texts.some((t) => /^USD$/i.test(t))) ||
    style.currencyMarks.some((m) => /^(USD|US\$|\$)$/.test(m));
  const orderHint: 'dm' | 'md' = usd ? 'md' : 'dm';
  for (const c of columns) {
    if (c.numbers || c.nonEmpty === 0) continue;
    if (c.cells.some((x) => typeof x === 'number' || typeof x === 'boolean')) continue;
    const vals = c.cells.map((x) =>
      x instanceof Date ? x : typeof x === 'string' && x.trim() !== '' ? x.trim() : undefined,
    );
    const d = inferColumnDates(vals, orderHint);
    if (d) c.dates = d;
  }

  const used = new Set<Column>();
  const free = (c: Column): boolean => !used.has(c);
  const best = (concept: Concept, ok: (c: Column) => boolean, min = 2): Column[] =>
    columns
      .filter((c) => free(c) && ok(c) && nameScore(c.header, concept) >= min)
      .sort((a, b) => nameScore(b.header, concept) - nameScore(a.header, concept) || a.i - b.i);

  // ---- requisition: values in consecutive runs (blank below a value = the same requisition)
  const runsOf = new Map<Column, Runs>();
  for (const c of columns) runsOf.set(c, runs(c.texts));
  const reqOk = (c: Column): boolean => {
    const r = runsOf.get(c)!;
    return r.contiguous && c.texts[0] !== '' && !c.dates && !(c.numbers && c.numbers.some((x) => x && !x.isInteger()));
  };
  let reqCol = best('requisition', reqOk)[0];
  if (reqCol) {
    const r = runsOf.get(reqCol)!;
    say(
      'fields.requisition',
      ref(reqCol),
      'high',
      `named like a requisition number; its values come in ${r.runs} consecutive run(s)${r.blanks > 0 ? `, blank on ${r.blanks} row(s) below a value` : ''}`,
    );
  } else {
    // No telling name: the finest partition into consecutive runs that is not one run per row.
    const cands = columns.filter(
      (c) => reqOk(c) && c.nonEmpty === n && runsOf.get(c)!.runs < n && runsOf.get(c)!.runs > 1 && !c.numbers,
    );
    cands.sort((a, b) => runsOf.get(b)!.runs - runsOf.get(a)!.runs || a.i - b.i);
    reqCol = need(cands[0] ?? columns.find((c) => c.nonEmpty > 0), 'requisition number');
    say(
      'fields.requisition',
      ref(reqCol),
      'low',
      cands.length > 0
        ? 'no column is named like a requisition number; this one has the most consecutive runs of equal values'
        : 'nothing fits: first non-empty column',
    );
    review(
      'fields.requisition',
      `no column is named like a requisition number; ${q(reqCol)} was chosen because its values come in consecutive runs: check that it numbers the requisitions`,
    );
  }
  used.add(reqCol);
  const reqRuns = runsOf.get(reqCol)!;
  const continuation = reqRuns.blanks > 0;

  // ---- line: a counter restarting per requisition, else a per-row unique id
  const counterOk = (c: Column): boolean =>
    !!c.numbers && c.nonEmpty === n && isCounter(c.numbers as Decimal[], reqRuns.runOf);
  const lineCands = best('line', counterOk);
  let lineCol: Column | undefined = lineCands[0];
  let idCol: Column | undefined;
  let externalId: string;
  if (lineCol) {
    used.add(lineCol);
    say(
      'fields.external_id',
      `${ref(reqCol)}-${ref(lineCol)}`,
      'high',
      `${q(lineCol)} is a line counter: whole numbers rising within each requisition, restarting at the next`,
    );
    externalId = `${ref(reqCol)}-${ref(lineCol)}`;
  } else {
    const uniqueOk = (c: Column): boolean =>
      c.nonEmpty === n &&
      c.distinct === n &&
      !c.dates &&
      /\d/.test(c.texts[0] ?? '') &&
      c.texts.every((t) => !/\s/.test(t));
    idCol = best('lineId', uniqueOk)[0];
    const byValues = !idCol;
    if (!idCol) {
      const counters = columns.filter(
        (c) =>
          free(c) &&
          counterOk(c) &&
          c.numbers!.every((x) => x!.lte(1000)) &&
          startsLow(c.numbers as Decimal[], reqRuns.runOf),
      );
      lineCol = counters[0];
      if (lineCol) {
        used.add(lineCol);
        externalId = `${ref(reqCol)}-${ref(lineCol)}`;
        say(
          'fields.external_id',
          externalId,
          'medium',
          `no column is named like a line number; ${q(lineCol)} counts the lines of each requisition`,
        );
        review(
          'fields.external_id',
          `${q(lineCol)} was taken as the line number from its values only (it counts 1, 2, ... per requisition): check that the ERP keeps it stable across re-exports`,
        );
      } else {
        idCol = columns.find((c) => free(c) && uniqueOk(c));
      }
    }
    if (!lineCol && idCol) {
      used.add(idCol);
      // A per-row number not named as an id (a running "No." in a hand-made sheet) restarts in the next file:
      // the requisition keeps the ids apart.
      externalId = byValues ? `${ref(reqCol)}-${ref(idCol)}` : ref(idCol);
      say(
        'fields.external_id',
        externalId,
        byValues ? 'low' : 'high',
        `${q(idCol)} is unique on every row (${n} distinct values)${byValues ? ' though not named like an id' : ''}`,
      );
      if (byValues)
        review(
          'fields.external_id',
          `${q(idCol)} is unique per row but not named like a line id: the ids are ${externalId}; check that a row keeps its number across re-exports (inserting a row renumbers the rows below it)`,
        );
    } else if (!lineCol) {
      externalId = ref(reqCol);
      review(
        'fields.external_id',
        'no line number and no per-row id found: write a template that is unique per line and stable across re-exports',
      );
      say('fields.external_id', externalId, 'low', 'no line counter and no unique column');
    }
  }
  review(
    'fields.external_id',
    'the ids must stay the same on every re-export and differ from those of every other profile feeding the same account: add a prefix naming the ERP (e.g. "SAP-") if another export may use the same numbers',
  );

  // ---- quantity and price
  const positive = (c: Column): boolean =>
    !!c.numbers && c.nonEmpty >= Math.max(1, n * 0.9) && c.numbers.every((x) => x === undefined || x.gt(0));
  const nonNegative = (c: Column): boolean =>
    !!c.numbers && c.nonEmpty > 0 && c.numbers.every((x) => x === undefined || x.gte(0));
  const scoreOf = (c: Column, k: Concept): number => nameScore(c.header, k);
  const priceUnitCands = best('priceUnit', (c) => positive(c) && scoreOf(c, 'priceUnit') >= scoreOf(c, 'unitPrice'));
  const priceUnit = priceUnitCands[0];
  const totals = best(
    'total',
    (c) => nonNegative(c) && c !== priceUnit && scoreOf(c, 'total') > scoreOf(c, 'unitPrice'),
  );
  const units = best(
    'unitPrice',
    (c) => nonNegative(c) && c !== priceUnit && !totals.includes(c) && scoreOf(c, 'unitPrice') >= scoreOf(c, 'total'),
  );
  const qtyCands = best('qty', (c) => positive(c) && c !== priceUnit && !totals.includes(c) && !units.includes(c));
  let qty = qtyCands[0];
  const total = totals[0];
  const unit = units[0];
  let relation: { qty: Column; fit: number; of: number } | undefined;
  if (unit && total) {
    const rel = qtyCands
      .map((qc) => ({ qty: qc, ...relationFit(qc, unit, total!, priceUnit) }))
      .filter((r) => r.of > 0 && r.fit >= r.of * 0.9);
    if (rel.length === 1 || (rel.length > 1 && rel.slice(1).every((r) => sameValues(r.qty, rel[0]!.qty))))
      relation = rel[0];
  }
  if (qtyCands.length > 1) {
    if (relation) {
      qty = relation.qty;
      say(
        'fields.qty',
        ref(qty),
        'high',
        `of ${qtyCands.map(q).join(', ')}, only ${q(qty)} x ${q(unit!)} = ${q(total!)} (${relation.fit} of ${relation.of} rows)`,
      );
    } else {
      say(
        'fields.qty',
        ref(qty!),
        'low',
        `${qtyCands.length} columns could be the quantity: ${qtyCands.map(q).join(', ')}`,
      );
      review(
        'fields.qty',
        `two candidate quantity columns: ${qtyCands.map(q).join(' and ')} (positive numbers, named like a quantity); ${q(qty!)} taken, and no price total on the rows tells them apart`,
      );
    }
  } else if (qty) {
    say('fields.qty', ref(qty), 'high', `named like a quantity; positive numbers on ${qty.nonEmpty} of ${n} rows`);
  } else {
    const byValues = columns.filter(
      (c) =>
        free(c) &&
        positive(c) &&
        !totals.includes(c) &&
        !units.includes(c) &&
        c !== priceUnit &&
        c.numbers!.every((x) => x === undefined || x.isInteger()),
    );
    qty = byValues[0];
    if (qty) {
      say(
        'fields.qty',
        ref(qty),
        'low',
        'no column is named like a quantity; the first column of positive whole numbers',
      );
      review(
        'fields.qty',
        `no column is named like a quantity: ${q(qty)} was taken from its values (positive whole numbers)`,
      );
    } else {
      qty = need(columns.find(free), 'quantity');
      review('fields.qty', 'no column holds positive numbers named like a quantity: name the quantity column');
    }
  }
  used.add(qty!);
  const fields: Record<string, string> = {};
  fields.requisition = ref(reqCol);
  fields.external_id = externalId!;
  let estimated: string | undefined;
  let unitPrice: string | undefined;
  let perUnit: string | undefined;
  if (unit && total) {
    const fit = relationFit(qty!, unit, total, priceUnit);
    if (fit.of > 0 && fit.fit >= fit.of * 0.9) {
      estimated = ref(total);
      say(
        'fields.estimated_price',
        estimated,
        'high',
        `a line total: ${q(total)} = ${q(qty!)} x ${q(unit)}${priceUnit ? ` / ${q(priceUnit)}` : ''} on ${fit.fit} of ${fit.of} rows`,
      );
    } else {
      estimated = ref(total);
      say(
        'fields.estimated_price',
        estimated,
        'low',
        `${q(total)} = ${q(qty!)} x ${q(unit)} holds on only ${fit.fit} of ${fit.of} rows`,
      );
      review(
        'fields.estimated_price',
        `${q(total)} is not ${q(qty!)} x ${q(unit)} on ${fit.of - fit.fit} of ${fit.of} rows: check which column is the line total (or use unit_price: ${ref(unit)})`,
      );
    }
    used.add(total).add(unit);
  } else if (total) {
    estimated = ref(total);
    used.add(total);
    say(
      'fields.estimated_price',
      estimated,
      'medium',
      `named like a line total; no unit price column to check it against`,
    );
  } else if (unit) {
    unitPrice = ref(unit);
    used.add(unit);
    say(
      'fields.unit_price',
      unitPrice,
      'medium',
      `named like a unit price; no line total column: the total is qty x price${priceUnit ? ` / ${q(priceUnit)}` : ''}`,
    );
    if (priceUnit) {
      perUnit = ref(priceUnit);
      used.add(priceUnit);
      const divides = priceUnit.numbers!.some((x) => x && !x.eq(1));
      say(
        'fields.price_unit',
        perUnit,
        'high',
        `named like a price unit; values ${[...new Set(priceUnit.numbers!.filter(Boolean).map((x) => x!.toString()))].join(', ')}${divides ? ' (the price is per that many units)' : ''}`,
      );
    }
  } else {
    say(
      'fields.estimated_price',
      '(none)',
      'medium',
      'no column is named like a price or a line total: lines go without an estimated price',
    );
  }

  // ---- product, specification, uom
  const lineLevel = (c: Column): boolean => !isHeaderLevel(c, reqRuns) || reqRuns.runs === n;
  const textual = (c: Column): boolean => !c.numbers && !c.dates && c.nonEmpty > 0;
  const products = best(
    'product',
    (c) =>
      textual(c) &&
      c.nonEmpty >= n * 0.9 &&
      (lineLevel(c) || (scoreOf(c, 'product') === 3 && scoreOf(c, 'description') < 3)),
  );
  // Words beat codes: NetSuite's "Item" holds MON-27-4K, its "Description" the words a supplier reads.
  const wordy = (c: Column): boolean => c.texts.filter((t) => /\S\s+\S/.test(t)).length >= c.nonEmpty / 2;
  let product =
    products.find((c) => wordy(c) && scoreOf(c, 'product') > scoreOf(c, 'specification')) ??
    products.find(wordy) ??
    products[0];
  const codeColumn = products.find((c) => c !== product && !wordy(c));
  if (product)
    say('fields.product_name', ref(product), 'high', `named like a product; text on ${product.nonEmpty} of ${n} rows`);
  else {
    product =
      columns.filter((c) => free(c) && textual(c) && c.nonEmpty >= n * 0.9).sort((a, b) => b.avgLen - a.avgLen)[0] ??
      need(columns.find(free), 'product name');
    say('fields.product_name', ref(product), 'low', 'no column is named like a product; the longest text column');
    review('fields.product_name', `no column is named like a product name: ${q(product)} (the longest text) was taken`);
  }
  used.add(product);
  fields.product_name = ref(product);
  const itemNo = codeColumn ?? best('itemNumber', (c) => textual(c) && lineLevel(c))[0];
  if (itemNo) used.add(itemNo);
  const spec = best(
    'specification',
    (c) => textual(c) && (lineLevel(c) || (scoreOf(c, 'specification') === 3 && scoreOf(c, 'description') < 3)),
  )[0];
  if (spec) used.add(spec);
  const specParts = [itemNo, spec].filter((c): c is Column => c !== undefined);
  if (specParts.length > 0) {
    fields.specification = specParts.map(ref).join(' ');
    say(
      'fields.specification',
      fields.specification,
      'medium',
      specParts.map((c) => `${q(c)} (${c === itemNo ? 'item number' : 'text'})`).join(' and '),
    );
  }
  const uom = best('uom', (c) => textual(c) && c.avgLen <= 12)[0];
  if (uom) {
    used.add(uom);
    fields.uom = ref(uom);
    say(
      'fields.uom',
      ref(uom),
      'high',
      `named like a unit of measure; short codes (${[...new Set(uom.texts.filter(Boolean))].slice(0, 4).join(', ')})`,
    );
  }
  fields.qty = ref(qty!);
  if (estimated) fields.estimated_price = estimated;
  if (unitPrice) fields.unit_price = unitPrice;
  if (perUnit) fields.price_unit = perUnit;

  // ---- title and description (header level: taken from a requisition's first row)
  const headerText = (c: Column): boolean => textual(c) && (isHeaderLevel(c, reqRuns) || reqRuns.runs === n);
  const titleCol = best('title', headerText)[0];
  if (titleCol) {
    used.add(titleCol);
    fields.title = `${ref(reqCol)} ${ref(titleCol)}`;
    say(
      'fields.title',
      fields.title,
      'medium',
      `${q(titleCol)} is named like a title and the same on every line of a requisition`,
    );
  } else {
    fields.title = `Requisition ${ref(reqCol)}`;
    say('fields.title', fields.title, 'medium', 'no title column: the requisition number');
  }
  const descCol = best('description', headerText)[0];
  if (descCol) used.add(descCol);
  const requester = best('requester', headerText)[0];
  if (requester) used.add(requester);
  if (descCol || requester) {
    fields.description =
      descCol && requester
        ? `${ref(descCol)} (requested by ${ref(requester)})`
        : descCol
          ? ref(descCol)
          : `Requested by ${ref(requester!)}`;
    say(
      'fields.description',
      fields.description,
      'medium',
      [descCol && `${q(descCol)} is named like a description`, requester && `${q(requester)} names who asked`]
        .filter(Boolean)
        .join('; '),
    );
  }

  // ---- dates: due and required by name, else by order
  const future = (c: Column): boolean => c.dates!.ms.some((m) => m !== undefined && m > now.getTime());
  const dateCols = columns.filter((c) => free(c) && c.dates);
  const dues = dateCols
    .filter((c) => scoreOf(c, 'dueDate') >= 2 && scoreOf(c, 'dueDate') >= scoreOf(c, 'requiredDate'))
    .sort((a, b) => scoreOf(b, 'dueDate') - scoreOf(a, 'dueDate'));
  const reqs = dateCols.filter((c) => !dues.includes(c) && scoreOf(c, 'requiredDate') >= 2);
  let due = dues[0];
  let required = reqs[0];
  const unnamed = dateCols.filter((c) => !dues.includes(c) && !reqs.includes(c) && future(c));
  if (!due && !required && unnamed.length >= 2) {
    const [a, b] = unnamed as [Column, Column];
    const aFirst = a.dates!.ms.every((m, i) => m === undefined || b.dates!.ms[i] === undefined || m < b.dates!.ms[i]!);
    due = aFirst ? a : b;
    required = aFirst ? b : a;
    say('fields.due_date', ref(due), 'low', `by order: ${q(due)} is before ${q(required)} on every row`);
    review(
      'fields.due_date',
      `neither date column is named like a due date or a required date: ${q(due)} (the earlier) taken as the due date, ${q(required)} as the required date`,
    );
  } else if (
    !due &&
    required &&
    unnamed.length === 1 &&
    unnamed[0]!.dates!.ms.every(
      (m, i) => m === undefined || required!.dates!.ms[i] === undefined || m < required!.dates!.ms[i]!,
    )
  ) {
    due = unnamed[0];
    say(
      'fields.due_date',
      ref(due!),
      'low',
      `by order: ${q(due!)} is before the required date ${q(required)} on every row`,
    );
    review(
      'fields.due_date',
      `${q(due!)} is not named like a due date; taken as one because it comes before ${q(required)} on every row`,
    );
  } else if (due) {
    say('fields.due_date', ref(due), 'high', `named like a due date; dates on ${due.nonEmpty} of ${n} rows`);
  }
  const dueRule = due ? undefined : { days_after_ingest: DEFAULT_DUE_DAYS, at: '17:00' };
  if (due) {
    used.add(due);
    fields.due_date = ref(due);
    if (!isHeaderLevel(due, reqRuns))
      say('fields.due_date', ref(due), 'medium', "differs between lines of one requisition: the first line's is taken");
  } else {
    say('due_date_rule', `${DEFAULT_DUE_DAYS} days`, 'low', 'no due date column');
    review(
      'due_date_rule',
      `the file has no due date (bidding deadline) column: suppliers get ${DEFAULT_DUE_DAYS} days, closing at 17:00; set what procurement wants`,
    );
  }
  if (required) {
    used.add(required);
    fields.required_date = ref(required);
    const firstLine = isHeaderLevel(required, reqRuns)
      ? ''
      : "; differs between lines of one requisition: the first line's is taken";
    if (unnamed.includes(required))
      say('fields.required_date', ref(required), 'low', `by order: after ${q(due!)} on every row${firstLine}`);
    else say('fields.required_date', ref(required), 'high', `named like a delivery/need-by date${firstLine}`);
  }
  for (const c of dateCols.filter(free))
    say('(not used)', q(c), 'medium', 'a date column that is neither due nor required date (e.g. a document date)');

  // ---- date formats of the columns used
  const dated = [due, required].filter((c): c is Column => c !== undefined);
  const formats: string[] = [];
  for (const c of dated) for (const f of c.dates!.formats) if (!formats.includes(f)) formats.push(f);
  const hasDm = formats.some((f) => /^d{1,2}[/-]M/.test(f));
  const hasMd = formats.some((f) => /^M{1,2}[/-]d/.test(f));
  if (hasDm && hasMd)
    review(
      'dates.formats',
      'the date columns disagree on day/month order: only one order can be listed first; check the formats',
    );
  for (const c of dated) {
    const d = c.dates!;
    if (d.orderUndecided) {
      const taken = d.orderUndecided.taken === 'md' ? 'month/day (M/d)' : 'day/month (d/M)';
      review(
        'dates.formats',
        `${q(c)}: d/M versus M/d cannot be told apart from the values (no day above 12, e.g. "${d.orderUndecided.example}"); ${taken} taken${usd ? ' because amounts are in USD' : ''}`,
      );
      say('dates.formats', d.formats.join(', '), 'low', `${q(c)}: ${d.texts} text date(s), day/month order undecided`);
    } else {
      say(
        'dates.formats',
        d.formats.join(', '),
        'high',
        `${q(c)}: ${d.texts} text date(s)${d.cells ? ` and ${d.cells} Excel date cell(s)` : ''} all read${d.orderEvidence ? `; "${d.orderEvidence}" settles the day/month order` : ''}`,
      );
    }
  }
  if (formats.length === 0) formats.push('iso', 'excel_serial');
  review(
    'dates.time_zone',
    "the time zone of the export's dates cannot be read from the file: UTC written; set the zone the ERP writes in (e.g. Europe/Berlin)",
  );

  // ---- rfq type, category, location
  const typeCol = columns.find(
    (c) => free(c) && textual(c) && c.texts.every((t) => t === '' || /^(public|private)$/i.test(t)),
  );
  if (typeCol) {
    used.add(typeCol);
    fields.rfq_type = ref(typeCol);
    say('fields.rfq_type', ref(typeCol), 'high', 'every value is Public or Private');
  } else {
    fields.rfq_type = 'Private';
    say('fields.rfq_type', 'Private', 'low', 'no column says Public or Private');
    review(
      'fields.rfq_type',
      'the file has no Public/Private column: every RFQ is Private (suppliers by invitation); write Public if it should be open',
    );
  }
  const category = best('category', textual)[0] ?? best('category', (c) => !!c.numbers && c.nonEmpty > 0)[0];
  if (category) {
    used.add(category);
    fields.rfq_category = ref(category);
    say('fields.rfq_category', ref(category), 'medium', `named like a category`);
  }
  const location = best('location', (c) => c.nonEmpty > 0 && !c.dates)[0];
  if (location) {
    used.add(location);
    fields.rfq_location = ref(location);
    say('fields.rfq_location', ref(location), 'medium', `named like a site or plant`);
  }
  if (continuation)
    say(
      'continuation',
      'true',
      'high',
      `${q(reqCol)} is blank on ${reqRuns.blanks} row(s) below a filled one: those rows continue the requisition above, its header columns copied down`,
    );
  const unusedCols = columns.filter((c) => free(c) && c.nonEmpty > 0);
  if (unusedCols.length > 0) say('(not used)', unusedCols.map(q).join(', '), 'medium', 'no field takes them');

  // ---- the profile
  const name = profileName(opts.name ?? opts.displayName);
  const raw: Record<string, unknown> = {
    name,
    description: `Drafted by rfq-sync check --suggest from ${opts.displayName}`,
  };
  raw.source = source;
  raw.numbers = { decimal: fmt.decimal, thousands: fmt.thousands };
  raw.dates = { formats, time_zone: 'UTC', default_time: '12:00' };
  if (continuation) raw.continuation = true;
  if (dueRule) raw.due_date_rule = dueRule;
  raw.fields = orderFields(fields);
  const yaml = renderYaml(raw, reviews, opts.displayName, sample);
  const profile = compileProfile(raw, `${name}.yaml (suggested)`);
  return { name, yaml, raw, profile, evidence, reviews, sample };
}

function sayNumbers(style: NumberStyle, say: (what: string, choice: string, c: Confidence, why: string) => void): void {
  const d = style.format.decimal;
  const why =
    style.votes[d] > 0
      ? `${style.votes[d]} value(s) can only be read with "${d}" as decimal separator (e.g. "${style.examples[d]}")`
      : style.ambiguous > 0
        ? `no value decides; ${style.ambiguous} read either way (e.g. "${style.examples.ambiguous}")`
        : 'no value has a decimal or thousands separator: the default';
  say('numbers.decimal', JSON.stringify(d), style.confidence, why);
  say(
    'numbers.thousands',
    JSON.stringify(style.format.thousands),
    style.confidence,
    style.format.thousands === 'auto' ? 'not settled by the values' : 'the other separator, as the values group them',
  );
  if (style.currencyMarks.length > 0)
    say(
      'numbers.currency',
      style.currencyMarks.join(' '),
      'high',
      'currency marks next to amounts are skipped when reading them',
    );
}

/** Template column reference: braces in a header are written doubled. */
function templateName(header: string): string {
  return header.replace(/[{}]/g, (b) => b + b);
}

export function profileName(from: string): string {
  const base = basename(from, extname(from))
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .toLowerCase();
  return base || 'suggested';
}

function runs(texts: readonly string[]): Runs {
  const seen = new Set<string>();
  let current: string | undefined;
  let count = 0;
  let blanks = 0;
  let contiguous = true;
  const runOf: number[] = [];
  for (const t of texts) {
    if (t === '') {
      if (current !== undefined) blanks++;
      runOf.push(Math.max(0, count - 1));
      continue;
    }
    if (t !== current) {
      if (seen.has(t)) contiguous = false;
      seen.add(t);
      current = t;
      count++;
    }
    runOf.push(count - 1);
  }
  return { contiguous, runs: count, blanks, runOf };
}

/** Whole numbers rising within each run, unique per run. */
function isCounter(nums: readonly Decimal[], runOf: readonly number[]): boolean {
  if (nums.length === 0 || !nums.every((x) => x !== undefined && x.isInteger() && x.gt(0))) return false;
  for (let i = 1; i < nums.length; i++) if (runOf[i] === runOf[i - 1] && !nums[i]!.gt(nums[i - 1]!)) return false;
  return true;
}

/** The counter starts each requisition low (1, 10, 100): a line number, not a coincidentally rising value. */
function startsLow(nums: readonly Decimal[], runOf: readonly number[]): boolean {
  let multi = false;
  for (let i = 0; i < nums.length; i++) {
    if (i > 0 && runOf[i] === runOf[i - 1]) multi = true;
    if ((i === 0 || runOf[i] !== runOf[i - 1]) && ![1, 10, 100].includes(nums[i]!.toNumber())) return false;
  }
  return multi;
}

const headerLevel = new WeakMap<Column, boolean>();

/** The same value on every line of each requisition (blanks allowed): a header field. */
function isHeaderLevel(c: Column, r: Runs): boolean {
  let known = headerLevel.get(c);
  if (known === undefined) headerLevel.set(c, (known = computeHeaderLevel(c, r)));
  return known;
}

function computeHeaderLevel(c: Column, r: Runs): boolean {
  const first = new Map<number, string>();
  for (let i = 0; i < c.texts.length; i++) {
    const t = c.texts[i]!;
    if (t === '') continue;
    const run = r.runOf[i]!;
    const f = first.get(run);
    if (f === undefined) first.set(run, t);
    else if (f !== t) return false;
  }
  return true;
}

/** Rows where qty x unit (/ per) equals the total within rounding to the cent. */
function relationFit(qty: Column, unit: Column, total: Column, per?: Column): { fit: number; of: number } {
  let fit = 0;
  let of = 0;
  for (let i = 0; i < qty.cells.length; i++) {
    const qv = qty.numbers?.[i];
    const u = unit.numbers?.[i];
    const t = total.numbers?.[i];
    if (!qv || !u || !t) continue;
    of++;
    const p = per?.numbers?.[i] ?? new Decimal(1);
    const computed = qv.times(u).dividedBy(p.gt(0) ? p : 1);
    if (
      computed
        .minus(t)
        .abs()
        .lte(new Decimal('0.01').plus(qv.times('0.005')))
    )
      fit++;
  }
  return { fit, of };
}

function sameValues(a: Column, b: Column): boolean {
  return a.texts.every((t, i) => t === b.texts[i]);
}

const FIELD_ORDER = [
  'requisition',
  'external_id',
  'product_name',
  'specification',
  'uom',
  'qty',
  'estimated_price',
  'unit_price',
  'price_unit',
  'title',
  'description',
  'due_date',
  'required_date',
  'rfq_type',
  'rfq_category',
  'rfq_location',
];

function orderFields(f: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of FIELD_ORDER) if (f[k] !== undefined) out[k] = f[k];
  return out;
}

/** The profile as YAML with each review point as a `# REVIEW:` comment above its setting, and listed on top. */
function renderYaml(
  raw: Record<string, unknown>,
  reviews: readonly ReviewPoint[],
  file: string,
  sample: FileSample,
): string {
  const out: string[] = [];
  out.push(
    `# Drafted by \`rfq-sync check --suggest\` from ${file} (${sample.complete ? `all ${sample.rows.length}` : `the first ${sample.rows.length}`} data row${sample.rows.length === 1 ? '' : 's'}; header on row ${sample.headerRow}).`,
  );
  if (reviews.length > 0) {
    out.push(`# Review points (${reviews.length}), each marked "# REVIEW:" above its setting:`);
    for (const r of reviews) out.push(`#   - ${r.path}: ${oneLine(r.text)}`);
  } else out.push('# No review points: every choice was settled by the values.');
  const body = stringify(raw, { lineWidth: 0, defaultStringType: 'QUOTE_DOUBLE', defaultKeyType: 'PLAIN' }).split('\n');
  // Attach comments: find the line of each reviewed path (top-level key, or "  key:" under its parent).
  const at = new Map<number, string[]>();
  for (const r of reviews) {
    const [top, sub] = r.path.split('.') as [string, string | undefined];
    let idx = body.findIndex((l) => l.startsWith(`${top}:`));
    if (sub !== undefined && idx >= 0) {
      const j = body.slice(idx + 1).findIndex((l) => l.startsWith(`  ${sub}:`));
      if (j >= 0) idx = idx + 1 + j;
    }
    if (idx < 0) continue;
    const list = at.get(idx) ?? [];
    list.push(r.text);
    at.set(idx, list);
  }
  body.forEach((line, i) => {
    const notes = at.get(i);
    if (notes) {
      const indent = /^\s*/.exec(line)![0];
      for (const t of notes) out.push(`${indent}# REVIEW: ${oneLine(t)}`);
    }
    out.push(line);
  });
  while (out[out.length - 1] === '') out.pop();
  return out.join('\n') + '\n';
}

function oneLine(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}
