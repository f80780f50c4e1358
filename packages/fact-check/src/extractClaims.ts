import { checkWorthinessFeatures, CHECK_WORTHINESS_FEATURE_COUNT } from './checkWorthinessFeatures.js';
import { isFirstPerson, isOpinion, languageCues } from './languageCues.js';
import { loadModel } from './onnxModel.js';
import { resolveClaim } from './resolveClaim.js';
import type { Sentence } from './segmentSentences.js';
import { tokenize } from './tokenize.js';
import type { WordVectors } from './wordVectors.js';

/** A checkable statement taken from one sentence. */
export interface ExtractedClaim {
  /** Id of the sentence it comes from. */
  sentenceId: number;
  sentence: string;
  /** The sentence made self-contained (see `resolveClaim`). */
  claim: string;
  /** Check-worthiness probability, 0..1. */
  checkWorthiness: number;
}

export interface ExtractClaimsOptions {
  /**
   * At most this many claims, best first.
   * @default 12
   */
  maxClaims?: number;
  /**
   * Minimum check-worthiness probability of a claim.
   * @default 0.4
   */
  minCheckWorthiness?: number;
  /**
   * Language of the text (a code of `FACT_CHECK_LANGUAGES`): its opinion and first-person cues decide what is not a
   * claim ({@link languageCues}).
   * @default 'en'
   */
  language?: string;
}

// (see checkWorthiness below for how languages other than English are scored)
const wordSegmenters = new Map<string, Intl.Segmenter>();

/** Words of a sentence: tokens, or for a language written without spaces, ICU's word segments. */
function wordCount(text: string, language: string): number {
  if (!languageCues(language).unspaced) return tokenize(text).length;
  let segmenter = wordSegmenters.get(language);
  if (!segmenter) {
    segmenter = new Intl.Segmenter(language, { granularity: 'word' });
    wordSegmenters.set(language, segmenter);
  }
  let count = 0;
  for (const segment of segmenter.segment(text)) if (segment.isWordLike) count++;
  return count;
}

/**
 * Why a sentence is never a claim, whatever the model says: a question, fewer than 4 words, an opinion or open hedge
 * (`I think`, `vielleicht`, `à mon avis`), or, outside English, the writer speaking of themselves (`Wir besuchen
 * jedes Jahr ...`) without a figure to check. Undefined when it may be one.
 */
export function notAClaim(text: string, language = 'en'): 'question' | 'short' | 'opinion' | 'first-person' | undefined {
  // Greek writes its question mark as U+037E or a plain semicolon.
  const question = language === 'el' ? /[?;\u037e]["'”’)»]*$/u : /[?？؟\u037e]["'”’)»]*$/u;
  if (question.test(text.trim())) return 'question';
  if (wordCount(text, language) < 4) return 'short';
  const lowers = tokenize(text).map((t) => t.lower);
  if (isOpinion(language, lowers, text)) return 'opinion';
  // English keeps the model's judgement of first-person sentences: it weighs first person among its cues, and in
  // English debates 41 of the 136 check-worthy sentences of CLEF 2019's test debates speak in the first person without
  // a figure ("We will ..."). Other languages have only the rule.
  if (language !== 'en' && isFirstPerson(language, lowers, text) && !/\p{N}/u.test(text)) return 'first-person';
  return undefined;
}

/**
 * Picks the sentences that state verifiable facts: questions, sentences of fewer than 4 words, openly hedged or
 * opinion sentences and (outside English) first-person sentences without a figure are never claims
 * ({@link notAClaim}, cues per language); the others are scored by the check-worthiness model and kept above `minCheckWorthiness`, best first, at
 * most `maxClaims`, each made self-contained from its context. A claim that repeats is returned once, with the
 * position of its first occurrence.
 */
export async function extractClaims(
  sentences: readonly Sentence[],
  vectors: WordVectors,
  options: ExtractClaimsOptions = {},
): Promise<ExtractedClaim[]> {
  const maxClaims = options.maxClaims ?? 12;
  const minCheckWorthiness = options.minCheckWorthiness ?? 0.4;
  const language = options.language ?? 'en';
  const candidates = sentences.filter((s) => notAClaim(s.text, language) === undefined);
  const model = await loadModel('checkworthiness');
  const probabilities = await model.run(
    candidates.map((s) => checkWorthinessFeatures(s.text, vectors)),
    CHECK_WORTHINESS_FEATURE_COUNT,
  );
  const kept = candidates
    .map((sentence, i) => ({ sentence, score: checkWorthiness(probabilities[i]?.[1] ?? 0, sentence.text, language) }))
    .filter((c) => c.score >= minCheckWorthiness)
    .map(({ sentence, score }) => ({
      sentenceId: sentence.id,
      sentence: sentence.text,
      claim: resolveClaim(sentence, sentences.filter((s) => s.id < sentence.id)),
      checkWorthiness: score,
    }));
  return firstOccurrences(kept)
    .sort((a, b) => b.checkWorthiness - a.checkWorthiness || a.sentenceId - b.sentenceId)
    .slice(0, maxClaims);
}

/**
 * The model's probability; outside English, at least {@link FIGURE_FLOOR} for a sentence that states a figure or a
 * date in digits: the model was trained on English sentences and reads other languages through English word vectors
 * (most of their words unknown), so there a stated figure is the surest sign of a checkable claim.
 */
function checkWorthiness(probability: number, text: string, language: string): number {
  if (language === 'en' || !/\p{Nd}/u.test(text)) return probability;
  return Math.max(probability, FIGURE_FLOOR);
}

/** The check-worthiness of a non-English sentence with a figure, above the 0.4 default of `minCheckWorthiness`. */
const FIGURE_FLOOR = 0.5;

/**
 * The same statement compared regardless of case, spacing and final punctuation. The end is trimmed by a loop:
 * `/[\s.!;:]+$/u` rescans every run of those characters (3.5 s on 40,000 characters of `. . .`).
 */
export function claimKey(claim: string): string {
  const spaced = claim.toLowerCase().replace(/\s+/g, ' ');
  let end = spaced.length;
  while (end > 0 && ' .!;:'.includes(spaced[end - 1]!)) end -= 1;
  return spaced.slice(0, end).trim();
}

/**
 * One claim per statement: a text that repeats a sentence (or restates one that resolves to the same claim) is
 * checked once, at the sentence where the claim first appears.
 */
function firstOccurrences(claims: ExtractedClaim[]): ExtractedClaim[] {
  const first = new Map<string, ExtractedClaim>();
  for (const claim of claims) {
    const key = claimKey(claim.claim);
    const seen = first.get(key);
    if (!seen || claim.sentenceId < seen.sentenceId) first.set(key, claim);
  }
  return [...first.values()];
}
