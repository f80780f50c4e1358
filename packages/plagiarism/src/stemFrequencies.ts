import { hashString } from './hash.js';

/** The counts of a {@link StemFrequencies}, as plain typed arrays (they cross threads by structured clone). */
export interface StemFrequenciesSnapshot {
  keys: Uint32Array;
  counts: Int32Array;
  documents: number;
}

/**
 * How many documents of a collection use each content-word stem: the background rate of words. Stems are kept as
 * their 32-bit hashes (those of the fingerprints, see `contentStemHashes`) in an open-addressing table of typed
 * arrays, since this runs for every document indexed; a rare hash collision merges two stems' counts.
 */
export class StemFrequencies {
  private keys = new Uint32Array(1 << 12);
  private counts = new Int32Array(1 << 12);
  private seen = new Uint32Array(1 << 12);
  private used = 0;
  private total = 0;
  private serial = 0;

  /** Number of documents counted. */
  get documents(): number {
    return this.total;
  }

  /** A copy of the counts (see {@link StemFrequencies.fromSnapshot}). */
  snapshot(): StemFrequenciesSnapshot {
    return { keys: this.keys.slice(), counts: this.counts.slice(), documents: this.total };
  }

  /** Frequencies with the counts of a snapshot, for reading (`count`) where the collection is not. */
  static fromSnapshot(snapshot: StemFrequenciesSnapshot): StemFrequencies {
    const { keys, counts, documents } = snapshot;
    if (keys.length !== counts.length || keys.length === 0 || (keys.length & (keys.length - 1)) !== 0) {
      throw new RangeError('a stem frequencies snapshot holds two arrays of one power-of-two length');
    }
    const frequencies = new StemFrequencies();
    frequencies.keys = Uint32Array.from(keys);
    frequencies.counts = Int32Array.from(counts);
    frequencies.seen = new Uint32Array(keys.length);
    frequencies.used = keys.reduce((n, k) => n + (k === 0 ? 0 : 1), 0);
    frequencies.total = documents;
    return frequencies;
  }

  /** Number of documents that use `stem` (0 when none). */
  count(stem: string): number {
    const slot = this.find(hashString(stem) || 1);
    return this.keys[slot] === 0 ? 0 : Math.max(0, this.counts[slot]!);
  }

  /** Counts a document given the hashes of its content-word stems. */
  add(stemHashes: Uint32Array): void {
    this.total++;
    this.update(stemHashes, 1);
  }

  /** Uncounts a document counted with {@link add}. */
  remove(stemHashes: Uint32Array): void {
    this.total--;
    this.update(stemHashes, -1);
  }

  /** The slot of `key` (0 is reserved for empty slots), or the empty slot where it would go. */
  private find(key: number): number {
    const mask = this.keys.length - 1;
    let slot = Math.imul(key, 0x9e3779b1) >>> 0 & mask;
    while (this.keys[slot] !== 0 && this.keys[slot] !== key) slot = (slot + 1) & mask;
    return slot;
  }

  private update(stemHashes: Uint32Array, delta: 1 | -1): void {
    const serial = ++this.serial;
    if ((this.used + stemHashes.length) * 2 > this.keys.length) this.grow(this.used + stemHashes.length);
    for (let i = 0; i < stemHashes.length; i++) {
      const key = stemHashes[i]! || 1;
      const slot = this.find(key);
      if (this.keys[slot] === 0) {
        if (delta < 0) continue;
        this.keys[slot] = key;
        this.used++;
      } else if (this.seen[slot] === serial) {
        continue;
      }
      this.seen[slot] = serial;
      this.counts[slot] = this.counts[slot]! + delta;
    }
  }

  private grow(needed: number): void {
    const { keys, counts, seen } = this;
    let size = keys.length;
    while (needed * 2 > size) size *= 2;
    this.keys = new Uint32Array(size);
    this.counts = new Int32Array(size);
    this.seen = new Uint32Array(size);
    for (let s = 0; s < keys.length; s++) {
      if (keys[s] === 0) continue;
      const slot = this.find(keys[s]!);
      this.keys[slot] = keys[s]!;
      this.counts[slot] = counts[s]!;
      this.seen[slot] = seen[s]!;
    }
  }
}
