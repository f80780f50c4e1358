import { deflateRawSync } from 'node:zlib';
import { FEATURE_NAMES } from './featureNames.js';
import { FUNCTION_WORDS } from './functionWords.js';
import type { FeatureResources, PreparedDocument } from './prepareDocument.js';

const MATTR_WINDOW = 50;

/**
 * The feature vector (in `FEATURE_NAMES` order) of sentences `first` to `last` (inclusive) of a prepared document.
 * Pure apart from deflate; linear in the length of the range.
 */
export function rangeFeatures(doc: PreparedDocument, first: number, last: number, resources: FeatureResources): Float32Array {
  const out = new Float32Array(FEATURE_NAMES.length);
  const start = doc.sentences[first]?.start ?? 0;
  const end = doc.sentences[last]?.end ?? 0;
  const chars = Math.max(1, end - start);
  const text = doc.canonical.slice(start, end);

  const lmHuman = (doc.humanHigh[end]! - doc.humanHigh[start]!) / chars;
  const lmHumanLow = (doc.humanLow[end]! - doc.humanLow[start]!) / chars;
  const lmMachine = (doc.machineHigh[end]! - doc.machineHigh[start]!) / chars;

  const { starts, ends } = doc.words;
  const w0 = lowerBound(starts, doc.words.count, start);
  const w1 = lowerBound(starts, doc.words.count, end);
  const wordCount = Math.max(0, w1 - w0);

  // Per-word mean surprisal and word lengths.
  let sumS = 0;
  let sumS2 = 0;
  let sumL = 0;
  let sumL2 = 0;
  let functionWords = 0;
  const words: string[] = new Array(wordCount);
  for (let w = w0; w < w1; w++) {
    const a = starts[w]!;
    const b = ends[w]!;
    const s = (doc.humanHigh[b]! - doc.humanHigh[a]!) / (b - a);
    sumS += s;
    sumS2 += s * s;
    const len = b - a;
    sumL += len;
    sumL2 += len * len;
    const word = doc.canonical.slice(a, b);
    words[w - w0] = word;
    if (FUNCTION_WORDS.has(word)) functionWords++;
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

  const input = Buffer.from(text, 'utf8');
  const bits = (dictionary?: Buffer): number =>
    (deflateRawSync(input, dictionary === undefined ? { level: 6 } : { level: 6, dictionary }).length * 8) / chars;
  const deflateHuman = bits(resources.humanDictionary);
  const deflateMachine = bits(resources.machineDictionary);

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
  out[i++] = movingTypeTokenRatio(words);
  out[i++] = functionWords / nW;
  const per100 = 100 / chars;
  out[i++] = count(text, ',') * per100;
  out[i++] = (count(text, ';') + count(text, ':')) * per100;
  out[i++] = count(text, '-') * per100;
  out[i++] = (count(text, '(') + count(text, ')')) * per100;
  out[i++] = (count(text, '"') + count(text, "'")) * per100;
  out[i++] = (count(text, '?') + count(text, '!')) * per100;
  out[i++] = countDigits(text) * per100;
  out[i++] = repeatedTrigrams(words);
  return out;
}

function lowerBound(values: Int32Array, length: number, target: number): number {
  let lo = 0;
  let hi = length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (values[mid]! < target) lo = mid + 1;
    else hi = mid;
  }
  return lo;
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

// Mean type-token ratio of every window of MATTR_WINDOW words (Covington & McFall 2010), in one sliding pass.
function movingTypeTokenRatio(words: string[]): number {
  if (words.length === 0) return 0;
  const window = Math.min(MATTR_WINDOW, words.length);
  const seen = new Map<string, number>();
  let types = 0;
  let sum = 0;
  let windows = 0;
  for (let i = 0; i < words.length; i++) {
    const add = words[i]!;
    const n = seen.get(add) ?? 0;
    if (n === 0) types++;
    seen.set(add, n + 1);
    if (i >= window) {
      const drop = words[i - window]!;
      const m = seen.get(drop)!;
      if (m === 1) types--;
      seen.set(drop, m - 1);
    }
    if (i >= window - 1) {
      sum += types / window;
      windows++;
    }
  }
  return sum / windows;
}

function repeatedTrigrams(words: string[]): number {
  if (words.length < 3) return 0;
  const seen = new Set<string>();
  let repeated = 0;
  for (let i = 2; i < words.length; i++) {
    const key = `${words[i - 2]} ${words[i - 1]} ${words[i]}`;
    if (seen.has(key)) repeated++;
    else seen.add(key);
  }
  return repeated / (words.length - 2);
}
