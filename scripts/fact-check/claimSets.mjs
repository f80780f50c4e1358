// Labelled claim sets for the verdicts of @content-analysis/fact-check, each claim with its evidence passages and a
// gold label in SUPPORTS / REFUTES / NOT_ENOUGH_INFO / DISPUTED. Shared by calibrateVerdicts.mjs (calibration parts
// only) and evaluate.mjs (held-apart parts only); the parts never overlap:
// - CLIMATE-FEVER (climate): the dev split (hash of claim_id % 5 == 0, 156 claims) calibrates, the test split (612)
//   evaluates; each claim is judged against its 5 evidence sentences.
// - FEVER (Wikipedia): the claims of the entailment models' FEVER test split (hash(claim) % 5 == 0, never trained on),
//   each with its gold evidence (SUPPORTS / REFUTES) and, as a NOT_ENOUGH_INFO item, with the best BM25 passage among
//   the other claims' evidence (feverNeutralPairs, as in the FEVER paper's NEI baseline). A second hash of the claim
//   puts half of the claims in calibration and half in evaluation (all items of one claim on the same side).
// - SNLI test, Breaking NLI test split, ConjNLI dev (captions and crafted pairs): evaluation only, the hypothesis as the
//   claim and the premise as its evidence (entailment -> SUPPORTS, contradiction -> REFUTES, neutral -> NOT_ENOUGH_INFO).
// - RTE dev (news): evaluation only, 2 labels (entailment -> SUPPORTS, not entailment -> NOT_SUPPORTS).
import { climateFever, climateFeverSplit, hash, nliPairs } from '../../packages/fact-check/training/datasets.mjs';
import { feverNeutralPairs } from '../../packages/fact-check/training/feverNeutralPairs.mjs';

const NLI_LABEL = ['SUPPORTS', 'NOT_ENOUGH_INFO', 'REFUTES'];

/** The FEVER half a claim belongs to: calibration or evaluation. */
export const feverHalf = (claim) => (hash(`verdict-calibration:${claim}`) % 2 === 0 ? 'calibration' : 'evaluation');

/** Items {claim, documents: [{url, title, text}], label} of every set, by name, for `part` 'calibration' | 'evaluation'. */
export function claimSets(root, part) {
  const sets = {};
  const climate = climateFever(root).filter((c) => (climateFeverSplit(c) === 'dev') === (part === 'calibration'));
  sets.climate = climate.map((c) => ({
    claim: c.claim,
    documents: c.evidences.map((e) => ({ url: `climate-fever:${e.evidence_id}`, title: e.article, text: e.evidence })),
    label: c.claim_label,
  }));
  const pairs = nliPairs(root);
  const feverTest = pairs.filter((p) => p.source === 'fever' && p.split === 'test');
  const neutral = feverNeutralPairs(pairs).filter((p) => p.split === 'test');
  sets.fever = [...feverTest, ...neutral]
    .filter((p) => feverHalf(p.hypothesis) === part)
    .map((p, i) => ({ claim: p.hypothesis, documents: [{ url: `fever:${i}`, title: '', text: p.premise.slice(0, 1500) }], label: NLI_LABEL[p.label] }));
  if (part === 'evaluation') {
    const asItems = (rows, name) => rows.map((p, i) => ({ claim: p.hypothesis, documents: [{ url: `${name}:${i}`, title: '', text: p.premise.slice(0, 1500) }], label: p.label === -1 ? 'NOT_SUPPORTS' : NLI_LABEL[p.label] }));
    sets.snli = asItems(pairs.filter((p) => p.source === 'snli' && p.split === 'test'), 'snli');
    sets.breaking_nli = asItems(pairs.filter((p) => p.source === 'breaking_nli' && p.split === 'test'), 'breaking_nli');
    sets.conjnli = asItems(pairs.filter((p) => p.source === 'conjnli' && p.split === 'test'), 'conjnli');
    sets.rte = asItems(pairs.filter((p) => p.source === 'rte' && p.split === 'test'), 'rte');
  }
  return sets;
}

/** Labels scored per set (RTE has two). */
export const SET_LABELS = {
  climate: ['SUPPORTS', 'REFUTES', 'NOT_ENOUGH_INFO', 'DISPUTED'],
  fever: ['SUPPORTS', 'REFUTES', 'NOT_ENOUGH_INFO'],
  snli: ['SUPPORTS', 'REFUTES', 'NOT_ENOUGH_INFO'],
  breaking_nli: ['SUPPORTS', 'REFUTES', 'NOT_ENOUGH_INFO'],
  conjnli: ['SUPPORTS', 'REFUTES', 'NOT_ENOUGH_INFO'],
  rte: ['SUPPORTS', 'NOT_SUPPORTS'],
};

/** A verdict as the gold label of `set` reads it. */
export function verdictLabel(verdict, set) {
  const label = { SUPPORTED: 'SUPPORTS', REFUTED: 'REFUTES', PARTIALLY_SUPPORTED: 'DISPUTED', NOT_ENOUGH_EVIDENCE: 'NOT_ENOUGH_INFO' }[verdict];
  return set === 'rte' ? (label === 'SUPPORTS' ? 'SUPPORTS' : 'NOT_SUPPORTS') : label;
}

/**
 * Scores every item once with entailment model `version`: its passages (the store of its documents searched with the
 * claim, top 5, as checkFacts does) and the relevant ones with their probabilities and alignments.
 */
export async function scoreItems(fc, items, version, vectors) {
  const out = [];
  for (const item of items) {
    const store = new fc.EvidenceStore(item.documents);
    const passages = store.search(item.claim, 5);
    const { judged } = await fc.scorePassages(item.claim, passages, vectors, { entailmentModel: version });
    out.push({ label: item.label, judged });
  }
  return out;
}
