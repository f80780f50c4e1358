import { wordSpans } from '@content-analysis/credits';
import { wordKey } from './wordKey.js';

/** Integer ids shared by the two texts of one comparison. */
export class Vocabulary {
  private readonly rawIds = new Map<string, number>();
  private readonly keyIds = new Map<string, number>();
  /** Key id of each raw id. */
  private readonly keyOfRaw: number[] = [];

  /** Number of distinct keys seen so far; key ids are below it. */
  get keyCount(): number {
    return this.keyIds.size;
  }

  /** Raw id of `raw`, registering it and its key on first sight. */
  rawId(raw: string): number {
    let id = this.rawIds.get(raw);
    if (id === undefined) {
      const key = wordKey(raw);
      let keyId = this.keyIds.get(key);
      if (keyId === undefined) {
        keyId = this.keyIds.size;
        this.keyIds.set(key, keyId);
      }
      id = this.keyOfRaw.length;
      this.keyOfRaw.push(keyId);
      this.rawIds.set(raw, id);
    }
    return id;
  }

  keyIdOf(rawId: number): number {
    return this.keyOfRaw[rawId]!;
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
  for (let w = 0; w < count; w++) {
    const raw = vocabulary.rawId(text.slice(spans[2 * w]!, spans[2 * w + 1]!));
    raws[w] = raw;
    keys[w] = vocabulary.keyIdOf(raw);
  }
  return { text, spans, keys, raws };
}
