import {
  CAUSALS, COMPARATIVES, FIRST_PERSON, HEDGES, MONTHS, NEGATIONS, OPINIONS, QUANTIFIERS, QUESTION_OPENERS, STATISTIC_CUES,
} from './cueWords.js';
import { extractEntities } from './extractEntities.js';
import { extractNumbers } from './extractNumbers.js';
import { isContentWord } from './stopwords.js';
import { tokenize } from './tokenize.js';
import type { WordVectors } from './wordVectors.js';

/** Names of the hand-made check-worthiness features, in vector order; the mean word vector follows them. */
export const CHECK_WORTHINESS_CUE_FEATURES = [
  'hasNumber', 'numberCount', 'hasYear', 'hasPercentOrMoney', 'hasMonthOrDay', 'entityCount', 'hasEntity',
  'comparatives', 'causals', 'statisticCues', 'hedges', 'opinions', 'firstPerson', 'secondPerson', 'questionMark',
  'questionOpener', 'exclamation', 'negations', 'quantifiers', 'logLength', 'isShort', 'contentRatio',
  'pastTense', 'copula', 'future', 'hasQuote', 'socialMarkup', 'vectorCoverage',
] as const;

/** Length of a check-worthiness feature vector: the cues above plus a 100-d mean word vector. */
export const CHECK_WORTHINESS_FEATURE_COUNT = CHECK_WORTHINESS_CUE_FEATURES.length + 100;

/**
 * Features of one sentence for the check-worthiness model (ClaimBuster-style cues: numbers, dates, names,
 * comparisons, causal and statistical words versus hedges, opinions, questions), followed by the mean GloVe vector of
 * its content words. Computed here only, then dumped for training, so training and inference see the same numbers.
 */
export function checkWorthinessFeatures(sentence: string, vectors: WordVectors): Float32Array {
  const tokens = tokenize(sentence);
  const lowers = tokens.map((t) => t.lower);
  const count = (set: ReadonlySet<string>) => Math.min(3, lowers.filter((w) => set.has(w)).length) / 3;
  const numbers = extractNumbers(tokens);
  const entities = extractEntities(tokens);
  const content = lowers.filter(isContentWord);
  const mean = new Float32Array(100);
  let covered = 0;
  for (const word of content) {
    const vector = vectors.get(word);
    if (!vector) continue;
    covered++;
    for (let d = 0; d < 100; d++) mean[d] = (mean[d] ?? 0) + (vector[d] ?? 0);
  }
  if (covered > 0) for (let d = 0; d < 100; d++) mean[d] = (mean[d] ?? 0) / covered;
  const first = lowers[0] ?? '';
  const cues = [
    numbers.length > 0 ? 1 : 0,
    Math.min(3, numbers.length) / 3,
    numbers.some((n) => n.isYear) ? 1 : 0,
    /[%$€£]|\bpercent\b|\bdollars?\b|\beuros?\b/i.test(sentence) ? 1 : 0,
    lowers.some((w) => MONTHS.has(w) && w !== 'may') ? 1 : 0,
    Math.min(4, entities.length) / 4,
    entities.length > 0 ? 1 : 0,
    count(COMPARATIVES),
    count(CAUSALS),
    count(STATISTIC_CUES),
    count(HEDGES),
    count(OPINIONS),
    count(FIRST_PERSON),
    lowers.some((w) => w === 'you' || w === 'your') ? 1 : 0,
    sentence.trim().endsWith('?') ? 1 : 0,
    QUESTION_OPENERS.has(first) && !sentence.trim().endsWith('.') ? 1 : 0,
    sentence.includes('!') ? 1 : 0,
    count(NEGATIONS),
    count(QUANTIFIERS),
    Math.log1p(tokens.length) / 4,
    tokens.length < 6 ? 1 : 0,
    tokens.length === 0 ? 0 : content.length / tokens.length,
    lowers.some((w) => w === 'was' || w === 'were' || (w.length > 4 && w.endsWith('ed'))) ? 1 : 0,
    lowers.some((w) => ['is', 'are', 'was', 'were', 'has', 'have', 'had'].includes(w)) ? 1 : 0,
    lowers.includes('will') || /\bgoing to\b/i.test(sentence) ? 1 : 0,
    /["“”]/.test(sentence) ? 1 : 0,
    /(^|\s)[@#]\w|https?:\/\//.test(sentence) ? 1 : 0,
    content.length === 0 ? 0 : covered / content.length,
  ];
  const features = new Float32Array(CHECK_WORTHINESS_FEATURE_COUNT);
  features.set(cues, 0);
  features.set(mean, cues.length);
  return features;
}
