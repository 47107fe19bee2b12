/**
 * Which requisition of the file claimed each external_id, in bounded memory: an open-addressing table of 64-bit
 * string hashes and the owner's ordinal, ~24 bytes per id at most (measured in bench/ingest.ts). Two different ids
 * share a 64-bit hash with probability ~n²/2^65 (3e-8 for a million ids). A slot's two hash halves and owner sit
 * side by side in one Int32Array: a probe of a table larger than the CPU's caches costs one cache miss, not three.
 */
const SLOT = 3;

export class ExternalIdIndex {
  /** Per slot: hash high half, low half (both 0: empty), owner. */
  private table: Int32Array;
  private count = 0;

  constructor(initialCapacity = 1024) {
    let cap = 16;
    while (cap < initialCapacity * 2) cap *= 2;
    this.table = new Int32Array(cap * SLOT);
  }

  get size(): number {
    return this.count;
  }

  get bytes(): number {
    return this.table.byteLength;
  }

  /** Record `id` for `owner` unless present; returns the owner recorded first (== `owner` when new). */
  claim(id: string, owner: number): number {
    const first = this.record(id, owner);
    return first === undefined ? owner : first;
  }

  /** Record `id` for `owner` unless present: undefined when it is new, else the owner recorded first. */
  record(id: string, owner: number): number | undefined {
    let h1 = 0x811c9dc5;
    let h2 = 0x9747b28c;
    for (let i = 0; i < id.length; i++) {
      const c = id.charCodeAt(i);
      h1 = Math.imul(h1 ^ c, 0x01000193);
      h2 = Math.imul(h2 ^ c, 0x5bd1e995);
      h2 ^= h2 >>> 15;
    }
    h1 = (h1 ^ (h1 >>> 16)) | 0;
    h2 = (Math.imul(h2 ^ (h2 >>> 13), 0xc2b2ae35) ^ id.length) | 0;
    if (h1 === 0 && h2 === 0) h2 = 1; // (0,0) marks an empty slot
    const t = this.table;
    const mask = t.length / SLOT - 1;
    let i = (h1 ^ Math.imul(h2, 0x9e3779b1)) & mask;
    for (;;) {
      const at = i * SLOT;
      const a = t[at]!;
      const b = t[at + 1]!;
      if (a === 0 && b === 0) break;
      if (a === h1 && b === h2) return t[at + 2]!;
      i = (i + 1) & mask;
    }
    const at = i * SLOT;
    t[at] = h1;
    t[at + 1] = h2;
    t[at + 2] = owner;
    this.count++;
    if (this.count * 2 > t.length / SLOT) this.grow();
    return undefined;
  }

  private grow(): void {
    const old = this.table;
    const cap = (old.length / SLOT) * 2;
    const t = new Int32Array(cap * SLOT);
    const mask = cap - 1;
    for (let j = 0; j < old.length; j += SLOT) {
      const a = old[j]!;
      const b = old[j + 1]!;
      if (a === 0 && b === 0) continue;
      let i = (a ^ Math.imul(b, 0x9e3779b1)) & mask;
      while (t[i * SLOT] !== 0 || t[i * SLOT + 1] !== 0) i = (i + 1) & mask;
      t[i * SLOT] = a;
      t[i * SLOT + 1] = b;
      t[i * SLOT + 2] = old[j + 2]!;
    }
    this.table = t;
  }
}
