/**
 * The descriptive fields of `check --suggest`, picked by header name and confirmed as text: product, specification
 * and unit of measure (line level), title and description (requisition level: taken from a requisition's first row),
 * and the RFQ's type, category and location.
 */
import { normalizeHeader } from '../mapping-profile.ts';
import { quoted as q, ref, scoreOf, textual, type Column, type ColumnPool } from './columns.ts';
import type { SuggestNotes } from './evidence.ts';
import { draftProductCode } from './product-code.ts';
import { isHeaderLevel, type Runs } from './runs.ts';
import { nameByValues, reviewRivals } from './rivals.ts';

type Fields = Record<string, string>;

/**
 * Short codes (`001`, `P03`, `A1`: every value at most 4 characters, no space, a digit): an SAP purchasing group
 * (`PGr`, `EKG`) and the like. A code describes nothing and names no one: never the product text nor the requester.
 */
function shortCodes(c: Column): boolean {
  const values = c.texts.filter((t) => t !== '');
  return values.length > 0 && values.every((t) => t.length <= 4 && /\d/.test(t) && !/\s/.test(t));
}

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
  const rival = product && products.find((c) => c !== product && wordy(c));
  if (product && rival) {
    // two texts could name the item: the values decide where they can (the item's name, not a purpose)
    const item = codeColumn ?? pool.best('itemNumber', (c) => c.nonEmpty > 0 && c !== rival && c !== product)[0];
    const settled = nameByValues(product, rival, item);
    if (settled) product = settled.chosen;
    const other = settled ? undefined : rival;
    const why =
      settled?.why ??
      (other && scoreOf(other, 'specification') > scoreOf(product, 'specification')
        ? `the values do not tell them apart; ${q(other)} is also named like a specification`
        : undefined);
    reviewRivals(notes, 'product_name', product, [product, rival], 'product', why);
  }
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
        .filter((c) => pool.free(c) && textual(c) && !shortCodes(c) && c.nonEmpty >= n * 0.9)
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
  Object.assign(fields, draftProductCode(itemNo, notes));
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
  const uoms = pool.best('uom', (c) => textual(c) && c.avgLen <= 12);
  const uom = uoms[0];
  if (uom) reviewRivals(notes, 'uom', uom, uoms, 'uom');
  const unit = fromColumn(
    pool,
    notes,
    'uom',
    uom,
    `named like a unit of measure; short codes (${[...new Set(uom?.texts.filter(Boolean))].slice(0, 4).join(', ')})`,
  );
  if (unit) fields.uom = unit;
  return fields;
}

/** title and description (header level: taken from a requisition's first row). */
export function pickTitleAndDescription(pool: ColumnPool, notes: SuggestNotes, reqCol: Column, reqRuns: Runs): Fields {
  const fields: Fields = {};
  const headerText = (c: Column): boolean => textual(c) && (isHeaderLevel(c, reqRuns) || reqRuns.runs === pool.n);
  const titles = pool.best('title', headerText);
  const titleCol = titles[0];
  if (titleCol) reviewRivals(notes, 'title', titleCol, titles, 'title');
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
  const descs = pool.best('description', headerText);
  const descCol = descs[0];
  if (descCol) reviewRivals(notes, 'description', descCol, descs, 'description');
  if (descCol) pool.use(descCol);
  // a purchasing group (PGr, EKG: 001, P03) is near "who asked" in the vocabulary, but a code names no one
  const requester = pool.best('requester', (c) => headerText(c) && !shortCodes(c))[0];
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

/**
 * rfq_type, rfq_category and rfq_location: the service requires all three. From columns named like them (a material
 * group, commodity or category; a plant, site or location); where the file has none, suggest/required.ts writes a
 * constant marked for review.
 */
export function pickRfqFields(pool: ColumnPool, notes: SuggestNotes): Fields {
  const fields: Fields = {};
  const publicPrivate = (c: Column): boolean =>
    textual(c) && c.texts.every((t) => t === '' || /^(public|private)$/i.test(t));
  const typeCol = pool.best('rfqType', publicPrivate)[0] ?? pool.columns.find((c) => pool.free(c) && publicPrivate(c));
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
  const categories = pool.best('category', textual);
  const category = categories[0] ?? pool.best('category', (c) => !!c.numbers && c.nonEmpty > 0)[0];
  if (category) reviewRivals(notes, 'rfq_category', category, categories, 'category');
  const rfqCategory = fromColumn(
    pool,
    notes,
    'rfq_category',
    category,
    'named like a category (material group, commodity)',
  );
  if (rfqCategory) fields.rfq_category = rfqCategory;
  // a place (Location, Plant, Site) before an organisational unit (Department, Company, Cost Center) named as one
  const locations = pool
    .best('location', (c) => c.nonEmpty > 0 && !c.dates)
    .sort((a, b) => Number(orgUnit(a)) - Number(orgUnit(b)));
  const location = locations[0];
  if (location) {
    const others = locations.filter((c) => c !== location);
    const why =
      !orgUnit(location) && others.length > 0 && others.every(orgUnit)
        ? `${q(location)} names a place; ${others.map(q).join(', ')} ${others.length === 1 ? 'names' : 'name'} an organisational unit`
        : undefined;
    reviewRivals(notes, 'rfq_location', location, locations, 'location', why);
  }
  const rfqLocation = fromColumn(pool, notes, 'rfq_location', location, 'named like a site, plant or location');
  if (rfqLocation) fields.rfq_location = rfqLocation;
  return fields;
}

/** Organisational units the location vocabulary also accepts: where no place is named, the RFQ goes to them. */
const ORG_UNITS = new Set([
  'department',
  'dept',
  'subsidiary',
  'company',
  'costcenter',
  'costcentre',
  'kostenstelle',
  'abteilung',
  'businessunit',
  'division',
]);

function orgUnit(c: Column): boolean {
  return ORG_UNITS.has(normalizeHeader(c.header));
}

/**
 * A required field from its column, said empty where it is (a requisition whose first row leaves it empty misses it);
 * undefined when no column names it (suggest/required.ts then writes a constant marked for review).
 */
export function fromColumn(
  pool: ColumnPool,
  notes: SuggestNotes,
  field: 'uom' | 'rfq_category' | 'rfq_location',
  col: Column | undefined,
  named: string,
): string | undefined {
  if (!col) return undefined;
  const path = `fields.${field}`;
  pool.use(col);
  const empty = pool.n - col.nonEmpty;
  notes.say(path, ref(col), empty === 0 ? 'high' : 'medium', `${named}; filled on ${col.nonEmpty} of ${pool.n} rows`);
  if (empty > 0)
    notes.review(
      path,
      `${q(col)} is empty on ${empty} of ${pool.n} sampled rows: a requisition whose first row leaves it empty has no ${field}`,
    );
  return ref(col);
}
