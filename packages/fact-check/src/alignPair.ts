import { NEGATIONS } from './cueWords.js';
import { extractEntities } from './extractEntities.js';
import { extractNumbers, sameQuantity } from './extractNumbers.js';
import { stem } from './stem.js';
import { isContentWord } from './stopwords.js';
import { tokenize } from './tokenize.js';
import { cosine, type WordVectors } from './wordVectors.js';
import { wordNetRelations } from './wordNetRelations.js';
import { scopedNegationMismatches } from './negationScope.js';
import { isNegated, languageCues } from './languageCues.js';

/** What a claim and an evidence passage share and where they differ; feeds both the features and the explanation. */
export interface Alignment {
  /** Content words of the claim, lower-cased. */
  claimWords: string[];
  /** Claim content words found (by stem) in the evidence. */
  matchedWords: string[];
  /** Claim content words whose nearest evidence word (by vector) is a different word: a possible substitution. */
  substitutions: Array<{ claim: string; evidence: string; similarity: number }>;
  /** Claim content words with nothing similar in the evidence. */
  unalignedWords: string[];
  /** Per claim content word, its best similarity to an evidence word (1 for a stem match). */
  bestSimilarities: number[];
  /** Fraction of evidence content words found in the claim. */
  evidenceCoverage: number;
  /** Fraction of claim word bigrams found in the evidence. */
  bigramOverlap: number;
  /** Cosine of the mean word vectors. */
  sentenceSimilarity: number;
  claimNumbers: number[];
  evidenceNumbers: number[];
  matchedNumbers: number[];
  /** Claim numbers absent from an evidence that states numbers. */
  mismatchedNumbers: number[];
  claimYears: number[];
  mismatchedYears: number[];
  claimEntities: string[];
  matchedEntities: string[];
  missingEntities: string[];
  claimNegated: boolean;
  evidenceNegated: boolean;
  /** Opposite comparison words (`more` / `less`, `rise` / `fall`) between claim and evidence. */
  oppositeComparisons: Array<[string, string]>;
  claimLength: number;
  evidenceLength: number;
  /** Unmatched claim words with a WordNet antonym among the evidence words (`warming` / `cooling`). */
  antonyms: Array<[string, string]>;
  /** Unmatched claim words sharing a WordNet synset with an evidence word. */
  synonymWords: string[];
  /** Unmatched claim words that name a WordNet hypernym of an evidence word (`tree` for `oak`): entailed. */
  generalisedWords: string[];
  /** Unmatched claim words that are more specific than an evidence word (`oak` for `tree`): not entailed. */
  specialisedWords: string[];
  /** Matched claim words negated (a cue in their clause) on one side only. */
  scopedNegationMismatches: string[];
  /** The claim says `all` / `every` / `always` and the evidence `some` / `most` / `often`, or the reverse. */
  quantifierMismatch: boolean;
  claimHedged: boolean;
  evidenceHedged: boolean;
  /** Claim numbers within 10% of an evidence number but not equal to it (`about 3 million` vs `3.2 million`). */
  approximateNumbers: number[];
  /** Claim numbers found in the evidence with a different unit (`3 percent` vs `3 million`). */
  unitMismatches: number[];
}

const OPPOSITES: ReadonlyArray<[string, string]> = [
  ['more', 'less'], ['more', 'fewer'], ['higher', 'lower'], ['larger', 'smaller'], ['bigger', 'smaller'],
  ['increase', 'decrease'], ['increased', 'decreased'], ['increases', 'decreases'], ['rise', 'fall'], ['rose', 'fell'],
  ['most', 'least'], ['largest', 'smallest'], ['highest', 'lowest'], ['warmer', 'cooler'], ['warming', 'cooling'],
  ['before', 'after'], ['above', 'below'], ['gain', 'loss'], ['growth', 'decline'], ['grew', 'shrank'],
];

const SUBSTITUTION_MIN = 0.5;

const UNIVERSAL = new Set(['all', 'every', 'always', 'entire', 'entirely', 'whole', 'completely', 'only', 'solely', 'everywhere']);
const PARTIAL = new Set(['some', 'most', 'many', 'several', 'few', 'often', 'sometimes', 'partly', 'partially', 'part', 'mostly', 'largely', 'majority', 'minority', 'certain', 'parts']);
const HEDGE_WORDS = new Set([
  'may', 'might', 'could', 'possibly', 'perhaps', 'likely', 'unlikely', 'probably', 'suggest', 'suggests', 'suggested',
  'uncertain', 'unclear', 'debate', 'debated', 'controversial', 'claim', 'claims', 'claimed', 'argue', 'argued',
  'hypothesis', 'projected', 'predicted', 'expected', 'estimated', 'potentially', 'appear', 'appears',
]);
const UNITS = new Set([
  '%', 'percent', 'per', 'cent', 'degrees', 'degree', 'c', 'f', '°c', '°f', 'celsius', 'fahrenheit', 'ppm', 'ppb',
  'metres', 'meters', 'metre', 'meter', 'm', 'km', 'kilometres', 'kilometers', 'miles', 'feet', 'ft', 'inches', 'cm',
  'mm', 'tons', 'tonnes', 'gigatons', 'gigatonnes', 'gt', 'years', 'year', 'decades', 'centuries', 'days', 'months',
  'people', 'species', 'times', 'fold', 'kg', 'watts', 'w', 'gw', 'mw', 'twh', 'dollars', 'usd',
]);

const negationSets = new Map<string, ReadonlySet<string>>();

/** The negation tokens of a language: English keeps the list the entailment models were trained with. */
function negationsOf(language: string): ReadonlySet<string> {
  if (language === 'en') return NEGATIONS;
  let set = negationSets.get(language);
  if (!set) {
    set = new Set(languageCues(language).negations);
    negationSets.set(language, set);
  }
  return set;
}

/**
 * Aligns a claim with one evidence passage: words, numbers, years, names, negation and comparisons. `language` (a
 * code of `FACT_CHECK_LANGUAGES`, @default 'en') chooses the negation cues ({@link languageCues}); numbers, years
 * and names are read the same way in every language.
 */
export function alignPair(claim: string, evidence: string, vectors: WordVectors, language = 'en'): Alignment {
  const negations = negationsOf(language);
  const unspaced = languageCues(language).unspaced === true;
  const negatedText = (text: string, tokens: ReturnType<typeof tokenize>) =>
    language === 'en' ? tokens.some((t) => NEGATIONS.has(t.lower)) : isNegated(language, tokens.map((t) => t.lower), text);
  const claimTokens = tokenize(claim);
  const evidenceTokens = tokenize(evidence);
  const claimWords = claimTokens.map((t) => t.lower).filter(isContentWord);
  const evidenceWords = evidenceTokens.map((t) => t.lower).filter(isContentWord);
  const evidenceStems = new Set(evidenceWords.map(stem));
  const claimStems = new Set(claimWords.map(stem));
  const evidenceVectors = evidenceWords.map((w) => [w, vectors.get(w)] as const);

  const matchedWords: string[] = [];
  const substitutions: Alignment['substitutions'] = [];
  const unalignedWords: string[] = [];
  const bestSimilarities: number[] = [];
  for (const word of claimWords) {
    if (evidenceStems.has(stem(word))) {
      matchedWords.push(word);
      bestSimilarities.push(1);
      continue;
    }
    const vector = vectors.get(word);
    let best = 0;
    let bestWord = '';
    if (vector) {
      for (const [other, otherVector] of evidenceVectors) {
        if (!otherVector) continue;
        const similarity = cosine(vector, otherVector);
        if (similarity > best) {
          best = similarity;
          bestWord = other;
        }
      }
    }
    bestSimilarities.push(best);
    if (best >= SUBSTITUTION_MIN) substitutions.push({ claim: word, evidence: bestWord, similarity: best });
    else unalignedWords.push(word);
  }

  const claimBigrams = bigrams(claimTokens.map((t) => stem(t.lower)));
  const evidenceBigrams = new Set(bigrams(evidenceTokens.map((t) => stem(t.lower))));
  const claimQuantities = extractNumbers(claimTokens);
  const evidenceQuantities = extractNumbers(evidenceTokens);
  const evidenceNumbers = evidenceQuantities.map((q) => q.value);
  const found = (value: number) => evidenceNumbers.some((other) => sameQuantity(value, other));
  // Years must match exactly: 1889 is not 1887.
  const foundYear = (value: number) => evidenceNumbers.includes(value);
  const claimNumbers = claimQuantities.filter((q) => !q.isYear).map((q) => q.value);
  const claimYears = claimQuantities.filter((q) => q.isYear).map((q) => q.value);
  const evidenceHasYears = evidenceQuantities.some((q) => q.isYear);
  const evidenceHasNumbers = evidenceQuantities.some((q) => !q.isYear);

  const evidenceLower = new Set(evidenceTokens.map((t) => t.lower));
  const claimEntities = extractEntities(claimTokens);
  const matchedEntities = claimEntities.filter((e) => e.words.some((w) => evidenceLower.has(w))).map((e) => e.text);
  const missingEntities = claimEntities.map((e) => e.text).filter((name) => !matchedEntities.includes(name));

  const claimLower = new Set(claimTokens.map((t) => t.lower));
  const oppositeComparisons = OPPOSITES.flatMap(([a, b]): Array<[string, string]> => {
    if (claimLower.has(a) && evidenceLower.has(b) && !evidenceLower.has(a)) return [[a, b]];
    if (claimLower.has(b) && evidenceLower.has(a) && !evidenceLower.has(b)) return [[b, a]];
    return [];
  });

  const wordNet = wordNetRelations();
  const evidenceSet = [...new Set(evidenceWords)];
  const antonyms: Array<[string, string]> = [];
  const synonymWords: string[] = [];
  const generalisedWords: string[] = [];
  const specialisedWords: string[] = [];
  for (const word of claimWords) {
    if (evidenceStems.has(stem(word)) || /^\p{N}/u.test(word)) continue;
    const antonym = evidenceSet.find((other) => !claimStems.has(stem(other)) && wordNet.antonyms(word, other));
    if (antonym !== undefined) antonyms.push([word, antonym]);
    if (evidenceSet.some((other) => wordNet.synonyms(word, other))) synonymWords.push(word);
    else if (evidenceSet.some((other) => wordNet.hypernymOf(word, other))) generalisedWords.push(word);
    else if (evidenceSet.some((other) => wordNet.hypernymOf(other, word))) specialisedWords.push(word);
  }
  const claimUniversal = claimTokens.some((t) => UNIVERSAL.has(t.lower));
  const claimPartial = claimTokens.some((t) => PARTIAL.has(t.lower));
  const evidenceUniversal = evidenceTokens.some((t) => UNIVERSAL.has(t.lower));
  const evidencePartial = evidenceTokens.some((t) => PARTIAL.has(t.lower));
  const unitOf = (tokens: typeof claimTokens, index: number) => {
    const token = tokens[index];
    if (token?.lower.endsWith('%')) return '%';
    const next = tokens[index + 1]?.lower ?? '';
    return UNITS.has(next) ? (next === 'per' || next === 'cent' || next === 'percent' ? '%' : stem(next)) : '';
  };
  const approximateNumbers: number[] = [];
  const unitMismatches: number[] = [];
  for (const q of claimQuantities) {
    if (q.isYear) continue;
    const exact = evidenceQuantities.filter((e) => !e.isYear && sameQuantity(q.value, e.value));
    if (exact.length === 0) {
      if (evidenceQuantities.some((e) => !e.isYear && sameQuantity(q.value, e.value, 0.1))) approximateNumbers.push(q.value);
      continue;
    }
    const claimUnit = unitOf(claimTokens, q.token);
    if (claimUnit !== '' && exact.every((e) => {
      const unit = unitOf(evidenceTokens, e.token);
      return unit !== '' && unit !== claimUnit;
    })) unitMismatches.push(q.value);
  }

  return {
    antonyms,
    synonymWords,
    generalisedWords,
    specialisedWords,
    scopedNegationMismatches: unspaced ? [] : scopedNegationMismatches(claim, claimTokens, evidence, evidenceTokens, negations),
    quantifierMismatch: (claimUniversal && evidencePartial && !evidenceUniversal) || (claimPartial && evidenceUniversal && !evidencePartial),
    claimHedged: claimTokens.some((t) => HEDGE_WORDS.has(t.lower)),
    evidenceHedged: evidenceTokens.some((t) => HEDGE_WORDS.has(t.lower)),
    approximateNumbers,
    unitMismatches,
    claimWords,
    matchedWords,
    substitutions,
    unalignedWords,
    bestSimilarities,
    evidenceCoverage: evidenceWords.length === 0 ? 0 : evidenceWords.filter((w) => claimStems.has(stem(w))).length / evidenceWords.length,
    bigramOverlap: claimBigrams.length === 0 ? 0 : claimBigrams.filter((b) => evidenceBigrams.has(b)).length / claimBigrams.length,
    sentenceSimilarity: meanVectorCosine(claimWords, evidenceWords, vectors),
    claimNumbers,
    evidenceNumbers,
    matchedNumbers: claimNumbers.filter(found),
    mismatchedNumbers: evidenceHasNumbers ? claimNumbers.filter((v) => !found(v)) : [],
    claimYears,
    mismatchedYears: evidenceHasYears ? claimYears.filter((v) => !foundYear(v)) : [],
    claimEntities: claimEntities.map((e) => e.text),
    matchedEntities,
    missingEntities,
    claimNegated: negatedText(claim, claimTokens),
    evidenceNegated: negatedText(evidence, evidenceTokens),
    oppositeComparisons,
    claimLength: claimTokens.length,
    evidenceLength: evidenceTokens.length,
  };
}

function bigrams(words: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 1; i < words.length; i++) out.push(`${words[i - 1]} ${words[i]}`);
  return out;
}

function meanVectorCosine(a: readonly string[], b: readonly string[], vectors: WordVectors): number {
  const mean = (words: readonly string[]) => {
    const sum = new Float32Array(vectors.dimensions);
    for (const word of words) {
      const vector = vectors.get(word);
      if (vector) for (let d = 0; d < sum.length; d++) sum[d] = (sum[d] ?? 0) + (vector[d] ?? 0);
    }
    return sum;
  };
  return cosine(mean(a), mean(b));
}
