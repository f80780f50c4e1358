/**
 * fingerprint -> documents, in typed arrays: an open-addressing hash table of list heads over one pool of
 * linked postings. About 12 bytes per posting and no per-key objects, so 10 million postings fit in about
 * 150 MB where a `Map<number, number[]>` would take several times that.
 */
export class PostingTable {
  private keys: Uint32Array;
  private heads: Int32Array;
  private counts: Int32Array;
  private used = 0;
  private docs: Int32Array;
  private next: Int32Array;
  private size = 0;

  constructor(expectedKeys = 1024) {
    let capacity = 1024;
    while (capacity < expectedKeys * 2) capacity *= 2;
    this.keys = new Uint32Array(capacity);
    this.heads = new Int32Array(capacity).fill(-1);
    this.counts = new Int32Array(capacity);
    this.docs = new Int32Array(4096);
    this.next = new Int32Array(4096);
  }

  /** Number of postings. */
  get postings(): number {
    return this.size;
  }

  /** Number of distinct fingerprints. */
  get distinct(): number {
    return this.used;
  }

  private slotOf(key: number): number {
    const mask = this.keys.length - 1;
    let slot = Math.imul(key, 0x9e3779b1) >>> 0 & mask;
    while (this.heads[slot] !== -1 && this.keys[slot] !== key) slot = (slot + 1) & mask;
    return slot;
  }

  private grow(): void {
    const { keys, heads, counts } = this;
    this.keys = new Uint32Array(keys.length * 2);
    this.heads = new Int32Array(keys.length * 2).fill(-1);
    this.counts = new Int32Array(keys.length * 2);
    for (let s = 0; s < keys.length; s++) {
      if (heads[s] === -1) continue;
      const slot = this.slotOf(keys[s]!);
      this.keys[slot] = keys[s]!;
      this.heads[slot] = heads[s]!;
      this.counts[slot] = counts[s]!;
    }
  }

  /** Records that document `doc` has fingerprint `key`. */
  add(key: number, doc: number): void {
    if (this.size === this.docs.length) {
      const docs = new Int32Array(this.size * 2);
      docs.set(this.docs);
      this.docs = docs;
      const next = new Int32Array(this.size * 2);
      next.set(this.next);
      this.next = next;
    }
    let slot = this.slotOf(key);
    if (this.heads[slot] === -1) {
      if ((this.used + 1) * 2 > this.keys.length) {
        this.grow();
        slot = this.slotOf(key);
      }
      this.keys[slot] = key;
      this.used++;
    }
    this.docs[this.size] = doc;
    this.next[this.size] = this.heads[slot]!;
    this.heads[slot] = this.size;
    this.counts[slot] = this.counts[slot]! + 1;
    this.size++;
  }

  /** How many postings `key` has. */
  count(key: number): number {
    const slot = this.slotOf(key);
    return this.heads[slot] === -1 ? 0 : this.counts[slot]!;
  }

  /** Calls `visit(doc)` for every posting of `key`, newest first. */
  forEach(key: number, visit: (doc: number) => void): void {
    let p = this.heads[this.slotOf(key)]!;
    while (p !== -1) {
      visit(this.docs[p]!);
      p = this.next[p]!;
    }
  }
}
