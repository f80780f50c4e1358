/** Options of the alignment between an input and one source (seed, extend, filter). */
export interface AlignmentOptions {
  /**
   * Longest segment, in words, where a text has no sentence punctuation.
   * @default 40
   */
  maxSegmentWords: number;
  /**
   * Fewest similar content words (same stem, or WordNet synonyms) for a segment pair to be a seed.
   * @default 2
   */
  minSeedMatches: number;
  /**
   * Least soft Dice similarity of a seed: (matched words of both segments) / (content words of both).
   * @default 0.4
   */
  minSeedSimilarity: number;
  /**
   * Most segments without a seed that may separate two seeds of the same passage, on either side.
   * @default 2
   */
  maxGap: number;
  /**
   * Least soft Dice similarity of a whole passage.
   * @default 0.3
   */
  minPassageSimilarity: number;
  /**
   * Fewest words of the input in a reported passage.
   * @default 8
   */
  minPassageWords: number;
  /**
   * With a background (a collection or candidate set to weigh words by rarity): least matched rarity of a seed,
   * averaged over both segments (a word used by every document weighs 0, one used by a single document 1).
   * @default 1
   */
  minSeedEvidence: number;
  /**
   * With a background: least rarity-weighted soft Dice similarity of a passage. Passages of two documents on one
   * topic, written apart, share many of the topic's words loosely (the false detections of the same-topic corpus at
   * 0.3 had weighted similarities of 0.46 to 0.76, most under 0.65); copied passages, even heavily reworded, keep
   * most of their rarer words (nine in ten of the true detections there are above 0.8).
   * @default 0.65
   */
  minWeightedPassageSimilarity: number;
  /**
   * With a background: least matched rarity of a passage, averaged over both sides.
   * @default 4
   */
  minPassageEvidence: number;
  /**
   * With a background: least order-preserving evidence of a passage, the summed rarity of the consecutive
   * content-word pairs that recur in the same order in the source (see `chainEvidence`).
   * @default 1.5
   */
  minChainEvidence: number;
}

export const DEFAULT_ALIGNMENT_OPTIONS: Readonly<AlignmentOptions> = Object.freeze({
  maxSegmentWords: 40,
  minSeedMatches: 2,
  minSeedSimilarity: 0.4,
  maxGap: 2,
  minPassageSimilarity: 0.3,
  minPassageWords: 8,
  minWeightedPassageSimilarity: 0.65,
  minSeedEvidence: 1,
  minPassageEvidence: 4,
  minChainEvidence: 1.5,
});
