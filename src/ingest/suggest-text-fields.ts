/**
 * The descriptive fields of `check --suggest`, picked by header name and confirmed as text: product, specification
 * and unit of measure (line level), title and description (requisition level: taken from a requisition's first row),
 * and the RFQ's type, category and location.
 */
import { quoted as q, ref, scoreOf, textual, type Column, type ColumnPool } from './suggest-columns.ts';
import type { SuggestNotes } from './suggest-evidence.ts';
import { isHeaderLevel, type Runs } from './suggest-runs.ts';

type Fields = Record<string, string>;

/** product_name, specification and uom. */
export function pickItemFields(pool: ColumnPool, notes: SuggestNotes, reqRuns: Runs): Fields {
  const { columns, n } = pool;
  const fields: Fields = {};
  const lineLevel = (c: Column): boolean => !isHeaderLevel(c, reqRuns) || reqRuns.runs === n;
  const products = pool.best(
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
    notes.say(
      'fields.product_name',
      ref(product),
      'high',
      `named like a product; text on ${product.nonEmpty} of ${n} rows`,
    );
  else {
    product =
      columns
        .filter((c) => pool.free(c) && textual(c) && c.nonEmpty >= n * 0.9)
        .sort((a, b) => b.avgLen - a.avgLen)[0] ?? pool.need(columns.find(pool.free), 'product name');
    notes.say('fields.product_name', ref(product), 'low', 'no column is named like a product; the longest text column');
    notes.review(
      'fields.product_name',
      `no column is named like a product name: ${q(product)} (the longest text) was taken`,
    );
  }
  pool.use(product);
  fields.product_name = ref(product);
  const itemNo = codeColumn ?? pool.best('itemNumber', (c) => textual(c) && lineLevel(c))[0];
  if (itemNo) pool.use(itemNo);
  const spec = pool.best(
    'specification',
    (c) => textual(c) && (lineLevel(c) || (scoreOf(c, 'specification') === 3 && scoreOf(c, 'description') < 3)),
  )[0];
  if (spec) pool.use(spec);
  const specParts = [itemNo, spec].filter((c): c is Column => c !== undefined);
  if (specParts.length > 0) {
    fields.specification = specParts.map(ref).join(' ');
    notes.say(
      'fields.specification',
      fields.specification,
      'medium',
      specParts.map((c) => `${q(c)} (${c === itemNo ? 'item number' : 'text'})`).join(' and '),
    );
  }
  const uom = pool.best('uom', (c) => textual(c) && c.avgLen <= 12)[0];
  if (uom) {
    pool.use(uom);
    fields.uom = ref(uom);
    notes.say(
      'fields.uom',
      ref(uom),
      'high',
      `named like a unit of measure; short codes (${[...new Set(uom.texts.filter(Boolean))].slice(0, 4).join(', ')})`,
    );
  }
  return fields;
}

/** title and description (header level: taken from a requisition's first row). */
export function pickTitleAndDescription(pool: ColumnPool, notes: SuggestNotes, reqCol: Column, reqRuns: Runs): Fields {
  const fields: Fields = {};
  const headerText = (c: Column): boolean => textual(c) && (isHeaderLevel(c, reqRuns) || reqRuns.runs === pool.n);
  const titleCol = pool.best('title', headerText)[0];
  if (titleCol) {
    pool.use(titleCol);
    fields.title = `${ref(reqCol)} ${ref(titleCol)}`;
    notes.say(
      'fields.title',
      fields.title,
      'medium',
      `${q(titleCol)} is named like a title and the same on every line of a requisition`,
    );
  } else {
    fields.title = `Requisition ${ref(reqCol)}`;
    notes.say('fields.title', fields.title, 'medium', 'no title column: the requisition number');
  }
  const descCol = pool.best('description', headerText)[0];
  if (descCol) pool.use(descCol);
  const requester = pool.best('requester', headerText)[0];
  if (requester) pool.use(requester);
  if (descCol || requester) {
    fields.description =
      descCol && requester
        ? `${ref(descCol)} (requested by ${ref(requester)})`
        : descCol
          ? ref(descCol)
          : `Requested by ${ref(requester!)}`;
    notes.say(
      'fields.description',
      fields.description,
      'medium',
      [descCol && `${q(descCol)} is named like a description`, requester && `${q(requester)} names who asked`]
        .filter(Boolean)
        .join('; '),
    );
  }
  return fields;
}

/** rfq_type (Private unless a column says), rfq_category and rfq_location. */
export function pickRfqFields(pool: ColumnPool, notes: SuggestNotes): Fields {
  const fields: Fields = {};
  const typeCol = pool.columns.find(
    (c) => pool.free(c) && textual(c) && c.texts.every((t) => t === '' || /^(public|private)$/i.test(t)),
  );
  if (typeCol) {
    pool.use(typeCol);
    fields.rfq_type = ref(typeCol);
    notes.say('fields.rfq_type', ref(typeCol), 'high', 'every value is Public or Private');
  } else {
    fields.rfq_type = 'Private';
    notes.say('fields.rfq_type', 'Private', 'low', 'no column says Public or Private');
    notes.review(
      'fields.rfq_type',
      'the file has no Public/Private column: every RFQ is Private (suppliers by invitation); write Public if it should be open',
    );
  }
  const category = pool.best('category', textual)[0] ?? pool.best('category', (c) => !!c.numbers && c.nonEmpty > 0)[0];
  if (category) {
    pool.use(category);
    fields.rfq_category = ref(category);
    notes.say('fields.rfq_category', ref(category), 'medium', `named like a category`);
  }
  const location = pool.best('location', (c) => c.nonEmpty > 0 && !c.dates)[0];
  if (location) {
    pool.use(location);
    fields.rfq_location = ref(location);
    notes.say('fields.rfq_location', ref(location), 'medium', `named like a site or plant`);
  }
  return fields;
}
