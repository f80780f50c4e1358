// Pair-level scores of the entailment models on the fixed test splits of datasets.mjs (never trained on by either
// model): SNLI test 3-way accuracy, FEVER gold-evidence SUPPORTS vs REFUTES accuracy (claims with hash % 5 == 0).
// Used by evaluate.mjs.
import { nliPairs } from '../../packages/fact-check/training/datasets.mjs';

/** [p(entailment), p(neutral), p(contradiction)] per pair from the given build's model `version`. */
export async function pairProbabilities(fc, pairs, version, vectors) {
  const out = [];
  const model = version === '2.0' ? await fc.loadNeuralEntailment() : await fc.loadModel('entailment');
  for (let start = 0; start < pairs.length; start += 64) {
    const chunk = pairs.slice(start, start + 64).map((p) => {
      const premise = p.premise.slice(0, 1500);
      return { premise, hypothesis: p.hypothesis, features: fc.entailmentFeatures(fc.alignPair(p.hypothesis, premise, vectors)) };
    });
    const probabilities = version === '2.0'
      ? await model.run(chunk.map((p) => ({ claimTokens: fc.entailmentTokens(p.hypothesis, vectors), evidenceTokens: fc.entailmentTokens(p.premise, vectors), features: p.features })), vectors)
      : await model.run(chunk.map((p) => p.features), fc.ENTAILMENT_FEATURE_COUNT);
    out.push(...probabilities);
  }
  return out;
}

/** SNLI test and FEVER test pairs. */
export function testPairs(root) {
  const pairs = nliPairs(root).filter((p) => p.split === 'test');
  return { snli: pairs.filter((p) => p.source === 'snli'), fever: pairs.filter((p) => p.source === 'fever') };
}

export const argmax = (p) => (p[0] >= p[1] && p[0] >= p[2] ? 0 : p[1] >= p[2] ? 1 : 2);
