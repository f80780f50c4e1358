// Chooses the verdict thresholds of judgeClaim (minWordOverlap, decisiveProbability, refuteVoteBelow,
// supportVoteFrom) by macro F1 over the 4 CLIMATE-FEVER labels on the DEV split only (1 claim in 5 by a hash of
// claim_id, see climateFeverSplit in packages/fact-check/training/datasets.mjs); the model is not retrained on it
// and evaluate.mjs reports the test split (the other 612 claims). Prints the best 5 settings on dev; the first is the
// package default. Run: node scripts/fact-check/chooseThresholds.mjs  (after tsc -b packages/fact-check; ~1 min)
process.env.DOTENV_CONFIG_QUIET = 'true';
import { EvidenceStore, judgeClaim, loadWordVectors } from '../../packages/fact-check/dist/index.js';
import { climateFever, climateFeverSplit, requireFactcheckRoot } from '../../packages/fact-check/training/datasets.mjs';
import { MAP, scores } from './verdictScores.mjs';

const claims = climateFever(requireFactcheckRoot()).filter((c) => climateFeverSplit(c) === 'dev');
const vectors = loadWordVectors();
const retrieved = claims.map((claim) => {
  const store = new EvidenceStore(claim.evidences.map((e) => ({ url: `climate-fever:${e.evidence_id}`, title: e.article, text: e.evidence })));
  return store.search(claim.claim, 5);
});
const results = [];
for (const minWordOverlap of [0.2, 0.34]) {
  for (const decisiveProbability of [0.5, 0.6, 0.7]) {
    for (const refuteVoteBelow of [-0.45, -0.4, -0.35, -0.3, -0.25, -0.2]) {
      for (const supportVoteFrom of [-0.25, -0.2, -0.15, -0.1, 0]) {
        if (supportVoteFrom <= refuteVoteBelow) continue;
        const options = { minWordOverlap, decisiveProbability, partialProbability: decisiveProbability, refuteVoteBelow, supportVoteFrom };
        const pairs = [];
        for (const [i, claim] of claims.entries()) {
          const judgement = await judgeClaim(claim.claim, retrieved[i], vectors, options);
          pairs.push([claim.claim_label, MAP[judgement.verdict]]);
        }
        results.push({ options, ...scores(pairs) });
      }
    }
  }
}
results.sort((a, b) => b.macroF1 - a.macroF1 || b.accuracy - a.accuracy);
console.log(`CLIMATE-FEVER dev split (${claims.length} claims), best settings by 4-label macro F1:`);
for (const r of results.slice(0, 5)) console.log(`  macro F1 ${r.macroF1.toFixed(3)}, accuracy ${r.accuracy.toFixed(3)}: ${JSON.stringify(r.options)}`);
