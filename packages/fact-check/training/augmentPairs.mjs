// Label-preserving augmentation for the neural entailment model's training set (training rows only). Each rule
// edits the hypothesis (claim) of an entailed pair so that the premise now contradicts it:
// - negation: `is` -> `is not` (first auxiliary of the claim; `not` removed where the claim has one);
// - number: a number the premise also states is changed (years by 1-9, other numbers scaled), FEVER / SNLI style;
// - antonym: a word the premise also uses is swapped for its opposite from a short list of clear pairs.
// Deterministic: the choice of variant depends only on a hash of the text.
import { hash } from './datasets.mjs';

const AUXILIARIES = /\b(is|was|are|were|has|have|had|can|will|did|does|do)\b/i;
const NEGATED = /\b(is|was|are|were|has|have|had|can|will|did|does|do) not\b/i;
const ANTONYMS = [
  ['increase', 'decrease'], ['increased', 'decreased'], ['increases', 'decreases'], ['more', 'less'], ['larger', 'smaller'],
  ['largest', 'smallest'], ['large', 'small'], ['higher', 'lower'], ['highest', 'lowest'], ['rise', 'fall'], ['rose', 'fell'],
  ['before', 'after'], ['first', 'last'], ['male', 'female'], ['man', 'woman'], ['men', 'women'], ['boy', 'girl'],
  ['won', 'lost'], ['win', 'lose'], ['older', 'younger'], ['oldest', 'youngest'], ['north', 'south'], ['east', 'west'],
  ['northern', 'southern'], ['eastern', 'western'], ['warmer', 'cooler'], ['warming', 'cooling'], ['hot', 'cold'],
  ['early', 'late'], ['earlier', 'later'], ['inside', 'outside'], ['indoors', 'outdoors'], ['open', 'closed'],
  ['up', 'down'], ['sitting', 'standing'], ['asleep', 'awake'], ['empty', 'full'], ['alive', 'dead'], ['born', 'died'],
  ['public', 'private'], ['success', 'failure'], ['successful', 'unsuccessful'], ['positive', 'negative'],
  ['always', 'never'], ['all', 'none'], ['many', 'few'], ['wet', 'dry'], ['day', 'night'], ['black', 'white'],
];
const OPPOSITE = new Map(ANTONYMS.flatMap(([a, b]) => [[a, b], [b, a]]));

function negate(claim) {
  if (NEGATED.test(claim)) return claim.replace(NEGATED, (_, aux) => aux);
  if (!AUXILIARIES.test(claim)) return null;
  return claim.replace(AUXILIARIES, (aux) => `${aux} not`);
}

function changeNumber(claim, premise) {
  const match = [...claim.matchAll(/\b\d[\d,]*(\.\d+)?\b/g)].find((m) => premise.includes(m[0]));
  if (!match) return null;
  const text = match[0];
  const value = Number(text.replace(/,/g, ''));
  if (!Number.isFinite(value)) return null;
  const h = hash(claim);
  let changed;
  if (/^(1[5-9]|20)\d\d$/.test(text)) changed = String(value + ((h % 2) ? 1 : -1) * (1 + (h % 9)));
  else if (value < 10 && Number.isInteger(value)) changed = String(value + 1 + (h % 3));
  else changed = String(Math.round(value * [2, 3, 0.5, 10][h % 4] * 100) / 100);
  if (changed === text) return null;
  return claim.slice(0, match.index) + changed + claim.slice(match.index + text.length);
}

function swapAntonym(claim, premise) {
  const premiseWords = new Set(premise.toLowerCase().match(/[a-z]+/g) ?? []);
  for (const m of claim.matchAll(/[A-Za-z]+/g)) {
    const word = m[0].toLowerCase();
    const opposite = OPPOSITE.get(word);
    if (opposite && premiseWords.has(word) && !premiseWords.has(opposite)) {
      return claim.slice(0, m.index) + opposite + claim.slice(m.index + m[0].length);
    }
  }
  return null;
}

/** Contradiction pairs `{...pair, source: 'augment_<rule>', hypothesis, label: 2}` from entailed training pairs. */
export function augmentPairs(pairs) {
  const out = [];
  for (const pair of pairs) {
    if (pair.label !== 0 || pair.split === 'test' || pair.source === 'fever_self') continue;
    // About one entailed pair in three, so that the edits do not outweigh the data they come from.
    if (hash(`augment:${pair.premise}:${pair.hypothesis}`) % 3 !== 0) continue;
    const edits = [
      ['augment_negation', negate(pair.hypothesis)],
      ['augment_number', changeNumber(pair.hypothesis, pair.premise)],
      ['augment_antonym', swapAntonym(pair.hypothesis, pair.premise)],
    ].filter(([, text]) => text !== null && text !== pair.hypothesis);
    if (edits.length === 0) continue;
    // One edit per pair, so that no claim contributes several near-copies.
    const [source, hypothesis] = edits[hash(pair.hypothesis) % edits.length];
    out.push({ ...pair, source, hypothesis, label: 2, origin: pair.source });
  }
  return out;
}
