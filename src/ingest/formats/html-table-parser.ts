/**
 * The HTML reader's parser: htmlparser2's Tokenizer driven with the element rules of htmlparser2's Parser (options
 * decodeEntities, lowerCaseTags, recognizeSelfClosing), for the four events the table reader takes: a tag opened
 * (by name), its attributes, a tag closed, text. Open tags a later tag implies closed (`<td>` after `<td>`, `<tr>`
 * after a cell), void elements (`<br>`), a close tag that ends the elements above it, `</p>` and `</br>` without
 * an opening, and the elements still open at the end come in the same order as from the Parser.
 *
 * What it does not do is work no one asked for: text is cut from the page only where the handler wants it (in a
 * cell or a caption), attributes only of the tags whose attributes it keeps (a table's `id`, a cell's spans), and
 * no callback object is probed per event. On a 100,000-row table this is most of the Parser's cost (bench:ingest).
 */
import { Tokenizer, type TokenizerCallbacks } from 'htmlparser2';

export interface TableHandler {
  onopentagname(name: string): void;
  onattribute(name: string, value: string): void;
  onclosetag(name: string): void;
  ontext(text: string): void;
  /** Whether text here is kept (inside a cell or a caption). */
  wantsText(): boolean;
  /** Whether the attributes of the tag just opened are kept. */
  wantsAttributes(): boolean;
}

const P = new Set(['p']);
const FORM = new Set(['input', 'option', 'optgroup', 'select', 'button', 'datalist', 'textarea']);
const SECTIONS = new Set(['thead', 'tbody']);
const DDT = new Set(['dd', 'dt']);
const RTP = new Set(['rt', 'rp']);
/** htmlparser2's openImpliesClose: an opening tag closes these when they are the innermost open element. */
const IMPLIES_CLOSE = new Map<string, Set<string>>([
  ['tr', new Set(['tr', 'th', 'td'])],
  ['th', new Set(['th'])],
  ['td', new Set(['thead', 'th', 'td'])],
  ['body', new Set(['head', 'link', 'script'])],
  ['li', new Set(['li'])],
  ...['p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((t): [string, Set<string>] => [t, P]),
  ...['select', 'input', 'output', 'button', 'datalist', 'textarea'].map((t): [string, Set<string>] => [t, FORM]),
  ['option', new Set(['option'])],
  ['optgroup', new Set(['optgroup', 'option'])],
  ['dd', DDT],
  ['dt', DDT],
  ...[
    'address',
    'article',
    'aside',
    'blockquote',
    'details',
    'div',
    'dl',
    'fieldset',
    'figcaption',
    'figure',
    'footer',
    'form',
    'header',
    'hr',
    'main',
    'nav',
    'ol',
    'pre',
    'section',
    'table',
    'ul',
  ].map((t): [string, Set<string>] => [t, P]),
  ['rt', RTP],
  ['rp', RTP],
  ['tbody', SECTIONS],
  ['tfoot', SECTIONS],
]);
/** htmlparser2's void elements: closed as soon as opened. */
const VOID = new Set([
  'area',
  'base',
  'basefont',
  'br',
  'col',
  'command',
  'embed',
  'frame',
  'hr',
  'img',
  'input',
  'isindex',
  'keygen',
  'link',
  'meta',
  'param',
  'source',
  'track',
  'wbr',
]);

export class TableParser implements TokenizerCallbacks {
  private readonly tokenizer: Tokenizer;
  /** Open elements, the innermost last. */
  private readonly stack: string[] = [];
  private readonly buffers: string[] = [];
  private bufferOffset = 0;
  private tagname = '';
  private attribname = '';
  private attribvalue = '';
  private keepAttribs = false;
  private readonly h: TableHandler;

  constructor(handler: TableHandler) {
    this.h = handler;
    this.tokenizer = new Tokenizer({ decodeEntities: true }, this);
  }

  write(chunk: string): void {
    this.buffers.push(chunk);
    this.tokenizer.write(chunk);
  }

  end(): void {
    this.tokenizer.end();
  }

  /** Buffers wholly before `start` are dropped (text no one wanted is never cut, but its buffer goes). */
  private skipTo(start: number): void {
    while (this.buffers.length > 1 && start - this.bufferOffset >= this.buffers[0]!.length) {
      this.bufferOffset += this.buffers[0]!.length;
      this.buffers.shift();
    }
  }

  private slice(start: number, end: number): string {
    this.skipTo(start);
    let s = this.buffers[0]!.slice(start - this.bufferOffset, end - this.bufferOffset);
    while (end - this.bufferOffset > this.buffers[0]!.length) {
      this.bufferOffset += this.buffers[0]!.length;
      this.buffers.shift();
      s += this.buffers[0]!.slice(0, end - this.bufferOffset);
    }
    return s;
  }

  /**
   * A tag's name, lower case: `td`, `tr` and `th`, most of a table's tags, straight from the page's characters (no
   * string cut and lowered for each).
   */
  private tagName(start: number, end: number): string {
    if (end - start === 2) {
      this.skipTo(start);
      const b = this.buffers[0]!;
      const at = start - this.bufferOffset;
      if (at + 2 <= b.length && (b.charCodeAt(at) | 0x20) === 0x74 /* t */) {
        const c = b.charCodeAt(at + 1) | 0x20;
        if (c === 0x64) return 'td';
        if (c === 0x72) return 'tr';
        if (c === 0x68) return 'th';
      }
    }
    return this.slice(start, end).toLowerCase();
  }

  ontext(start: number, end: number): void {
    if (this.h.wantsText()) this.h.ontext(this.slice(start, end));
    else this.skipTo(start);
  }

  ontextentity(cp: number): void {
    if (this.h.wantsText()) this.h.ontext(String.fromCodePoint(cp));
  }

  onopentagname(start: number, end: number): void {
    this.openTag(this.tagName(start, end));
  }

  private openTag(name: string): void {
    this.tagname = name;
    const implied = IMPLIES_CLOSE.get(name);
    if (implied) {
      const stack = this.stack;
      while (stack.length > 0 && implied.has(stack[stack.length - 1]!)) this.h.onclosetag(stack.pop()!);
    }
    if (!VOID.has(name)) this.stack.push(name);
    this.h.onopentagname(name);
    this.keepAttribs = this.h.wantsAttributes();
  }

  onattribname(start: number, end: number): void {
    if (this.keepAttribs) this.attribname = this.slice(start, end).toLowerCase();
  }

  onattribdata(start: number, end: number): void {
    if (this.keepAttribs) this.attribvalue += this.slice(start, end);
  }

  onattribentity(cp: number): void {
    if (this.keepAttribs) this.attribvalue += String.fromCodePoint(cp);
  }

  onattribend(): void {
    if (this.keepAttribs) this.h.onattribute(this.attribname, this.attribvalue);
    this.attribvalue = '';
  }

  private endOpenTag(): void {
    this.keepAttribs = false;
    if (VOID.has(this.tagname)) this.h.onclosetag(this.tagname);
    this.tagname = '';
  }

  onopentagend(): void {
    this.endOpenTag();
  }

  onselfclosingtag(): void {
    this.closeCurrentTag();
  }

  private closeCurrentTag(): void {
    const name = this.tagname;
    this.endOpenTag();
    if (this.stack[this.stack.length - 1] === name) {
      this.h.onclosetag(name);
      this.stack.pop();
    }
  }

  onclosetag(start: number, end: number): void {
    const name = this.tagName(start, end);
    if (!VOID.has(name)) {
      const pos = this.stack.lastIndexOf(name);
      if (pos !== -1) while (this.stack.length > pos) this.h.onclosetag(this.stack.pop()!);
      else if (name === 'p') {
        // a </p> without its <p>: an empty paragraph, as the Parser makes it
        this.openTag('p');
        this.closeCurrentTag();
      }
    } else if (name === 'br') {
      this.h.onopentagname('br');
      this.h.onclosetag('br');
    }
  }

  onend(): void {
    for (let i = this.stack.length - 1; i >= 0; i--) this.h.onclosetag(this.stack[i]!);
  }

  oncdata(): void {}
  oncomment(): void {}
  ondeclaration(): void {}
  onprocessinginstruction(): void {}
}
