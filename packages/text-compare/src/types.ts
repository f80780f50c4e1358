/**
 * `identical`: the words and the separators between them are the same on both sides (white space aside);
 * `minor_changes`: the words are the same once normalised, but the raw text of the run differs (letter case,
 * compatibility forms, apostrophe variants, or punctuation next to the words).
 */
export type MatchType = 'identical' | 'minor_changes';

/** One matched run of words on one side; item k of `first_text` and item k of `second_text` are the same run. */
export interface MatchItem {
  type: MatchType;
  /** Words in the run; the same on both sides. */
  word_count: number;
  /** UTF-16 offset of the run's first word in this side's text. */
  index_start: number;
  /** UTF-16 length from the start of the first word to the end of the last word of the run. */
  length: number;
}

/** What one side of the comparison shows. */
export interface TextCompareSide {
  /** Words of this text, as counted (and charged) by `wordSpans` of `@content-analysis/credits`. */
  total_word_count: number;
  /** Words of this text inside an item; equal on both sides. */
  matching_word_count: number;
  /** 100 · matching / total, rounded to 2 decimals; 0 for a text without words. */
  similarity_percentage: number;
  /** Matched runs, in the order of `first_text`. */
  items: MatchItem[];
}

/** Result of `compareTexts`. */
export interface TextCompareResult {
  /** 100 · (matching first + matching second) / (total first + total second), rounded to 2 decimals. */
  similarity_score: number;
  first_text: TextCompareSide;
  second_text: TextCompareSide;
}
