import { canonicalText } from './canonicalText.js';
import type { CharNgramModel } from './charNgramModel.js';
import { splitSentences } from './splitSentences.js';
import { wordSpansOf } from './words.js';
import type { WordSpans } from './words.js';

/** The resources features are computed against: two language models and two compression dictionaries. */
export interface FeatureResources {
  /** Character model counted on human text. */
  humanLm: CharNgramModel;
  /** Character model counted on machine text. */
  machineLm: CharNgramModel;
  /** Preset deflate dictionary of human text (at most 32 KiB). */
  humanDictionary: Buffer;
  /** Preset deflate dictionary of machine text (at most 32 KiB). */
  machineDictionary: Buffer;
}

/** A sentence of the input: its text and its range in the canonical text. */
export interface PreparedSentence {
  /** The sentence as cut from the normalised input. */
  text: string;
  start: number;
  end: number;
}

/** Everything computed once per document; features of any range of sentences are read from it. */
export interface PreparedDocument {
  /** Canonical text (`canonicalText` of each sentence, joined by one space). */
  canonical: string;
  sentences: PreparedSentence[];
  words: WordSpans;
  /** Prefix sums (length + 1) of per-character surprisal: human model full order, order 2, machine model. */
  humanHigh: Float64Array;
  humanLow: Float64Array;
  machineHigh: Float64Array;
}

/** Cuts a normalised text into sentences, builds its canonical form and runs both language models once. */
export function prepareDocument(text: string, resources: FeatureResources): PreparedDocument {
  const sentences: PreparedSentence[] = [];
  const parts: string[] = [];
  let offset = 0;
  for (const span of splitSentences(text)) {
    const original = text.slice(span.start, span.end);
    const canonical = canonicalText(original);
    if (canonical.length === 0) continue;
    if (parts.length > 0) offset += 1;
    sentences.push({ text: original, start: offset, end: offset + canonical.length });
    parts.push(canonical);
    offset += canonical.length;
  }
  const canonical = parts.join(' ');
  const human = resources.humanLm.surprisal(canonical);
  const machine = resources.machineLm.surprisal(canonical);
  return {
    canonical,
    sentences,
    words: wordSpansOf(canonical),
    humanHigh: prefixSum(human.high),
    humanLow: prefixSum(human.low),
    machineHigh: prefixSum(machine.high),
  };
}

function prefixSum(values: Float32Array): Float64Array {
  const sums = new Float64Array(values.length + 1);
  for (let i = 0; i < values.length; i++) sums[i + 1] = sums[i]! + values[i]!;
  return sums;
}
