import { canonicalText } from './canonicalText.js';
import type { CharNgramModel } from './charNgramModel.js';
import { compressionCosts } from './compressionProfile.js';
import type { CompressionReference } from './compressionProfile.js';
import { splitSentences } from './splitSentences.js';
import { FUNCTION_WORDS } from './functionWords.js';
import { wordSpansOf } from './words.js';
import type { WordSpans } from './words.js';

/** The words of a document: spans, and per word an id (equal words, equal ids) and whether it is a function word. */
export interface DocumentWords extends WordSpans {
  ids: Int32Array;
  functionWord: Uint8Array;
  /** Number of distinct words (ids are 0 .. vocabulary - 1). */
  vocabulary: number;
}

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
  /** LZ77 references of the compression profile: no text (literal code of the human text), human, machine text. */
  plainReference: CompressionReference;
  humanReference: CompressionReference;
  machineReference: CompressionReference;
}

/** Options of `prepareDocument`. */
export interface PrepareDocumentOptions {
  /**
   * Also compute the compression profiles (the `lz_*` features); models that do not use them can skip the work.
   * @default true
   */
  compression?: boolean;
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
  words: DocumentWords;
  /** Prefix sums (length + 1) of per-character surprisal: human model full order, order 2, machine model. */
  humanHigh: Float64Array;
  humanLow: Float64Array;
  machineHigh: Float64Array;
  /**
   * Prefix sums (length + 1) of per-character LZ77 bits against the text alone, the human and the machine
   * reference; empty when not asked for.
   */
  lzPlain: Float64Array;
  lzHuman: Float64Array;
  lzMachine: Float64Array;
}

/**
 * Cuts a normalised text into sentences and builds its canonical form: `canonicalText` of each sentence, joined by
 * one space; each sentence keeps its range in the canonical text.
 */
export function canonicalSentences(text: string): { canonical: string; sentences: PreparedSentence[] } {
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
  return { canonical: parts.join(' '), sentences };
}

/** Cuts a normalised text into sentences, builds its canonical form and runs both language models once. */
export function prepareDocument(text: string, resources: FeatureResources, options: PrepareDocumentOptions = {}): PreparedDocument {
  const { canonical, sentences } = canonicalSentences(text);
  const human = resources.humanLm.surprisal(canonical);
  const machine = resources.machineLm.surprisal(canonical);
  const compression = options.compression ?? true;
  const lz = (reference: CompressionReference): Float64Array =>
    compression ? prefixSum(compressionCosts(canonical, reference)) : new Float64Array(0);
  return {
    canonical,
    sentences,
    words: documentWords(canonical),
    humanHigh: prefixSum(human.high),
    humanLow: prefixSum(human.low),
    machineHigh: prefixSum(machine.high),
    lzPlain: lz(resources.plainReference),
    lzHuman: lz(resources.humanReference),
    lzMachine: lz(resources.machineReference),
  };
}

// Interns the words once, so statistics of many overlapping ranges compare integers instead of strings.
function documentWords(canonical: string): DocumentWords {
  const spans = wordSpansOf(canonical);
  const ids = new Int32Array(spans.count);
  const functionWord = new Uint8Array(spans.count);
  const seen = new Map<string, number>();
  for (let w = 0; w < spans.count; w++) {
    const word = canonical.slice(spans.starts[w]!, spans.ends[w]!);
    let id = seen.get(word);
    if (id === undefined) {
      id = seen.size;
      seen.set(word, id);
    }
    ids[w] = id;
    functionWord[w] = FUNCTION_WORDS.has(word) ? 1 : 0;
  }
  return { ...spans, ids, functionWord, vocabulary: seen.size };
}

function prefixSum(values: Float32Array): Float64Array {
  const sums = new Float64Array(values.length + 1);
  for (let i = 0; i < values.length; i++) sums[i + 1] = sums[i]! + values[i]!;
  return sums;
}
