// PAN text-alignment measures (Potthast, Stein, Barrón-Cedeño and Rosso 2010, "An Evaluation Framework for
// Plagiarism Detection"): character-level precision and recall over cases and detections, granularity, and
// plagdet = F1 / log2(1 + granularity).
//
// A case or a detection is {susp, src, suspStart, suspEnd, srcStart, srcEnd}: a passage of a suspicious document
// and a passage of a source document. A detection r detects a case s when they concern the same pair of documents
// and overlap in both; s ⊓ r is then the characters they share, counted in both documents.

const overlap = (a0, a1, b0, b1) => Math.max(0, Math.min(a1, b1) - Math.max(a0, b0));
const detects = (s, r) => s.susp === r.susp && s.src === r.src
  && overlap(s.suspStart, s.suspEnd, r.suspStart, r.suspEnd) > 0 && overlap(s.srcStart, s.srcEnd, r.srcStart, r.srcEnd) > 0;
const size = (x) => (x.suspEnd - x.suspStart) + (x.srcEnd - x.srcStart);

/** Length of the union of ranges [a, b) intersected with [from, to). */
export function coveredLength(ranges, from, to) {
  const clipped = ranges.map(([a, b]) => [Math.max(a, from), Math.min(b, to)]).filter(([a, b]) => b > a).sort((x, y) => x[0] - y[0]);
  let total = 0;
  let end = -Infinity;
  for (const [a, b] of clipped) {
    if (b <= end) continue;
    total += b - Math.max(a, end);
    end = b;
  }
  return total;
}

/** |∪_{y ∈ others, y detects/is detected by x} (x ⊓ y)| in characters of both documents. */
function coveredBy(x, others) {
  const hits = others.filter((y) => detects(x, y));
  return coveredLength(hits.map((y) => [y.suspStart, y.suspEnd]), x.suspStart, x.suspEnd)
    + coveredLength(hits.map((y) => [y.srcStart, y.srcEnd]), x.srcStart, x.srcEnd);
}

/** {precision, recall, granularity, plagdet, cases, detections}; precision is 1 with no detections (PAN convention is undefined; we report 1 and the count). */
export function panMeasures(cases, detections) {
  const recall = cases.length === 0 ? 1 : cases.reduce((sum, s) => sum + coveredBy(s, detections) / size(s), 0) / cases.length;
  const precision = detections.length === 0 ? 1 : detections.reduce((sum, r) => sum + coveredBy(r, cases) / size(r), 0) / detections.length;
  const detected = cases.filter((s) => detections.some((r) => detects(s, r)));
  const granularity = detected.length === 0 ? 1 : detected.reduce((sum, s) => sum + detections.filter((r) => detects(s, r)).length, 0) / detected.length;
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { precision, recall, granularity, plagdet: f1 / Math.log2(1 + granularity), cases: cases.length, detections: detections.length };
}
