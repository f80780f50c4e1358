import type { AlignmentOptions } from './alignmentOptions.js';
import type { CandidateOptions, SourceIndex } from './sourceIndex.js';
import type { SourceProvider } from './sourceProviders.js';
import type { StemFrequencies } from './stemFrequencies.js';

/** Options of {@link checkPlagiarism}. */
export interface CheckPlagiarismOptions {
  /**
   * The source index to search (shorthand for an `IndexSourceProvider` first in `providers`).
   * @default undefined
   */
  index?: SourceIndex | undefined;
  /**
   * The collection's stem frequencies, for the rarity weighting, when the index itself is not at hand (an alignment
   * in a worker thread, with the sources found on the caller's: `StemFrequencies.fromSnapshot(index.stemFrequencies()
   * .snapshot())`). Ignored when `index` is given.
   * @default undefined
   */
  background?: StemFrequencies | undefined;
  /**
   * Further source providers (folder, JSONL, web search), asked in order.
   * @default []
   */
  providers?: readonly SourceProvider[] | undefined;
  /**
   * `excluded_sources` of the request: domains (with their subdomains) or full URLs, case-sensitive.
   * @default []
   */
  excludedSources?: readonly string[] | undefined;
  /**
   * `auto` or one of the 47 language codes.
   * @default 'auto'
   */
  language?: string | undefined;
  /**
   * Match WordNet synonyms (English) as similar words.
   * @default true
   */
  synonyms?: boolean | undefined;
  /**
   * Reported as `scanInformation.inputType`: `text`, `file` or `website`.
   * @default 'text'
   */
  inputType?: 'text' | 'file' | 'website' | undefined;
  /**
   * Accepted text length in characters (the v2 bounds).
   * @default { min: 100, max: 120000 }
   */
  bounds?: { min: number; max: number } | undefined;
  /**
   * Alignment parameters.
   * @default DEFAULT_ALIGNMENT_OPTIONS
   */
  alignment?: Partial<AlignmentOptions> | undefined;
  /**
   * Candidate retrieval parameters.
   * @default DEFAULT_CANDIDATE_OPTIONS
   */
  candidates?: Partial<CandidateOptions> | undefined;
  /**
   * Clock of `scanInformation.scanTime`.
   * @default () => new Date()
   */
  now?: (() => Date) | undefined;
}

/** Bounds of the v2 request text (characters) and of the v1 request text (words). */
export const PLAGIARISM_TEXT_BOUNDS = Object.freeze({ v2Chars: { min: 100, max: 120_000 }, v1Words: { min: 16, max: 20_000 } });
