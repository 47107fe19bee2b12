/**
 * The form of the file as `check --suggest` found it, with the evidence of each finding: encoding and delimiter (CSV),
 * encoding (SAP list) or sheet (workbooks) or table (HTML), header row, how much was sampled, and the number style.
 */
import { cellText } from '../mapping-engine.ts';
import type { SuggestNotes } from './evidence.ts';
import type { NumberStyle } from './numbers.ts';
import type { FileSample } from './sample.ts';

/** The profile's `source` block (delimiter or sheet). */
export function describeSource(sample: FileSample, notes: SuggestNotes): Record<string, unknown> {
  const source: Record<string, unknown> = {};
  const n = sample.rows.length;
  const extent = sample.complete ? `all ${n} data rows` : `the first ${n} data rows (the file has more)`;
  if (sample.kind === 'csv' || sample.kind === 'sap-list')
    notes.say('source.encoding', sample.encoding!, sample.encodingGuessed ? 'medium' : 'high', sample.encodingHow!);
  if (sample.kind === 'sap-list') {
    notes.say(
      'source.format',
      'SAP list (unconverted)',
      'high',
      'columns framed by "|" between rule lines; repeated page headers, rule lines and subtotals are left out',
    );
  } else if (sample.kind === 'csv') {
    source.delimiter = sample.delimiter;
    const fit = sample.delimiterFit!;
    notes.say(
      'source.delimiter',
      JSON.stringify(sample.delimiter),
      fit.fit === fit.of ? 'high' : 'medium',
      `${fit.fit} of ${fit.of} sampled rows split into at most the header's ${sample.headers.length} cells`,
    );
  } else {
    source.sheet = sample.sheet;
    const what = sample.kind === 'html' ? 'table' : 'sheet';
    const others = sample.sheets!.filter((s) => s !== sample.sheet);
    notes.say(
      'source.sheet',
      JSON.stringify(sample.sheet),
      'high',
      others.length > 0
        ? `the ${what} with a header and data rows (others: ${others.map((s) => `"${s}"`).join(', ')})`
        : `the only ${what}`,
    );
  }
  notes.say(
    'source.header_row',
    String(sample.headerRow),
    'high',
    sample.titleRows > 0
      ? `${sample.titleRows} title line(s) above it; the header is found by its columns, so it is not pinned`
      : sample.twoRows
        ? 'the lower of the first two rows'
        : 'first row',
  );
  if (sample.twoRows) sayTwoRows(sample, source, notes);
  reviewUnnamed(sample, notes);
  notes.say('sample', `${n} rows`, 'high', `read ${extent}`);
  return source;
}

/** Columns that hold values under no name: no template can name them (the requisition may be there). */
function reviewUnnamed(sample: FileSample, notes: SuggestNotes): void {
  const width = Math.max(sample.headers.length, ...sample.rows.map((r) => r.cells.length));
  const unnamed: string[] = [];
  for (let i = 0; i < width; i++)
    if (!sample.headers[i] && sample.rows.some((r) => cellText(r.cells[i]) !== '')) unnamed.push(letter(i));
  if (unnamed.length === 0) return;
  notes.review(
    'source',
    `column(s) ${unnamed.join(', ')} hold values but have no name in the header (row ${sample.headerRow}): no field can take them; if the requisition, the line number or another field is there, name the column in the export`,
  );
}

/** A column's letter as a spreadsheet shows it (0: A, 26: AA). */
function letter(i: number): string {
  let s = '';
  for (let n = i + 1; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
}

/** A header over two rows: `header_rows: 2`, what is merged down and the group headings (kept as context). */
function sayTwoRows(sample: FileSample, source: Record<string, unknown>, notes: SuggestNotes): void {
  const { upperRow, groups, mergedDown } = sample.twoRows!;
  source.header_rows = 2;
  const list = (names: string[]) => names.map((n) => `"${n}"`).join(', ');
  const parts = [
    ...(mergedDown.length > 0 ? [`${list(mergedDown)} merged down over both rows`] : []),
    ...groups.map(
      (g) =>
        `"${g.name}" over ${g.columns.length === 1 ? `"${g.columns[0]}"` : `"${g.columns[0]}" to "${g.columns.at(-1)}"`}`,
    ),
  ];
  const why = `rows ${upperRow}-${sample.headerRow}: ${parts.join('; ')}; each column is named by its lowest name`;
  notes.say('source.header_rows', '2', 'high', why);
  notes.explain('source.header_rows', `the header is over ${why}`);
}

/** The evidence of the number style (suggest/numbers.ts), and its review point when the values did not settle it. */
export function sayNumbers(style: NumberStyle, notes: SuggestNotes): void {
  const d = style.format.decimal;
  const why =
    style.votes[d] > 0
      ? `${style.votes[d]} value(s) can only be read with "${d}" as decimal separator (e.g. "${style.examples[d]}")`
      : style.ambiguous > 0
        ? `no value decides; ${style.ambiguous} read either way (e.g. "${style.examples.ambiguous}")`
        : style.typed !== undefined
          ? `${style.typed} number cell(s) stored as numbers, no number written as text has a separator: none is read`
          : 'no value has a decimal or thousands separator: the default';
  notes.say('numbers.decimal', JSON.stringify(d), style.confidence, why);
  notes.say(
    'numbers.thousands',
    JSON.stringify(style.format.thousands),
    style.confidence,
    style.typed !== undefined
      ? 'number cells carry no separators'
      : style.format.thousands === 'auto'
        ? 'not settled by the values'
        : 'the other separator, as the values group them',
  );
  if (style.currencyMarks.length > 0)
    notes.say(
      'numbers.currency',
      style.currencyMarks.join(' '),
      'high',
      'currency marks next to amounts are skipped when reading them',
    );
  if (style.review) notes.review('numbers.decimal', style.review);
}
