/**
 * Which requisition of the file claimed each external_id, in bounded memory: an open-addressing table of 64-bit
 * string hashes (two Uint32Array halves) and the owner's ordinal (Int32Array), ~24 bytes per id at most (measured
 * in bench/ingest.ts). Two different ids share a 64-bit hash with probability ~n²/2^65 (3e-8 for a million ids).
 */
export class ExternalIdIndex {
  private hi: Uint32Array;
  private lo: Uint32Array;
  private owner: Int32Array;
  private count = 0;

  constructor(initialCapacity = 1024) {
    let cap = 16;
    while (cap < initialCapacity * 2) cap *= 2;
    this.hi = new Uint32Array(cap);
    this.lo = new Uint32Array(cap);
    this.owner = new Int32Array(cap);
  }

  get size(): number {
    return this.count;
  }

  get bytes(): number {
    return this.hi.byteLength + this.lo.byteLength + this.owner.byteLength;
  }

  /** Record `id` for `owner` unless present; returns the owner recorded first (== `owner` when new). */
  claim(id: string, owner: number): number {
    let h1 = 0x811c9dc5;
    let h2 = 0x9747b28c;
    for (let i = 0; i < id.length; i++) {
      const c = id.charCodeAt(i);
      h1 = Math.imul(h1 ^ c, 0x01000193);
      h2 = Math.imul(h2 ^ c, 0x5bd1e995);
      h2 ^= h2 >>> 15;
    }
    h1 = (h1 ^ (h1 >>> 16)) >>> 0;
    h2 = (Math.imul(h2 ^ (h2 >>> 13), 0xc2b2ae35) ^ id.length) >>> 0;
    if (h1 === 0 && h2 === 0) h2 = 1; // (0,0) marks an empty slot
    const mask = this.hi.length - 1;
    let i = (h1 ^ Math.imul(h2, 0x9e3779b1)) & mask;
    for (;;) {
      const a = this.hi[i]!;
      const b = this.lo[i]!;
      if (a === 0 && b === 0) break;
      if (a === h1 && b === h2) return this.owner[i]!;
      i = (i + 1) & mask;
    }
    this.hi[i] = h1;
    this.lo[i] = h2;
    this.owner[i] = owner;
    this.count++;
    if (this.count * 2 > this.hi.length) this.grow();
    return owner;
  }

  private grow(): void {
    const { hi, lo, owner } = this;
    const cap = hi.length * 2;
    this.hi = new Uint32Array(cap);
    this.lo = new Uint32Array(cap);
    this.owner = new Int32Array(cap);
    const mask = cap - 1;
    for (let j = 0; j < hi.length; j++) {
      const a = hi[j]!;
      const b = lo[j]!;
      if (a === 0 && b === 0) continue;
      let i = (a ^ Math.imul(b, 0x9e3779b1)) & mask;
      while (this.hi[i] !== 0 || this.lo[i] !== 0) i = (i + 1) & mask;
      this.hi[i] = a;
      this.lo[i] = b;
      this.owner[i] = owner[j]!;
    }
  }
}
