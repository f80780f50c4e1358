import { extractEntities } from './extractEntities.js';
import type { Sentence } from './segmentSentences.js';
import { tokenize } from './tokenize.js';

const SUBJECT_PRONOUN = /^(he|she|it|they|this|these|that|those)\b/i;
const POSSESSIVE = /^(his|her|its|their)\b/i;
const DEMONSTRATIVE_NOUN = /^(this|that) (company|country|city|state|government|group|organi[sz]ation|agency|firm|team|study|report|law|bill|tower|president|minister)\b/i;
const EXPLETIVE = /^(it\s+(is|was)\s+(said|believed|likely|unlikely|possible|clear|important|true|known|estimated|thought)|(this|that|these|those)\s+(is|was|are|were|means|shows))\b/i;
const VERB_NEXT = /^\s+(?:is|was|are|were|has|have|had|will|would|can|could|did|does|do|\w+ed|\w+s)\b/i;

/**
 * Makes a sentence self-contained where simple rules can. A sentence-initial subject pronoun is replaced by the last
 * proper name of the preceding sentences (up to three back; the first name of the nearest sentence that has one,
 * with its article): `He`, `She`, `They` before a lower-case word; `It`, `This`, `These` only before a verb-like
 * word and not in `It is likely ...` or `This is ...` (ideas, not names). A possessive (`Its` -> `<name>'s`) and a
 * `This company`-like phrase are replaced the same way. Discourse openers (`But`, `And`, `However,`, `In fact,`) are
 * dropped. Without a name the sentence is kept as written.
 */
export function resolveClaim(sentence: Sentence, previous: readonly Sentence[]): string {
  let text = sentence.text.replace(/^(?:and|but|so|also|however|moreover|furthermore|in fact|indeed|still),?\s+/i, '');
  text = capitalise(text);
  const antecedent = findAntecedent(previous);
  if (!antecedent) return text;
  const name = capitalise(antecedent);
  const possessive = POSSESSIVE.exec(text);
  if (possessive) return `${name}'s${text.slice(possessive[0].length)}`;
  const phrase = DEMONSTRATIVE_NOUN.exec(text);
  if (phrase) return `${name}${text.slice(phrase[0].length)}`;
  const pronoun = SUBJECT_PRONOUN.exec(text);
  if (!pronoun || EXPLETIVE.test(text)) return text;
  const word = pronoun[1]?.toLowerCase() ?? '';
  const rest = text.slice(pronoun[0].length);
  if (['he', 'she', 'they'].includes(word) && /^\s+\p{Ll}/u.test(rest)) return `${name}${rest}`;
  if (VERB_NEXT.test(rest)) return `${name}${rest}`;
  return text;
}

function findAntecedent(previous: readonly Sentence[]): string | undefined {
  for (let i = previous.length - 1; i >= Math.max(0, previous.length - 3); i--) {
    const sentence = previous[i];
    if (!sentence) continue;
    const tokens = tokenize(sentence.text);
    // The subject is usually the first name of the sentence; keep its article ("the Eiffel Tower").
    const first = extractEntities(tokens)[0];
    if (first) return tokens[first.startToken - 1]?.lower === 'the' ? `the ${first.text}` : first.text;
  }
  return undefined;
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
