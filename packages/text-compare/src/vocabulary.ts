import { wordCodeHash } from '@content-analysis/credits';
import { wordKey } from './wordKey.js';

/** Fewest slots of the first table; it doubles whenever it is half full. */
const INITIAL_SLOTS = 1 << 12;

function grown<T extends Int32Array<ArrayBuffer> | Uint16Array<ArrayBuffer>>(array: T, length: number): T {
  const out = new (array.constructor as new (length: number) => T)(Math.max(length, 2 * array.length));
  out.set(array);
  return out;
}

const HASH_PRIME = 0x01000193;

/**
 * Hash of the code units of `text[start, end)` that the vocabulary looks words (and keys) up by: `wordCodeHash` of
 * the credits package, which `scanWords` gives each word as it cuts it.
 */
export const wordHash = wordCodeHash;

/** A table of `[hash, id + 1]` pairs (0: empty slot) rebuilt with twice the slots. */
function rehashed(old: Int32Array<ArrayBuffer>): Int32Array<ArrayBuffer> {
  const table = new Int32Array(2 * old.length);
  const mask = (table.length >>> 1) - 1;
  for (let s = 0; s < old.length; s += 2) {
    if (old[s + 1] === 0) continue;
    let slot = old[s]! & mask;
    while (table[2 * slot + 1] !== 0) slot = (slot + 1) & mask;
    table[2 * slot] = old[s]!;
    table[2 * slot + 1] = old[s + 1]!;
  }
  return table;
}

/** The arrays of the last vocabulary recycled, for the next one (see `Vocabulary.recycle`). */
let recycled: Vocabulary | undefined;

/**
 * Integer ids shared by the two texts of one comparison: a raw id per distinct word as written, a key id per
 * distinct normalised key (`wordKey`). Words are looked up by their characters in place, in an open-addressing
 * table hashed by `wordHash` (FNV-1a's step): each slot holds a hash and a raw id, and the code units of each
 * distinct word are kept once, one after another, in a pool, so that a lookup touches the table and, only when
 * hash and length agree, a short stretch of the pool. Keys are found the same way in a second table; no string is
 * cut out of the text, except the key of a non-ASCII word at its first occurrence.
 */
export class Vocabulary {
  /** Pairs `[hash, raw id + 1]` per slot; 0 as the id marks an empty slot. */
  private table: Int32Array<ArrayBuffer>;
  private mask: number;
  /** Code units of the distinct words; those of raw id r are `pool[poolStart[r], poolStart[r + 1])`. */
  private pool: Uint16Array<ArrayBuffer>;
  private poolStart: Int32Array<ArrayBuffer>;
  /** Key id of each raw id. */
  private keyOfRaw: Int32Array<ArrayBuffer>;
  private raws = 0;
  /** The keys, as the raw words: pairs `[hash, key id + 1]` per slot, and the code units of each key in a pool. */
  private keyTable: Int32Array<ArrayBuffer>;
  private keyMask: number;
  private keyPool: Uint16Array<ArrayBuffer>;
  private keyPoolStart: Int32Array<ArrayBuffer>;
  private keys = 0;
  /** Code units of the key of a word that is not all ASCII. */
  private keyScratch = new Uint16Array(64);

  /** `expectedWords`: about how many distinct words will be read (sizes the first table; any number works). */
  constructor(expectedWords = 0) {
    let slots = INITIAL_SLOTS;
    while (slots < 2 * expectedWords && slots < 1 << 20) slots *= 2;
    this.mask = slots - 1;
    this.keyMask = slots - 1;
    const old = recycled;
    recycled = undefined;
    if (old !== undefined && old.table.length === 2 * slots && old.keyTable.length === 2 * slots) {
      // Only the tables need clearing: the pools and the per-id arrays are written before they are read.
      this.table = old.table.fill(0);
      this.pool = old.pool;
      this.poolStart = old.poolStart;
      this.keyOfRaw = old.keyOfRaw;
      this.keyTable = old.keyTable.fill(0);
      this.keyPool = old.keyPool;
      this.keyPoolStart = old.keyPoolStart;
      return;
    }
    this.table = new Int32Array(2 * slots);
    this.pool = new Uint16Array(4 * slots);
    this.poolStart = new Int32Array(slots / 2 + 1);
    this.keyOfRaw = new Int32Array(slots / 2);
    this.keyTable = new Int32Array(2 * slots);
    this.keyPool = new Uint16Array(4 * slots);
    this.keyPoolStart = new Int32Array(slots / 2 + 1);
  }

  /**
   * Hands this vocabulary's arrays to the next one built with as many slots (a comparison builds one, fills it and
   * drops it: fresh arrays of some 600 kB per call cost more than clearing two tables). This vocabulary must not
   * be used afterwards.
   */
  recycle(): void {
    recycled = this;
  }

  /** Number of distinct keys seen so far; key ids are below it. */
  get keyCount(): number {
    return this.keys;
  }

  /** Number of distinct raw words seen so far; raw ids are below it. */
  get rawCount(): number {
    return this.raws;
  }

  /**
   * Reads words `from` to `to` (exclusive) of `text`, whose code units are `units` (`codeUnits(text)`): `spans` as
   * `wordSpans` gives them, `hashes` their `wordHash` (as `scanWords` gives them); writes the raw id and the key id
   * of word `w` to `raws[w]` and `keys[w]`. Ids are given in order of first occurrence over all the words read by
   * this vocabulary.
   */
  readWords(
    text: string, units: Uint16Array, spans: Uint32Array, hashes: Int32Array, from: number, to: number,
    raws: Int32Array, keys: Int32Array,
  ): void {
    let table = this.table;
    let mask = this.mask;
    let pool = this.pool;
    let poolStart = this.poolStart;
    let keyOfRaw = this.keyOfRaw;
    for (let w = from; w < to; w++) {
      const start = spans[2 * w]!;
      const length = spans[2 * w + 1]! - start;
      const hash = hashes[w]!;
      let slot = hash & mask;
      let raw = -1;
      for (;;) {
        const entry = table[2 * slot + 1]!;
        if (entry === 0) break;
        if (table[2 * slot] === hash) {
          // Same hash: the same word when length and code units agree.
          const at = poolStart[entry - 1]!;
          if (poolStart[entry]! - at === length) {
            let i = 0;
            while (i < length && pool[at + i] === units[start + i]) i++;
            if (i === length) {
              raw = entry - 1;
              break;
            }
          }
        }
        slot = (slot + 1) & mask;
      }
      if (raw === -1) {
        raw = this.add(slot, hash, text, units, start, start + length);
        // Adding may have grown or rebuilt the arrays.
        table = this.table;
        mask = this.mask;
        pool = this.pool;
        poolStart = this.poolStart;
        keyOfRaw = this.keyOfRaw;
      }
      raws[w] = raw;
      keys[w] = keyOfRaw[raw]!;
    }
  }

  private add(slot: number, hash: number, text: string, units: Uint16Array, start: number, end: number): number {
    const id = this.raws++;
    const length = end - start;
    if (id + 1 >= this.poolStart.length) this.poolStart = grown(this.poolStart, id + 2);
    if (id >= this.keyOfRaw.length) this.keyOfRaw = grown(this.keyOfRaw, id + 1);
    const from = this.poolStart[id]!;
    if (from + length > this.pool.length) this.pool = grown(this.pool, from + length);
    const pool = this.pool;
    // One pass copies the word to the pool and hashes its key as if it were ASCII (an ASCII word's key is the word
    // with upper case lowered); the key is then matched against the copy rather than read from the text again.
    let keyHash = 0;
    let ascii = 1;
    for (let i = 0; i < length; i++) {
      let c = units[start + i]!;
      pool[from + i] = c;
      ascii &= c < 128 ? 1 : 0;
      if (c >= 65 && c <= 90) c += 32;
      keyHash = Math.imul(keyHash ^ c, HASH_PRIME);
    }
    this.poolStart[id + 1] = from + length;
    this.keyOfRaw[id] = ascii === 1 ? this.findKey(pool, from, length, keyHash, true) : this.nonAsciiKeyId(text, start, end);
    this.table[2 * slot] = hash;
    this.table[2 * slot + 1] = id + 1;
    if (2 * this.raws > this.mask + 1) this.rehash();
    return id;
  }

  /** Key id of a word that is not all ASCII: its `wordKey`, computed as a string. */
  private nonAsciiKeyId(text: string, start: number, end: number): number {
    const key = wordKey(text.slice(start, end));
    if (key.length > this.keyScratch.length) this.keyScratch = new Uint16Array(2 * key.length);
    const units = this.keyScratch;
    for (let i = 0; i < key.length; i++) units[i] = key.charCodeAt(i);
    return this.findKey(units, 0, key.length, wordHash(key, 0, key.length), false);
  }

  /**
   * Id of the key whose code units are `units[start, start + length)` (ASCII upper case lowered when `lower`),
   * hashing to `hash`; a new id when it is new.
   */
  private findKey(units: Uint16Array, start: number, length: number, hash: number, lower: boolean): number {
    const table = this.keyTable;
    const mask = this.keyMask;
    const pool = this.keyPool;
    const poolStart = this.keyPoolStart;
    let slot = hash & mask;
    for (;;) {
      const entry = table[2 * slot + 1]!;
      if (entry === 0) break;
      const from = poolStart[entry - 1]!;
      if (table[2 * slot] === hash && poolStart[entry]! - from === length) {
        let i = 0;
        for (; i < length; i++) {
          let c = units[start + i]!;
          if (lower && c >= 65 && c <= 90) c += 32;
          if (pool[from + i] !== c) break;
        }
        if (i === length) return entry - 1;
      }
      slot = (slot + 1) & mask;
    }
    const id = this.keys++;
    if (id + 1 >= this.keyPoolStart.length) this.keyPoolStart = grown(this.keyPoolStart, id + 2);
    const from = this.keyPoolStart[id]!;
    if (from + length > this.keyPool.length) this.keyPool = grown(this.keyPool, from + length);
    const target = this.keyPool;
    for (let i = 0; i < length; i++) {
      let c = units[start + i]!;
      if (lower && c >= 65 && c <= 90) c += 32;
      target[from + i] = c;
    }
    this.keyPoolStart[id + 1] = from + length;
    table[2 * slot] = hash;
    table[2 * slot + 1] = id + 1;
    if (2 * this.keys > mask + 1) {
      this.keyTable = rehashed(table);
      this.keyMask = 2 * mask + 1;
    }
    return id;
  }

  private rehash(): void {
    this.table = rehashed(this.table);
    this.mask = 2 * this.mask + 1;
  }
}
