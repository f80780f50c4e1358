// FEVER-style "not enough info" pairs for the entailment model. FEVER's dev pairs have gold evidence only for
// SUPPORTS / REFUTES claims, so without these the model never sees a claim beside a related passage that neither
// supports nor refutes it, and learns "little overlap => contradiction" (the CLIMATE-FEVER over-calls of REFUTED).
// Each FEVER claim gets the best BM25 passage (package's EvidenceStore) among the evidence of *other* claims of the
// same split, skipping any passage that shares a sentence with the claim's own evidence; labelled neutral. The sampling
// follows the FEVER paper's NEI baseline (Thorne et al. 2018: retrieved sentences for NOT ENOUGH INFO claims).
import { EvidenceStore } from '../dist/index.js';

const squash = (text) => text.toLowerCase().replace(/\s+/g, ' ').trim();
// Sentences of PTB-tokenised FEVER evidence (" . " ends one); two texts sharing one are not independent.
const sentencesOf = (text) => squash(text).split(/ \. |\. (?=[a-z0-9"])/).map((s) => s.replace(/ ?\.$/, '')).filter((s) => s.split(' ').length >= 4);

/** Neutral pairs {source: 'fever_nei', split, premise, hypothesis, label: 1} from the FEVER pairs of `pairs`. */
export function feverNeutralPairs(pairs) {
  const fever = pairs.filter((p) => p.source === 'fever');
  const out = [];
  for (const split of ['train', 'test']) {
    const rows = fever.filter((p) => p.split === split);
    const evidenceOf = new Map();
    for (const p of rows) {
      const own = evidenceOf.get(p.hypothesis) ?? new Set();
      for (const sentence of sentencesOf(p.premise.slice(0, 1500))) own.add(sentence);
      evidenceOf.set(p.hypothesis, own);
    }
    const texts = [...new Set(rows.map((p) => p.premise.slice(0, 1500)))];
    const store = new EvidenceStore(texts.map((text, i) => ({ url: String(i), title: '', text })));
    for (const [claim, own] of evidenceOf) {
      const candidate = store.search(claim, 8).find((passage) => {
        const text = squash(passage.text);
        return !sentencesOf(passage.text).some((sentence) => own.has(sentence)) && ![...own].some((e) => text.includes(e) || e.includes(text));
      });
      if (candidate) out.push({ source: 'fever_nei', split, premise: candidate.text, hypothesis: claim, label: 1 });
    }
  }
  return out;
}

/**
 * Reflexive pairs {source: 'fever_self', label: 0}: every FEVER training claim entails itself. Without them the
 * neutral pairs above (some of which share all of a claim's words) teach the model that a verbatim restatement in a
 * short passage is neutral.
 */
export function feverSelfPairs(pairs) {
  const claims = new Set(pairs.filter((p) => p.source === 'fever' && p.split === 'train').map((p) => p.hypothesis));
  return [...claims].map((claim) => ({ source: 'fever_self', split: 'train', premise: claim, hypothesis: claim, label: 0 }));
}
