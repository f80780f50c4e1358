import { DEFAULT_ALIGNMENT_OPTIONS } from './alignmentOptions.js';
import type { AlignmentOptions } from './alignmentOptions.js';
import { hashGram, hashString } from './hash.js';
import { segmentWords } from './segments.js';
import { chainEvidence, runWeight, verbatimRunWeight, weightedSimilarity } from './reuseEvidence.js';
import { countCounterparts, featureSet, hasCounterpart, weighCounterparts } from './wordFeatures.js';
import type { WordFeatures } from './wordFeatures.js';

/** A passage of the input aligned with a passage of a source; word ranges are inclusive-exclusive. */
export interface AlignedPassage {
  inputFrom: number;
  inputTo: number;
  sourceFrom: number;
  sourceTo: number;
  /** Soft Dice similarity of the two passages, 0..1. */
  similarity: number;
}

/** Exact word runs at least this long are seeds whatever the similarity of their segments. */
const VERBATIM_SEED_WORDS = 6;

/**
 * Least summed rarity weight of the content words of a verbatim run, with a background: a stock phrase of the
 * topic ("the face on mars is a") is no evidence of reuse.
 */
const MIN_VERBATIM_RUN_WEIGHT = 1.5;

/**
 * A passage with a verbatim run this long (any words), whose content words weigh at least
 * {@link MIN_VERBATIM_RUN_WEIGHT}, is reuse even without rare evidence: a copied sentence made of the topic's words.
 */
const LONG_VERBATIM_WORDS = 12;

interface Seed {
  i: number;
  j: number;
}

interface Cluster {
  minI: number;
  maxI: number;
  minJ: number;
  maxJ: number;
  /** Source segments `[minJ, maxJ]` of each input segment with a seed. */
  seeded: Map<number, [number, number]>;
}

function segmentOf(bounds: Uint32Array): Uint32Array {
  const n = bounds[bounds.length - 1]!;
  const of = new Uint32Array(n);
  for (let s = 0; s + 1 < bounds.length; s++) of.fill(s, bounds[s]!, bounds[s + 1]!);
  return of;
}

/** Segment pairs sharing similar content words (seeds of Sanchez-Perez et al. 2014, with soft Dice). */
function similaritySeeds(input: WordFeatures, source: WordFeatures, inBounds: Uint32Array, srcBounds: Uint32Array,
  options: AlignmentOptions, weights: Float32Array | undefined): Seed[] {
  const srcSegments = srcBounds.length - 1;
  const srcSets: Set<number>[] = [];
  const inverted = new Map<number, number[]>();
  for (let j = 0; j < srcSegments; j++) {
    const set = featureSet(source, srcBounds[j]!, srcBounds[j + 1]!);
    srcSets.push(set);
    for (const f of set) {
      const list = inverted.get(f);
      if (list === undefined) inverted.set(f, [j]);
      else list.push(j);
    }
  }
  const seeds: Seed[] = [];
  const shared = new Int32Array(srcSegments);
  const touched: number[] = [];
  const candidates: (Seed & { similarity: number })[] = [];
  let best = 0;
  for (let i = 0; i + 1 < inBounds.length; i++) {
    const from = inBounds[i]!;
    const to = inBounds[i + 1]!;
    const inSet = featureSet(input, from, to);
    if (inSet.size === 0) continue;
    for (const f of inSet) {
      const list = inverted.get(f);
      if (list === undefined) continue;
      for (const j of list) {
        if (shared[j] === 0) touched.push(j);
        shared[j] = shared[j]! + 1;
      }
    }
    for (const j of touched) {
      const count = shared[j]!;
      shared[j] = 0;
      if (count < options.minSeedMatches) continue;
      const [cIn, mIn] = countCounterparts(input, from, to, srcSets[j]!);
      const [cSrc, mSrc] = countCounterparts(source, srcBounds[j]!, srcBounds[j + 1]!, inSet);
      if (Math.min(mIn, mSrc) < Math.min(options.minSeedMatches, cIn, cSrc)) continue;
      let similarity = (mIn + mSrc) / (cIn + cSrc);
      if (similarity < options.minSeedSimilarity) continue;
      if (weights !== undefined) {
        const [weighted, evidence] = weightedSimilarity(input, source, from, to, srcBounds[j]!, srcBounds[j + 1]!, inSet, srcSets[j]!, weights);
        if (weighted < options.minSeedSimilarity || evidence < options.minSeedEvidence) continue;
        similarity = weighted;
      }
      candidates.push({ i, j, similarity });
      best = Math.max(best, similarity);
    }
    touched.length = 0;
    // With a background, a segment keeps only its best counterparts: the other sentences of the same source
    // share its vocabulary (the author's words), not its text, and would stretch the passage over them.
    for (const seed of candidates) if (weights === undefined || seed.similarity >= BEST_SEED_SHARE * best) seeds.push({ i: seed.i, j: seed.j });
    candidates.length = 0;
    best = 0;
  }
  return seeds;
}

/** Marks a run that occurs more than once in the source: it names no one place there. */
const REPEATED = -1;

/**
 * Segment pairs that share a verbatim run of {@link VERBATIM_SEED_WORDS} words. A run the source repeats (an
 * abstract restating its title's phrase) seeds nothing: pinned to one of its places, it would stretch the
 * passage over the source sentences between them; the similarity seeds find the copied sentences.
 */
function verbatimSeeds(input: WordFeatures, source: WordFeatures, inSegment: Uint32Array, srcSegment: Uint32Array,
  weights: Float32Array | undefined): Seed[] {
  const k = VERBATIM_SEED_WORDS;
  const inKeys = input.text.tokens.keys.map(hashString);
  const srcKeys = source.text.tokens.keys.map(hashString);
  const grams = new Map<number, number>();
  for (let p = 0; p + k <= srcKeys.length; p++) {
    const gram = hashGram(srcKeys, p, k);
    grams.set(gram, grams.has(gram) ? REPEATED : p);
  }
  const seeds: Seed[] = [];
  for (let p = 0; p + k <= inKeys.length; p++) {
    const at = grams.get(hashGram(inKeys, p, k));
    if (at === undefined || at === REPEATED) continue;
    if (weights !== undefined && runWeight(input, p, k, weights) < MIN_VERBATIM_RUN_WEIGHT) continue;
    // A run across a sentence end seeds only the sentences holding half of it or more: a writer's own sentence
    // that happens to end with the word the copied text ends a sentence with ("... the State. Everyone has the
    // right to") is no reused sentence.
    for (const t of [0, k - 1]) {
      const segment = inSegment[p + t]!;
      let words = 0;
      for (let u = 0; u < k; u++) if (inSegment[p + u] === segment) words++;
      if (2 * words >= k) seeds.push({ i: segment, j: srcSegment[at + t]! });
    }
  }
  return seeds;
}

/** Groups seeds into clusters whose seeds are at most `maxGap` segments apart on both sides. */
function clusterSeeds(seeds: Seed[], maxGap: number): Cluster[] {
  seeds.sort((a, b) => a.i - b.i || a.j - b.j);
  const clusters: Cluster[] = [];
  let open: Cluster[] = [];
  for (const { i, j } of seeds) {
    open = open.filter((c) => i - c.maxI <= maxGap + 1);
    let best: Cluster | undefined;
    let bestDistance = Infinity;
    for (const c of open) {
      const distance = j < c.minJ ? c.minJ - j : j > c.maxJ ? j - c.maxJ : 0;
      if (distance <= maxGap + 1 && distance < bestDistance) [best, bestDistance] = [c, distance];
    }
    if (best === undefined) {
      best = { minI: i, maxI: i, minJ: j, maxJ: j, seeded: new Map() };
      clusters.push(best);
      open.push(best);
    } else {
      best.maxI = Math.max(best.maxI, i);
      best.minJ = Math.min(best.minJ, j);
      best.maxJ = Math.max(best.maxJ, j);
    }
    const range = best.seeded.get(i);
    if (range === undefined) best.seeded.set(i, [j, j]);
    else best.seeded.set(i, [Math.min(range[0], j), Math.max(range[1], j)]);
  }
  return clusters;
}

/**
 * Least share of the content words (plain, and rarity-weighted with a background) of an input segment without a
 * seed that must have a counterpart in the cluster's source passage for the segment to stay inside the passage
 * (a reworded sentence whose seed was missed); below it the segment is the writer's own text between two reused
 * stretches, and the passage is cut there.
 */
const BRIDGE_SHARE = 0.5;

/** Fewest content words of a segment without a seed for {@link bridges} to judge it; shorter ones stay inside. */
const MIN_BRIDGE_EVIDENCE_WORDS = 5;

/** Whether input segment `[from, to)` without a seed belongs to a passage aligned with `features` of the source. */
function bridges(input: WordFeatures, from: number, to: number, features: ReadonlySet<number>, weights: Float32Array | undefined): boolean {
  const [content, matched] = weighCounterparts(input, from, to, features, undefined);
  // A clause of a few content words ("In other words,", "; in addition,", a heading) is no evidence either way.
  if (content < MIN_BRIDGE_EVIDENCE_WORDS) return true;
  if (matched < BRIDGE_SHARE * content) return false;
  if (weights === undefined) return true;
  const [weighted, weightedMatched] = weighCounterparts(input, from, to, features, weights);
  return weighted === 0 || weightedMatched >= BRIDGE_SHARE * weighted;
}

/**
 * The runs of a cluster's input segments that hold reused text: segments with a seed, and segments between them
 * that {@link bridges} accepts; each run with the source segments of its seeds (the cluster's when it has none).
 */
function reusedRuns(input: WordFeatures, source: WordFeatures, inBounds: Uint32Array, srcBounds: Uint32Array, c: Cluster,
  weights: Float32Array | undefined): Cluster[] {
  if (c.seeded.size === c.maxI - c.minI + 1) return [c];
  const features = featureSet(source, srcBounds[c.minJ]!, srcBounds[c.maxJ + 1]!);
  const runs: Cluster[] = [];
  let run: Cluster | undefined;
  for (let i = c.minI; i <= c.maxI; i++) {
    const seeds = c.seeded.get(i);
    if (seeds === undefined && !bridges(input, inBounds[i]!, inBounds[i + 1]!, features, weights)) {
      run = undefined;
      continue;
    }
    if (run === undefined) {
      run = { minI: i, maxI: i, minJ: Infinity, maxJ: -Infinity, seeded: new Map() };
      runs.push(run);
    }
    run.maxI = i;
    if (seeds !== undefined) {
      run.seeded.set(i, seeds);
      run.minJ = Math.min(run.minJ, seeds[0]);
      run.maxJ = Math.max(run.maxJ, seeds[1]);
    }
  }
  for (const r of runs) if (r.seeded.size === 0) [r.minJ, r.maxJ] = [c.minJ, c.maxJ];
  return runs;
}

/**
 * With a background, a segment's seeds are its counterparts at least this close to its best one (similarity
 * share).
 */
const BEST_SEED_SHARE = 0.95;

/** Narrows `[from, to)` of `words` to its first and last word with a counterpart (plus adjacent equal words). */
function trim(words: WordFeatures, from: number, to: number, features: ReadonlySet<number>, keys: ReadonlySet<string>): [number, number] {
  let a = from;
  while (a < to && !hasCounterpart(words, a, features)) a++;
  if (a === to) return [from, from];
  let b = to - 1;
  while (b > a && !hasCounterpart(words, b, features)) b--;
  const k = words.text.tokens.keys;
  while (a > from && keys.has(k[a - 1]!)) a--;
  while (b + 1 < to && keys.has(k[b + 1]!)) b++;
  return [a, b + 1];
}

function keySet(words: WordFeatures, from: number, to: number): Set<string> {
  const set = new Set<string>();
  for (let i = from; i < to; i++) set.add(words.text.tokens.keys[i]!);
  return set;
}

/**
 * The passage of input words `[inFrom, inTo)` aligned with source words `[srcFrom, srcTo)`, its ends trimmed to
 * matching words, or undefined when it fails the filter: fewer than `minPassageWords` words, soft Dice similarity
 * below `minPassageSimilarity`, and with a background (`weights`) its rarity-weighted similarity below
 * `minWeightedPassageSimilarity` (and `minPassageSimilarity`), matched rarity below `minPassageEvidence` or
 * order-preserving evidence below `minChainEvidence` (unless a long verbatim run of more than the topic's words
 * makes it reuse).
 */
export function measurePassage(input: WordFeatures, source: WordFeatures, inFrom: number, inTo: number, srcFrom: number, srcTo: number,
  options: AlignmentOptions = DEFAULT_ALIGNMENT_OPTIONS, weights?: Float32Array): AlignedPassage | undefined {
  const [a, b] = trim(input, inFrom, inTo, featureSet(source, srcFrom, srcTo), keySet(source, srcFrom, srcTo));
  const [x, y] = trim(source, srcFrom, srcTo, featureSet(input, inFrom, inTo), keySet(input, inFrom, inTo));
  if (b - a < options.minPassageWords || y <= x) return undefined;
  const inFeatures = featureSet(input, a, b);
  const srcFeatures = featureSet(source, x, y);
  const [cIn, mIn] = countCounterparts(input, a, b, srcFeatures);
  const [cSrc, mSrc] = countCounterparts(source, x, y, inFeatures);
  const similarity = cIn + cSrc === 0 ? 0 : (mIn + mSrc) / (cIn + cSrc);
  if (similarity < options.minPassageSimilarity) return undefined;
  if (weights !== undefined) {
    const [weighted, evidence] = weightedSimilarity(input, source, a, b, x, y, inFeatures, srcFeatures, weights);
    const reused = weighted >= Math.max(options.minPassageSimilarity, options.minWeightedPassageSimilarity) && evidence >= options.minPassageEvidence
      && chainEvidence(input, source, a, b, x, y, weights) >= options.minChainEvidence;
    if (!reused && verbatimRunWeight(input, source, a, b, x, y, LONG_VERBATIM_WORDS, weights) < MIN_VERBATIM_RUN_WEIGHT) return undefined;
  }
  return { inputFrom: a, inputTo: b, sourceFrom: x, sourceTo: y, similarity };
}

/**
 * Aligns the input with one source in three steps, after Sanchez-Perez, Sidorov and Gelbukh (2014):
 * 1. **Seeding**: pairs of segments (sentences or clauses) whose content words match, by stem or WordNet
 *    synonym, with a soft Dice similarity of at least `minSeedSimilarity`, plus the segments of verbatim runs;
 * 2. **Extension**: seeds at most `maxGap` segments apart on both sides form one passage, cut where a segment
 *    between them has no seed and too few words with a counterpart in the source (the writer's own sentence
 *    between two reused ones);
 * 3. **Filtering**: passages below `minPassageSimilarity` or `minPassageWords` are dropped, and of two
 *    overlapping passages in the input the longer stays.
 * With `weights`, the rarity of each word in a background (`backgroundWeights`), seeds and passages must show
 * evidence of reuse, not of a shared topic: rarity-weighted similarity, enough matched rarity, an order-preserving
 * chain (see {@link measurePassage}), and verbatim runs of more than stock words of the topic.
 * Passage ends are then trimmed to the first and last matching word, so offsets fall on words.
 */
export function alignPassages(input: WordFeatures, source: WordFeatures, options: AlignmentOptions = DEFAULT_ALIGNMENT_OPTIONS,
  weights?: Float32Array): AlignedPassage[] {
  const inBounds = segmentWords(input.text.tokens, options.maxSegmentWords, input.text.language);
  const srcBounds = segmentWords(source.text.tokens, options.maxSegmentWords, source.text.language);
  if (input.text.tokens.length === 0 || source.text.tokens.length === 0) return [];
  const seeds = similaritySeeds(input, source, inBounds, srcBounds, options, weights);
  seeds.push(...verbatimSeeds(input, source, segmentOf(inBounds), segmentOf(srcBounds), weights));
  const passages: AlignedPassage[] = [];
  for (const c of clusterSeeds(seeds, options.maxGap).flatMap((c) => reusedRuns(input, source, inBounds, srcBounds, c, weights))) {
    const passage = measurePassage(input, source, inBounds[c.minI]!, inBounds[c.maxI + 1]!, srcBounds[c.minJ]!, srcBounds[c.maxJ + 1]!, options, weights);
    if (passage !== undefined) passages.push(passage);
  }
  // Overlaps in the input: the longer passage wins.
  passages.sort((p, q) => (q.inputTo - q.inputFrom) - (p.inputTo - p.inputFrom) || p.inputFrom - q.inputFrom);
  const kept: AlignedPassage[] = [];
  for (const p of passages) {
    if (kept.every((k) => p.inputTo <= k.inputFrom || p.inputFrom >= k.inputTo)) kept.push(p);
  }
  return kept.sort((p, q) => p.inputFrom - q.inputFrom);
}
