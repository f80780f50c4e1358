import { wordSpans } from '@content-analysis/credits';
import { wordKey } from './wordKey.js';

/** Slots of the first table; it doubles whenever it is half full. */
const INITIAL_SLOTS = 1 << 12;

function grown(array: Int32Array<ArrayBuffer>, length: number): Int32Array<ArrayBuffer> {
  const out = new Int32Array(Math.max(length, 2 * array.length));
  out.set(array);
  return out;
}

/**
 * Integer ids shared by the two texts of one comparison: a raw id per distinct word as written, a key id per
 * distinct normalised key (`wordKey`). Words are looked up by their characters in place, in an open-addressing
 * table of raw ids hashed with FNV-1a, so that no string is cut out of the text except at a word's first
 * occurrence, whose key is computed then.
 */
export class Vocabulary {
  private table = new Int32Array(INITIAL_SLOTS).fill(-1);
  private mask = INITIAL_SLOTS - 1;
  /** The texts read so far (see `readText`). */
  private readonly texts: string[] = [];
  /** Of each raw id's first occurrence: its hash, text index, start and length. */
  private hashes = new Int32Array(INITIAL_SLOTS / 2);
  private textOf = new Int32Array(INITIAL_SLOTS / 2);
  private starts = new Int32Array(INITIAL_SLOTS / 2);
  private lengths = new Int32Array(INITIAL_SLOTS / 2);
  /** Key id of each raw id. */
  private keyOfRaw = new Int32Array(INITIAL_SLOTS / 2);
  private raws = 0;
  private readonly keyIds = new Map<string, number>();

  /** Number of distinct keys seen so far; key ids are below it. */
  get keyCount(): number {
    return this.keyIds.size;
  }

  /** Number of distinct raw words seen so far; raw ids are below it. */
  get rawCount(): number {
    return this.raws;
  }

  /** Makes `text` a text that `rawId` reads words of; returns its index. */
  readText(text: string): number {
    this.texts.push(text);
    return this.texts.length - 1;
  }

  /** Raw id of `text.slice(start, end)`, `text` being the text of index `textIndex` (see `readText`). */
  rawId(textIndex: number, text: string, start: number, end: number): number {
    let hash = 0x811c9dc5 | 0;
    for (let i = start; i < end; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
    const length = end - start;
    const table = this.table;
    const mask = this.mask;
    let slot = hash & mask;
    for (;;) {
      const id = table[slot]!;
      if (id === -1) break;
      if (this.hashes[id] === hash && this.lengths[id] === length && this.sameWord(id, textIndex, text, start, length)) {
        return id;
      }
      slot = (slot + 1) & mask;
    }
    return this.add(slot, hash, textIndex, text, start, end);
  }

  /** Key id of a raw id. */
  keyIdOf(rawId: number): number {
    return this.keyOfRaw[rawId]!;
  }

  private sameWord(id: number, textIndex: number, text: string, start: number, length: number): boolean {
    const from = this.starts[id]!;
    const other = this.textOf[id]!;
    if (other === textIndex && from === start) return true;
    const otherText = this.texts[other]!;
    for (let i = 0; i < length; i++) if (otherText.charCodeAt(from + i) !== text.charCodeAt(start + i)) return false;
    return true;
  }

  private add(slot: number, hash: number, textIndex: number, text: string, start: number, end: number): number {
    const key = wordKey(text.slice(start, end));
    let keyId = this.keyIds.get(key);
    if (keyId === undefined) {
      keyId = this.keyIds.size;
      this.keyIds.set(key, keyId);
    }
    const id = this.raws++;
    if (id === this.hashes.length) {
      this.hashes = grown(this.hashes, id + 1);
      this.textOf = grown(this.textOf, id + 1);
      this.starts = grown(this.starts, id + 1);
      this.lengths = grown(this.lengths, id + 1);
      this.keyOfRaw = grown(this.keyOfRaw, id + 1);
    }
    this.hashes[id] = hash;
    this.textOf[id] = textIndex;
    this.starts[id] = start;
    this.lengths[id] = end - start;
    this.keyOfRaw[id] = keyId;
    this.table[slot] = id;
    if (2 * this.raws > this.table.length) this.rehash();
    return id;
  }

  private rehash(): void {
    const table = new Int32Array(2 * this.table.length).fill(-1);
    const mask = table.length - 1;
    for (let id = 0; id < this.raws; id++) {
      let slot = this.hashes[id]! & mask;
      while (table[slot] !== -1) slot = (slot + 1) & mask;
      table[slot] = id;
    }
    this.table = table;
    this.mask = mask;
  }
}

/** One text cut into words. */
export interface TokenizedText {
  text: string;
  /** `wordSpans(text)`: `[start0, end0, start1, end1, ...]`. */
  spans: Uint32Array;
  /** Id of each word's normalised key: what the alignment compares. */
  keys: Int32Array;
  /** Id of each word as written: tells an identical word from a minor change. */
  raws: Int32Array;
}

export function tokenize(text: string, vocabulary: Vocabulary): TokenizedText {
  const spans = wordSpans(text);
  const count = spans.length / 2;
  const keys = new Int32Array(count);
  const raws = new Int32Array(count);
  const textIndex = vocabulary.readText(text);
  for (let w = 0; w < count; w++) {
    const raw = vocabulary.rawId(textIndex, text, spans[2 * w]!, spans[2 * w + 1]!);
    raws[w] = raw;
    keys[w] = vocabulary.keyIdOf(raw);
  }
  return { text, spans, keys, raws };
}
