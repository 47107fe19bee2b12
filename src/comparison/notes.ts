/** Labels and capped note lists shared by the comparison stages. */
import type { ComparisonNote, LineComparison, SupplierSummary } from './types.ts';

/** How many items of one kind the notes list before summarising the rest. */
const NOTE_LIST_CAP = 50;

/** Collects notes of one kind, listing at most NOTE_LIST_CAP of them. */
export class NoteList {
  readonly topic: string;
  readonly items: string[] = [];
  count = 0;
  constructor(topic: string) {
    this.topic = topic;
  }
  /** `text` may be a function: only the listed notes are ever formatted. */
  add(text: string | (() => string)): void {
    this.count++;
    if (this.items.length < NOTE_LIST_CAP) this.items.push(typeof text === 'function' ? text() : text);
  }
  flush(into: ComparisonNote[], summary?: (count: number) => string): void {
    if (this.count === 0) return;
    if (summary) into.push({ topic: this.topic, text: summary(this.count) });
    for (const text of this.items) into.push({ topic: this.topic, text });
    if (this.count > this.items.length) {
      into.push({ topic: this.topic, text: `... and ${this.count - this.items.length} more not listed here.` });
    }
  }
}

export function supplierLabel(s: Pick<SupplierSummary, 'name' | 'key'>): string {
  return s.name ? `${s.name} (key ${s.key})` : `key ${s.key}`;
}

export function lineLabel(l: Pick<LineComparison, 'externalId' | 'lineId'>): string {
  return l.externalId ? `${l.externalId} (line_id ${l.lineId})` : `line_id ${l.lineId}`;
}
