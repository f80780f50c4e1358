import { measurePassage } from './alignPassages.js';
import type { AlignedPassage } from './alignPassages.js';
import type { AlignmentOptions } from './alignmentOptions.js';
import type { WordFeatures } from './wordFeatures.js';

/**
 * Trims a passage that runs into attributed quotations (`[start, end)` character ranges of the input) and past
 * them: cut into runs inside and outside quotations, it keeps the span from its first to its last kept run, a
 * quoted run or an outside run that passes the passage filter on its own (`measurePassage`). A quotation's
 * passage often spills into the writer's own sentences around it, which share the source's topic: trimmed, it
 * is recognised as a quotation and the writer's sentences do not count as copied; copied text around a quotation
 * (a source's own sentence quoting someone) stays one passage.
 */
export function splitAtQuotations(passage: AlignedPassage, quotations: readonly [number, number][], input: WordFeatures,
  source: WordFeatures, options: AlignmentOptions, weights: Float32Array | undefined): AlignedPassage[] {
  const { starts, ends } = input.text.tokens;
  const start = starts[passage.inputFrom]!;
  const end = ends[passage.inputTo - 1]!;
  const hit = quotations.filter(([qs, qe]) => qs < end && qe > start);
  if (hit.length === 0) return [passage];
  const inside = (w: number): boolean => hit.some(([qs, qe]) => starts[w]! >= qs && ends[w]! <= qe);
  let quoted = 0;
  for (let w = passage.inputFrom; w < passage.inputTo; w++) if (inside(w)) quoted++;
  if (quoted === 0) return [passage];
  // Mostly a quotation: it is reported as the quotation, without the few words of its lead-in or tail the source
  // shares ("According to X, ..." where the source says "according to Y").
  if (quoted >= 0.8 * (passage.inputTo - passage.inputFrom)) {
    let from = passage.inputFrom;
    let to = passage.inputTo;
    while (!inside(from)) from++;
    while (!inside(to - 1)) to--;
    return [{ ...passage, inputFrom: from, inputTo: to }];
  }
  // The passage keeps the span from its first to its last kept run (a quoted run, or an outside run that passes
  // on its own): outside runs that fail the filter are dropped only at its ends, where a passage spills over.
  // A run is measured against the whole source passage, whose other words deflate its similarity: the weighted
  // bound is the plain one here (a run of the writer's own sentences still needs rare, ordered evidence).
  const outside = { ...options, minWeightedPassageSimilarity: options.minPassageSimilarity };
  let first: AlignedPassage | undefined;
  let last: AlignedPassage | undefined;
  let from = passage.inputFrom;
  while (from < passage.inputTo) {
    const quotedRun = inside(from);
    let to = from + 1;
    while (to < passage.inputTo && inside(to) === quotedRun) to++;
    const piece = measurePassage(input, source, from, to, passage.sourceFrom, passage.sourceTo,
      quotedRun ? { ...options, minPassageWords: 1 } : outside, quotedRun ? undefined : weights)
      ?? (quotedRun ? { ...passage, inputFrom: from, inputTo: to } : undefined);
    if (piece !== undefined) {
      first ??= piece;
      last = piece;
    }
    from = to;
  }
  if (first === undefined || last === undefined) return [];
  return [{
    inputFrom: first.inputFrom, inputTo: last.inputTo, similarity: passage.similarity,
    sourceFrom: Math.min(first.sourceFrom, last.sourceFrom), sourceTo: Math.max(first.sourceTo, last.sourceTo),
  }];
}
