import type { PlagiarismSequence } from './types.js';

/** A source object of the v2 result (spec, "Plagiarism result (v2)"). */
export interface PlagiarismSourceResult {
  score: number;
  canAccess: boolean;
  url: string;
  title: string;
  plagiarismWords: number;
  identicalWordCounts: number;
  similarWordCounts: number;
  totalNumberOfWords: number;
  author: string;
  description: string;
  publishedDate: number;
  source: string;
  citation: boolean;
  plagiarismFound: PlagiarismSequence[];
  is_excluded: boolean;
}

/** The v2 result without the credit fields, which the engine adds after charging. */
export interface PlagiarismV2Result {
  status: number;
  scanInformation: { service: string; scanTime: string; inputType: string; language: string };
  result: {
    score: number;
    sourceCounts: number;
    textWordCounts: number;
    totalPlagiarismWords: number;
    identicalWordCounts: number;
    similarWordCounts: number;
  };
  sources: PlagiarismSourceResult[];
  attackDetected: { zero_width_space: boolean; homoglyph_attack: boolean };
  text: string;
  similarWords: { index: number; word: string }[];
  citations: string[];
  indexes: PlagiarismSequence[];
}

/** One entry of the v1 `results`. */
export interface PlagiarismV1Entry {
  title: string;
  url: string;
  /** Matching sequences of the input, keyed "0", "1", ... */
  excerpts: Record<string, string>;
  /** Publication date (ISO 8601), or '' when unknown. */
  date: string;
}

/** The v1 result without the credit fields. */
export interface PlagiarismV1Result {
  status: number;
  results: PlagiarismV1Entry[];
  results_count: number;
}
