// Chooses the verdict thresholds of judgeClaim for one entailment model (minWordOverlap, decisiveProbability =
// partialProbability, refuteVoteBelow, supportVoteFrom, minStanceProbability) by macro F1 over the 4 CLIMATE-FEVER
// labels on the DEV split only (1 claim in 5 by a hash of claim_id, see climateFeverSplit in
// packages/fact-check/training/datasets.mjs); no model is trained on it and evaluate.mjs reports the test split (the
// other 612 claims). Each claim's passages are scored once per minWordOverlap, then every setting is applied with
// decideVerdict. Prints the best 5 settings on dev; the first is the package default (VERDICT_DEFAULTS).
// Run: node scripts/fact-check/chooseThresholds.mjs [2.0|1.x]  (after tsc -b packages/fact-check; ~1 min)
process.env.DOTENV_CONFIG_QUIET = 'true';
import { decideVerdict, EvidenceStore, loadWordVectors, scorePassages } from '../../packages/fact-check/dist/index.js';
import { climateFever, climateFeverSplit, requireFactcheckRoot } from '../../packages/fact-check/training/datasets.mjs';
import { MAP, scores } from './verdictScores.mjs';

const entailmentModel = process.argv[2] ?? '2.0';
const claims = climateFever(requireFactcheckRoot()).filter((c) => climateFeverSplit(c) === 'dev');
const vectors = loadWordVectors();
const retrieved = claims.map((claim) => {
  const store = new EvidenceStore(claim.evidences.map((e) => ({ url: `climate-fever:${e.evidence_id}`, title: e.article, text: e.evidence })));
  return store.search(claim.claim, 5);
});
const range = (from, to, step) => Array.from({ length: Math.round((to - from) / step) + 1 }, (_, i) => Math.round((from + i * step) * 100) / 100);
const results = [];
for (const minWordOverlap of [0.2, 0.34]) {
  const judged = [];
  for (const [i, claim] of claims.entries()) judged.push((await scorePassages(claim.claim, retrieved[i], vectors, { entailmentModel, minWordOverlap })).judged);
  for (const decisive of [0.5, 0.6, 0.7, 0.8, 0.9]) {
    for (const refuteBelow of range(-0.6, 0.2, 0.05)) {
      for (const supportFrom of range(-0.4, 0.4, 0.05)) {
        if (supportFrom <= refuteBelow) continue;
        for (const minStance of [0, 0.2, 0.3, 0.4]) {
          const t = { decisive, partial: decisive, minVotes: 2, refuteBelow, supportFrom, minStance };
          const pairs = claims.map((claim, i) => [claim.claim_label, MAP[judged[i].length === 0 ? 'NOT_ENOUGH_EVIDENCE' : decideVerdict(judged[i], t).verdict]]);
          results.push({ options: { minWordOverlap, decisiveProbability: decisive, refuteVoteBelow: refuteBelow, supportVoteFrom: supportFrom, minStanceProbability: minStance }, ...scores(pairs) });
        }
      }
    }
  }
}
results.sort((a, b) => b.macroF1 - a.macroF1 || b.accuracy - a.accuracy);
console.log(`CLIMATE-FEVER dev split (${claims.length} claims), entailment ${entailmentModel}, best of ${results.length} settings by 4-label macro F1:`);
for (const r of results.slice(0, 5)) console.log(`  macro F1 ${r.macroF1.toFixed(3)}, accuracy ${r.accuracy.toFixed(3)}: ${JSON.stringify(r.options)}`);
