// Shared by evaluate.mjs and chooseThresholds.mjs: the verdict -> CLIMATE-FEVER label mapping and the scores.
export const LABELS = ['SUPPORTS', 'REFUTES', 'NOT_ENOUGH_INFO', 'DISPUTED'];
// DISPUTED (evidence both supports and refutes) is mapped to PARTIALLY_SUPPORTED, the verdict for mixed evidence.
export const MAP = { SUPPORTED: 'SUPPORTS', REFUTED: 'REFUTES', PARTIALLY_SUPPORTED: 'DISPUTED', NOT_ENOUGH_EVIDENCE: 'NOT_ENOUGH_INFO' };

/** Accuracy, macro F1 and per-label F1 of [gold, predicted] pairs over `labels`. */
export function scores(rows, labels = LABELS) {
  const accuracy = rows.filter(([g, p]) => g === p).length / rows.length;
  const f1s = labels.map((label) => {
    const tp = rows.filter(([g, p]) => g === label && p === label).length;
    const predicted = rows.filter(([, p]) => p === label).length;
    const gold = rows.filter(([g]) => g === label).length;
    const precision = predicted ? tp / predicted : 0;
    const recall = gold ? tp / gold : 0;
    return precision + recall ? (2 * precision * recall) / (precision + recall) : 0;
  });
  return { accuracy, macroF1: f1s.reduce((a, b) => a + b, 0) / f1s.length, f1s };
}
