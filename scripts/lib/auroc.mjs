/**
 * Area under the ROC curve as the Mann-Whitney statistic: the probability that a value drawn from `higher`
 * exceeds one drawn from `lower`, ties counted half; null when either side is empty. O(n log n) by ranks.
 */
export function auroc(higher, lower) {
  if (higher.length === 0 || lower.length === 0) return null;
  const all = [...higher.map((s) => [s, 1]), ...lower.map((s) => [s, 0])].sort((a, b) => a[0] - b[0]);
  let rankSum = 0;
  for (let i = 0; i < all.length; ) {
    let j = i;
    while (j < all.length && all[j][0] === all[i][0]) j++;
    const mid = (i + j + 1) / 2;
    for (let k = i; k < j; k++) if (all[k][1] === 1) rankSum += mid;
    i = j;
  }
  const n = higher.length;
  return (rankSum - (n * (n + 1)) / 2) / (n * lower.length);
}
