import { deflateRawSync } from 'node:zlib';
import { FEATURE_NAMES } from './featureNames.js';
import type { FeatureResources, PreparedDocument } from './prepareDocument.js';
import { lowerBound } from './words.js';

const MATTR_WINDOW = 50;

/** Options of `rangeFeatures`. */
export interface RangeFeatureOptions {
  /**
   * Compute the `deflate_*` features (three deflate calls per range); when false they are 0.
   * @default true
   */
  deflate?: boolean;
}

/**
 * The feature vector (in `FEATURE_NAMES` order) of sentences `first` to `last` (inclusive) of a prepared document.
 * Pure apart from deflate; linear in the length of the range. The `lz_*` features are 0 when the document was
 * prepared without compression profiles.
 */
export function rangeFeatures(
  doc: PreparedDocument, first: number, last: number, resources: FeatureResources, options: RangeFeatureOptions = {},
): Float32Array {
  const out = new Float32Array(FEATURE_NAMES.length);
  const start = doc.sentences[first]?.start ?? 0;
  const end = doc.sentences[last]?.end ?? 0;
  const chars = Math.max(1, end - start);
  const text = doc.canonical.slice(start, end);

  const lmHuman = (doc.humanHigh[end]! - doc.humanHigh[start]!) / chars;
  const lmHumanLow = (doc.humanLow[end]! - doc.humanLow[start]!) / chars;
  const lmMachine = (doc.machineHigh[end]! - doc.machineHigh[start]!) / chars;

  const { starts, ends, ids, functionWord } = doc.words;
  const w0 = lowerBound(starts, doc.words.count, start);
  const w1 = lowerBound(starts, doc.words.count, end);
  const wordCount = Math.max(0, w1 - w0);

  // Per-word mean surprisal and word lengths.
  let sumS = 0;
  let sumS2 = 0;
  let sumL = 0;
  let sumL2 = 0;
  let functionWords = 0;
  for (let w = w0; w < w1; w++) {
    const a = starts[w]!;
    const b = ends[w]!;
    const s = (doc.humanHigh[b]! - doc.humanHigh[a]!) / (b - a);
    sumS += s;
    sumS2 += s * s;
    const len = b - a;
    sumL += len;
    sumL2 += len * len;
    functionWords += functionWord[w]!;
  }
  const nW = Math.max(1, wordCount);
  const meanS = sumS / nW;
  const meanL = sumL / nW;

  // Sentence lengths in words.
  let sumSent = 0;
  let sumSent2 = 0;
  let w = w0;
  const sentences = last - first + 1;
  for (let s = first; s <= last; s++) {
    const sEnd = doc.sentences[s]!.end;
    let k = 0;
    while (w < w1 && starts[w]! < sEnd) {
      w++;
      k++;
    }
    sumSent += k;
    sumSent2 += k * k;
  }
  const meanSent = sumSent / Math.max(1, sentences);

  const deflate = options.deflate ?? true;
  const input = deflate ? Buffer.from(text, 'utf8') : undefined;
  const bits = (dictionary?: Buffer): number => input === undefined ? 0
    : (deflateRawSync(input, dictionary === undefined ? { level: 6 } : { level: 6, dictionary }).length * 8) / chars;
  const deflateHuman = bits(resources.humanDictionary);
  const deflateMachine = bits(resources.machineDictionary);
  const lzOf = (sums: Float64Array): number => sums.length === 0 ? 0 : (sums[end]! - sums[start]!) / chars;
  const lzHuman = lzOf(doc.lzHuman);
  const lzMachine = lzOf(doc.lzMachine);

  let i = 0;
  out[i++] = lmHuman;
  out[i++] = lmHumanLow;
  out[i++] = lmHuman / Math.max(1e-6, lmHumanLow);
  out[i++] = lmMachine;
  out[i++] = lmHuman - lmMachine;
  out[i++] = meanS > 0 ? Math.sqrt(Math.max(0, sumS2 / nW - meanS * meanS)) / meanS : 0;
  out[i++] = bits();
  out[i++] = deflateHuman;
  out[i++] = deflateMachine;
  out[i++] = deflateHuman - deflateMachine;
  out[i++] = meanSent;
  out[i++] = meanSent > 0 ? Math.sqrt(Math.max(0, sumSent2 / sentences - meanSent * meanSent)) / meanSent : 0;
  out[i++] = meanL;
  out[i++] = Math.sqrt(Math.max(0, sumL2 / nW - meanL * meanL));
  const words = ids.subarray(w0, w1);
  out[i++] = movingTypeTokenRatio(words, doc.words.vocabulary);
  out[i++] = functionWords / nW;
  const per100 = 100 / chars;
  out[i++] = count(text, ',') * per100;
  out[i++] = (count(text, ';') + count(text, ':')) * per100;
  out[i++] = count(text, '-') * per100;
  out[i++] = (count(text, '(') + count(text, ')')) * per100;
  out[i++] = (count(text, '"') + count(text, "'")) * per100;
  out[i++] = (count(text, '?') + count(text, '!')) * per100;
  out[i++] = countDigits(text) * per100;
  out[i++] = repeatedTrigrams(words, doc.words.vocabulary);
  out[i++] = lzOf(doc.lzPlain);
  out[i++] = lzHuman;
  out[i++] = lzMachine;
  out[i++] = lzHuman - lzMachine;
  return out;
}

function count(text: string, ch: string): number {
  let n = 0;
  for (let i = text.indexOf(ch); i !== -1; i = text.indexOf(ch, i + 1)) n++;
  return n;
}

function countDigits(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) n++;
  }
  return n;
}

// Mean type-token ratio of every window of MATTR_WINDOW words (Covington & McFall 2010), in one sliding pass over
// word ids (0 .. vocabulary - 1).
function movingTypeTokenRatio(words: Int32Array, vocabulary: number): number {
  if (words.length === 0) return 0;
  const window = Math.min(MATTR_WINDOW, words.length);
  const seen = scratch(vocabulary);
  let types = 0;
  let sum = 0;
  let windows = 0;
  for (let i = 0; i < words.length; i++) {
    const add = words[i]!;
    if (seen[add] === 0) types++;
    seen[add] = seen[add]! + 1;
    if (i >= window) {
      const drop = words[i - window]!;
      seen[drop] = seen[drop]! - 1;
      if (seen[drop] === 0) types--;
    }
    if (i >= window - 1) {
      sum += types / window;
      windows++;
    }
  }
  // Leave the shared counts at zero for the next range.
  for (let i = Math.max(0, words.length - window); i < words.length; i++) seen[words[i]!] = 0;
  return sum / windows;
}

let counts = new Int32Array(0);

// A zeroed count per word id, shared between calls (every caller leaves it zeroed).
function scratch(vocabulary: number): Int32Array {
  if (counts.length < vocabulary) counts = new Int32Array(vocabulary);
  return counts;
}

// Share of word trigrams already seen earlier in the range. Ids are below 2^17 (a 150,000-character text has fewer
// than 75,000 words), so a trigram's key, a base-vocabulary number, stays an exact integer below 2^53.
function repeatedTrigrams(words: Int32Array, vocabulary: number): number {
  if (words.length < 3) return 0;
  const seen = new Set<number>();
  let repeated = 0;
  for (let i = 2; i < words.length; i++) {
    const key = (words[i - 2]! * vocabulary + words[i - 1]!) * vocabulary + words[i]!;
    if (seen.has(key)) repeated++;
    else seen.add(key);
  }
  return repeated / (words.length - 2);
}
