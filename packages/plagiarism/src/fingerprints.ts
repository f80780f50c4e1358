import type { AnalyzedText } from './analyzeText.js';
import { hashGram, hashString } from './hash.js';
import { winnow } from './winnow.js';

/** Parameters of the fingerprint scheme; part of the persisted index's version. */
export interface FingerprintOptions {
  /**
   * Words per k-gram (content-word stems, stop words left out).
   * @default 3
   */
  k: number;
  /**
   * Winnowing window, in k-grams: a shared run of `k + window - 1` content words is always found.
   * @default 4
   */
  window: number;
}

export const DEFAULT_FINGERPRINT_OPTIONS: Readonly<FingerprintOptions> = Object.freeze({ k: 3, window: 4 });

/** A string naming the scheme, stored with a persisted index. */
export function fingerprintScheme(options: FingerprintOptions): string {
  return `stem-kgram-winnow:v1:k=${options.k}:w=${options.window}`;
}

/** The 32-bit hashes of the stems of the content words of a text, in order. */
export function contentStemHashes(text: AnalyzedText): Uint32Array {
  let n = 0;
  for (let i = 0; i < text.tokens.length; i++) if (text.content[i] === 1) n++;
  const words = new Uint32Array(n);
  for (let i = 0, w = 0; i < text.tokens.length; i++) if (text.content[i] === 1) words[w++] = hashString(text.stems[i]!);
  return words;
}

/**
 * The winnowed fingerprints of a text: hashes of k-grams of its content-word stems (normalised, case-folded,
 * evasions removed, stop words dropped, so that inflected copies still share fingerprints), deduplicated and
 * sorted.
 */
export function fingerprintsOf(text: AnalyzedText, options: FingerprintOptions = DEFAULT_FINGERPRINT_OPTIONS): Uint32Array {
  return stemHashFingerprints(contentStemHashes(text), options);
}

/** {@link fingerprintsOf} from the content-word stem hashes of a text (`contentStemHashes`). */
export function stemHashFingerprints(words: Uint32Array, options: FingerprintOptions = DEFAULT_FINGERPRINT_OPTIONS): Uint32Array {
  const k = Math.min(options.k, words.length);
  if (k === 0) return new Uint32Array(0);
  const grams = new Uint32Array(words.length - k + 1);
  for (let i = 0; i < grams.length; i++) grams[i] = hashGram(words, i, k);
  const unique = new Uint32Array(new Set(winnow(grams, options.window)));
  return unique.sort();
}

/**
 * The fingerprints a text is looked up with: the hashes of ALL its k-grams of content-word stems, deduplicated and
 * sorted. A stored document keeps its winnowed fingerprints only; a query made of every k-gram finds each of them
 * that the input shares, where winnowing the input too finds only the grams both windows happen to select (a
 * reworded passage keeps few runs of k stems, and their neighbours, which decide the selection, differ).
 */
export function queryFingerprintsOf(text: AnalyzedText, options: FingerprintOptions = DEFAULT_FINGERPRINT_OPTIONS): Uint32Array {
  return stemHashQueryFingerprints(contentStemHashes(text), options);
}

/** {@link queryFingerprintsOf} from the content-word stem hashes of a text (`contentStemHashes`). */
export function stemHashQueryFingerprints(words: Uint32Array, options: FingerprintOptions = DEFAULT_FINGERPRINT_OPTIONS): Uint32Array {
  const k = Math.min(options.k, words.length);
  if (k === 0) return new Uint32Array(0);
  const grams = new Set<number>();
  for (let i = 0; i + k <= words.length; i++) grams.add(hashGram(words, i, k));
  return new Uint32Array(grams).sort();
}
