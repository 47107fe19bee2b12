/**
 * Never a wrong byte: a file's text is decoded as the file says (an Excel 5/95 workbook's CODEPAGE, an XML
 * spreadsheet's declaration, an HTML page's `<meta charset>`, a text file's byte order mark), or, where it says
 * nothing, by a detection whose guess the report and `check` state; what cannot be decoded with confidence is refused
 * in one sentence naming the file and the encoding. Files are written as other tools write them: Excel 5 and 95
 * workbooks by test/helpers/biff5-writer.ts (CODEPAGE 1250, 1252, 1200), XML and HTML byte for byte.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { loadExcelJS } from '../../src/core/exceljs-loader.ts';
import { runCheck } from '../../src/ingest/index.ts';
import { writeBiff5 } from '../helpers/biff5-writer.ts';
import { GENERIC_HEADER } from '../helpers/generic-template.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { genericProfile, genericRow, ingest, LIMITS, NOW, refusal } from './generic-rows.ts';

const dir = tempDir('rfq-encodings-');
const generic = genericProfile();

async function put(name: string, data: string | Uint8Array): Promise<string> {
  const p = join(dir, name);
  await writeFile(p, data);
  return p;
}

/** Each requisition's product names and its category, as created. */
async function namesIn(path: string, sheet?: string): Promise<Array<[string, string[], string | undefined]>> {
  const profile = sheet ? genericProfile({ source: { sheet } }, 'named-sheet') : generic;
  const { summary, reqs } = await ingest(path, [profile]);
  expect(summary.heldRequisitions, JSON.stringify(summary.problems.slice(0, 3))).toBe(0);
  return reqs.map((r) => [r.key, r.lines.map((l) => l.product_name), r.rfq_category]);
}

describe('Excel 5 and 95 workbooks: text in the codepage their CODEPAGE record declares', () => {
  it('BIFF5 in codepage 1250: the sheet name, names and categories exact', async () => {
    const path = await put(
      'zamowienia.xls',
      writeBiff5({
        excel: 5,
        codepage: 1250,
        sheets: [
          {
            name: 'Zamówienia Łódź',
            rows: [
              GENERIC_HEADER,
              genericRow('PR-1', 1, 'Łożysko kulkowe 6204 – żółty', 'Łożyska'),
              genericRow('PR-1', 2, 'Śruba M8 ocynkowana, źle łączona', 'Łożyska'),
            ],
          },
        ],
      }),
    );
    expect(await namesIn(path, 'Zamówienia Łódź')).toEqual([
      ['PR-1', ['Łożysko kulkowe 6204 – żółty', 'Śruba M8 ocynkowana, źle łączona'], 'Łożyska'],
    ]);
  });

  it('BIFF5 in codepage 1252: dashes, quotes and the euro sign exact (not C1 control characters)', async () => {
    const path = await put(
      'bestellung.xls',
      writeBiff5({
        excel: 5,
        codepage: 1252,
        sheets: [
          {
            name: 'Bedarf',
            rows: [GENERIC_HEADER, genericRow('PR-7', 1, 'Schraube – „Premium“ (€ 12/St.)', 'Befestigung & Co.')],
          },
        ],
      }),
    );
    expect(await namesIn(path, 'Bedarf')).toEqual([['PR-7', ['Schraube – „Premium“ (€ 12/St.)'], 'Befestigung & Co.']]);
  });

  it('BIFF7 (Excel 95) in codepage 1200: UTF-16 text exact, no NUL characters', async () => {
    const path = await put(
      'excel95.xls',
      writeBiff5({
        excel: 95,
        codepage: 1200,
        sheets: [
          {
            name: 'Bedarf Köln',
            rows: [
              GENERIC_HEADER,
              genericRow('PR-9', 1, 'Łożysko – „Premium“ €', 'Lager & Wälzlager'),
              genericRow('PR-9', 2, 'Ölfilter 日本', 'Lager & Wälzlager'),
            ],
          },
        ],
      }),
    );
    expect(await namesIn(path, 'Bedarf Köln')).toEqual([
      ['PR-9', ['Łożysko – „Premium“ €', 'Ölfilter 日本'], 'Lager & Wälzlager'],
    ]);
  });

  it.each<[number, string]>([
    [874, 'ชิ้นส่วน'],
    [932, '部品 ボルト'],
    [936, '零件 螺栓'],
    [949, '부품 볼트'],
    [950, '零件 螺栓'],
    [1251, 'Деталь «Болт»'],
    [1253, 'Εξάρτημα'],
    [1254, 'Parça şığ'],
    [1255, 'חלק'],
    [1256, 'قطعة'],
    [1257, 'Detalė ąčę'],
    [1258, 'Đèn ₫'],
    [10000, 'Pièce – ƒ'],
    [437, 'Müller ½'],
    [850, 'Müller Ø'],
  ])('codepage %i: names exact', async (codepage, item) => {
    const path = await put(
      `cp${codepage}.xls`,
      writeBiff5({
        excel: 95,
        codepage,
        sheets: [{ name: item, rows: [GENERIC_HEADER, genericRow('CP-1', 1, item, item)] }],
      }),
    );
    expect(await namesIn(path, item)).toEqual([['CP-1', [item], item]]);
  });

  it('a codepage no decoder knows, or one that lies about the text, is refused naming the codepage', async () => {
    const rows = [GENERIC_HEADER, genericRow('PR-1', 1, 'Łożysko')];
    const unknown = await put(
      'unknown-cp.xls',
      writeBiff5({ excel: 5, codepage: 1234, sheets: [{ name: 'S', rows }], bytes: (t) => iconv.encode(t, 'cp1250') }),
    );
    expect(await refusal(unknown, [generic])).toBe(
      'unknown-cp.xls: is an Excel 5/95 workbook in codepage 1234, as its CODEPAGE record declares, which rfq-sync cannot decode',
    );
    // UTF-8 bytes under CODEPAGE 1252: "Ł" is C5 81, and 0x81 is no Windows-1252 character
    const lies = await put(
      'lies.xls',
      writeBiff5({ excel: 5, codepage: 1252, sheets: [{ name: 'S', rows }], bytes: (t) => Buffer.from(t, 'utf8') }),
    );
    expect(await refusal(lies, [generic])).toMatch(
      /^lies\.xls: is an Excel 5\/95 workbook whose text is not in codepage 1252 \(Windows-1252\), as its CODEPAGE record declares \(.*\): refused rather than read as something else$/,
    );
    // single-byte text under CODEPAGE 1200 (UTF-16): not two bytes a character
    const narrow = await put(
      'narrow.xls',
      writeBiff5({ excel: 95, codepage: 1200, sheets: [{ name: 'S', rows }], bytes: (t) => iconv.encode(t, 'cp1250') }),
    );
    expect(await refusal(narrow, [generic])).toMatch(/^narrow\.xls: .*not in codepage 1200 \(UTF-16\).*two bytes/);
  });
});

/** An XML Spreadsheet 2003 of the template's rows, declared in `encoding` and written in `bytesIn`. */
function xml2003(encoding: string, rows: Array<Array<string | number>>, bytesIn = encoding): Buffer {
  const cell = (v: string | number) =>
    `<Cell><Data ss:Type="${typeof v === 'number' ? 'Number' : 'String'}">${String(v).replace(/&/g, '&amp;')}</Data></Cell>`;
  const xml = `<?xml version="1.0" encoding="${encoding}"?>
<?mso-application progid="Excel.Sheet"?>
<Workbook xmlns="urn:schemas-microsoft-com:office:spreadsheet" xmlns:ss="urn:schemas-microsoft-com:office:spreadsheet">
<Worksheet ss:Name="Requests"><Table>
${rows.map((r) => `<Row>${r.map(cell).join('')}</Row>`).join('\n')}
</Table></Worksheet></Workbook>`;
  return iconv.encode(xml, bytesIn);
}

describe('XML Spreadsheet 2003: text in the encoding its declaration names', () => {
  it('windows-1252 and ISO-8859-1 declared: exact', async () => {
    for (const encoding of ['windows-1252', 'ISO-8859-1']) {
      const path = await put(
        `saved-search-${encoding}.xls`,
        xml2003(encoding, [GENERIC_HEADER, genericRow('NS-1', 1, '– Café €', 'Büro')], 'windows-1252'),
      );
      expect(await namesIn(path), encoding).toEqual([['NS-1', ['– Café €'], 'Büro']]);
    }
  });

  it('an encoding no decoder knows, and UTF-8 declared by a file that is not, are refused naming the encoding', async () => {
    const rows = [GENERIC_HEADER, genericRow('NS-1', 1, 'Café')];
    const unknown = await put('klingon.xls', xml2003('x-klingon-1', rows, 'utf8'));
    expect(await refusal(unknown, [generic])).toBe(
      'klingon.xls: declares the encoding "x-klingon-1" (its XML declaration), which rfq-sync cannot decode: save it as UTF-8',
    );
    const notUtf8 = await put('not-utf8.xls', xml2003('UTF-8', rows, 'windows-1252'));
    expect(await refusal(notUtf8, [generic])).toBe(
      'not-utf8.xls: declares UTF-8 (its XML declaration) but is not valid UTF-8: refused rather than read as something else',
    );
  });
});

describe('HTML pages: text in the encoding their <meta charset> names', () => {
  const page = (meta: string, item: string) =>
    `<html><head>${meta}</head><body><table><tr>${GENERIC_HEADER.map((h) => `<th>${h}</th>`).join('')}</tr><tr>${genericRow(
      'EBS-1',
      1,
      item,
    )
      .map((v) => `<td>${v}</td>`)
      .join('')}</tr></table></body></html>`;

  it('windows-1250 in either form of <meta>: exact', async () => {
    for (const meta of [
      '<meta charset="windows-1250">',
      '<meta http-equiv="Content-Type" content="text/html; charset=windows-1250">',
    ]) {
      const path = await put('report-1250.xls', iconv.encode(page(meta, 'Łożysko – żółty'), 'windows-1250'));
      expect(await namesIn(path), meta).toEqual([['EBS-1', ['Łożysko – żółty'], 'Hardware']]);
    }
  });

  it('bytes the declared encoding does not define are refused, not read as something else', async () => {
    const path = await put('report-bad.xls', iconv.encode(page('<meta charset="utf-8">', 'Łożysko'), 'windows-1250'));
    expect(await refusal(path, [generic])).toBe(
      'report-bad.xls: declares UTF-8 (its <meta charset>) but is not valid UTF-8: refused rather than read as something else',
    );
  });
});

describe('text that declares nothing: UTF-8, or Windows-1252 stated as a guess, or refused', () => {
  const csv = (item: string) =>
    [GENERIC_HEADER, genericRow('PR-3', 1, item)].map((r) => r.map((v) => `"${v}"`).join(',')).join('\r\n');

  it('not UTF-8: read as Windows-1252, and the report and check say it was guessed', async () => {
    const path = await put('generic-ansi.csv', iconv.encode(csv('Käse – „Brie“ €'), 'windows-1252'));
    const { summary, reqs } = await ingest(path, [generic]);
    expect(reqs[0]!.lines[0]!.product_name).toBe('Käse – „Brie“ €');
    expect(summary.notes[0]).toMatch(
      /^read as windows-1252, guessed: the file declares no encoding and is not valid UTF-8/,
    );
    const out: string[] = [];
    expect(await runCheck(path, { profiles: [generic], limits: LIMITS, now: NOW }, (l) => out.push(l))).toBe(0);
    expect(out).toContain(`note: ${summary.notes[0]}`);
  });

  it('neither UTF-8 nor Windows-1252 (a DOS codepage 850 export): refused naming both', async () => {
    // "ü" is 0x81 in codepage 850, a byte Windows-1252 leaves undefined
    const path = await put('generic-dos.csv', iconv.encode(csv('Müller Drehteile'), 'cp850'));
    expect(await refusal(path, [generic])).toMatch(
      /^generic-dos\.csv: is text in neither UTF-8 nor Windows-1252 \(it has no byte order mark, and byte [\d,]+ is valid in neither\): save it as UTF-8$/,
    );
  });
});

it('xlsx: text whose bytes an inflated chunk of the sheet splits is read exact (20,000 rows of Polish text)', async () => {
  // exceljs decoded each 16 KiB chunk of a part on its own: a letter across two chunks became U+FFFD
  const { Workbook } = await loadExcelJS();
  const wb = new Workbook();
  const ws = wb.addWorksheet('Linie');
  ws.addRow(GENERIC_HEADER);
  const want: string[] = [];
  for (let i = 1; i <= 20_000; i++) {
    const item = `Łożysko ${i} – „żółty“ €`;
    want.push(item);
    ws.addRow(genericRow(`PL-${i}`, 1, item));
  }
  const path = join(dir, 'polish.xlsx');
  await wb.xlsx.writeFile(path);
  const { summary, reqs } = await ingest(path, [generic]);
  expect(summary.heldRequisitions).toBe(0);
  expect(reqs.map((r) => r.lines[0]!.product_name)).toEqual(want);
}, 120_000);
