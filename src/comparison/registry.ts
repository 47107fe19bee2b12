/**
 * An ordered list of named implementations: the outputs of a comparison (outputs.ts) and its award rules
 * (award/award-rules.ts). A new one is a file of its own plus one line in that list; `register` adds one at run time
 * and returns how to take it out again (a test that brings its own).
 */
import { UnexpectedError } from '../core/index.ts';

export class Registry<T extends { readonly name: string }> {
  readonly #what: string;
  #items: readonly T[];

  /** `what` names one item in errors ("award rule"); `items` are the built-in ones, in order. */
  constructor(what: string, items: readonly T[]) {
    this.#what = what;
    this.#items = [];
    for (const item of items) this.register(item);
  }

  /** In order. */
  get all(): readonly T[] {
    return this.#items;
  }

  /** Adds `item` at the end, or just before the one named `before`; returns the function that removes it. */
  register(item: T, where: { before?: string } = {}): () => void {
    if (this.#items.some((i) => i.name === item.name))
      throw new UnexpectedError(`${this.#what} "${item.name}" is registered already`);
    const at = where.before === undefined ? this.#items.length : this.#items.findIndex((i) => i.name === where.before);
    if (at < 0) throw new UnexpectedError(`no ${this.#what} "${where.before}" to register "${item.name}" before`);
    this.#items = [...this.#items.slice(0, at), item, ...this.#items.slice(at)];
    return () => {
      this.#items = this.#items.filter((i) => i !== item);
    };
  }
}
