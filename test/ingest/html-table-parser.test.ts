/**
 * The HTML reader's parser (src/ingest/formats/html-table-parser.ts: htmlparser2's Tokenizer under the Parser's element
 * rules) gives the table reader the same events as htmlparser2's Parser with the options the reader used: tags
 * opened and closed (implied ends, void elements, stray `</p>` and `</br>`, what is open at the end), attributes and
 * text, on random pages cut into random chunks. Its savings (text and attributes no one wants) are checked by the
 * reader's own tests (format-readers, html-attributes, the hostile files).
 */
import { Parser } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import { TableParser } from '../../src/ingest/formats/html-table-parser.ts';

let seed = 20261127;
const rnd = (): number => ((seed = (seed * 1103515245 + 12345) % 2147483648), seed / 2147483648);
const pick = <T>(a: readonly T[]): T => a[Math.floor(rnd() * a.length)]!;
const TAGS = [
  ...['table', 'tr', 'td', 'th', 'caption', 'br', 'p', 'div', 'span', 'tbody', 'thead', 'tfoot', 'b', 'li', 'ul'],
  ...['TD', 'TR', 'Th', 'Table', 'img', 'hr', 'select', 'option', 'script', 'style', 'title', 'svg', 'math'],
  ...['textarea', 'h1', 'dd', 'col', 'input', 'td', 'td', 'tr'],
];
const TEXTS = ['x', ' a  b ', '&amp;', '&nbsp;', '&lt;1&gt;', '\n', '12,5', 'é', '&#x41;', '&bogus;', '&amp', '<', '>'];
const ATTRS = [' colspan="2"', ' rowspan=3', ' id="t&amp;1"', " id='x'", ' class=a', ' ROWSPAN="2"', ' colspan'];
const ODD = ['<!-- c -->', '<![CDATA[z]]>', '<?pi x?>', '</br>', '</p>', '<td/>', '<br/>', '<!DOCTYPE html>'];

function page(n: number): string {
  let s = '';
  for (let i = 0; i < n; i++) {
    const r = rnd();
    if (r < 0.4) s += `<${pick(TAGS)}${rnd() < 0.3 ? pick(ATTRS) : ''}${rnd() < 0.05 ? '/' : ''}>`;
    else if (r < 0.62) s += `</${pick(TAGS)}>`;
    else if (r < 0.97) s += pick(TEXTS);
    else s += pick(ODD);
  }
  return s;
}

function chunks(html: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < html.length;) {
    const len = 1 + Math.floor(rnd() * 40);
    out.push(html.slice(i, i + len));
    i += len;
  }
  return out;
}

type Event = [string, ...string[]];

function parserEvents(parts: string[]): Event[] {
  const ev: Event[] = [];
  const p = new Parser(
    {
      onopentagname: (n) => ev.push(['open', n]),
      onattribute: (n, v) => ev.push(['attr', n, v]),
      onclosetag: (n) => ev.push(['close', n]),
      ontext: (t) => ev.push(['text', t]),
    },
    { decodeEntities: true, lowerCaseTags: true, recognizeSelfClosing: true },
  );
  for (const c of parts) p.write(c);
  p.end();
  return ev;
}

function tableParserEvents(parts: string[]): Event[] {
  const ev: Event[] = [];
  const p = new TableParser({
    onopentagname: (n) => ev.push(['open', n]),
    onattribute: (n, v) => ev.push(['attr', n, v]),
    onclosetag: (n) => ev.push(['close', n]),
    ontext: (t) => ev.push(['text', t]),
    wantsText: () => true,
    wantsAttributes: () => true,
  });
  for (const c of parts) p.write(c);
  p.end();
  return ev;
}

describe('TableParser gives the events of htmlparser2’s Parser', () => {
  it('on a table with implied ends, upper-case tags, entities, spans and a stray </p>', () => {
    const html =
      '<TABLE id="a&amp;b"><caption>Q&nbsp;1</caption><TR><TD colspan=2>x<br>y<td>z</p><tr><th/>w</table><p>';
    expect(tableParserEvents(chunks(html))).toEqual(parserEvents([html]));
  });

  it('on 600 random pages cut into random chunks', () => {
    for (let k = 0; k < 600; k++) {
      const html = page(5 + Math.floor(rnd() * 200));
      const parts = chunks(html);
      expect(tableParserEvents(parts), html).toEqual(parserEvents(parts));
    }
  });
});
