/**
 * The features, in the order of the model's input vector. Each is a length-normalised statistic of the canonical
 * text (so it means the same for 300 and 150,000 characters, only with more noise when short):
 *
 * - `lm_human`: mean surprisal per character (nats) under the character 5-gram model of human text; machine text
 *   is more predictable (the signal of likelihood, log-rank and Binoculars-style detectors).
 * - `lm_human_low`: the same under order 2 (one character of context).
 * - `lm_ratio`: lm_human / lm_human_low, how much longer context helps; normalises away topic and spelling.
 * - `lm_machine`: mean surprisal under the 5-gram model of machine text.
 * - `lm_diff`: lm_human - lm_machine, the log-likelihood ratio of the two models per character.
 * - `lm_word_cv`: coefficient of variation of per-word mean surprisal (burstiness of surprise).
 * - `deflate_bpc`: deflate bits per character of the text alone (compressibility, as in ZipPy).
 * - `deflate_human`, `deflate_machine`: bits per character with a preset dictionary of human / machine text.
 * - `deflate_diff`: deflate_human - deflate_machine.
 * - `sentence_len_mean`, `sentence_len_cv`: words per sentence and its coefficient of variation (burstiness).
 * - `word_len_mean`, `word_len_sd`: letters per word.
 * - `mattr`: moving-average type-token ratio over 50-word windows (vocabulary richness, length-independent).
 * - `function_words`: share of words that are function words.
 * - `comma`, `semicolon_colon`, `dash`, `paren`, `quote`, `question_exclaim`, `digit`: per 100 characters.
 * - `repeated_trigrams`: share of word trigrams already seen earlier in the range (repetition).
 * - `lz_bpc`, `lz_human`, `lz_machine`: bits per character of an LZ77 parse (`compressionProfile.ts`) against the
 *   text before it alone, and also against the human / machine reference text; unlike `deflate_*` each character
 *   gets its share of the bits, so a range reads a difference of prefix sums (context: the whole text before it).
 * - `lz_diff`: lz_human - lz_machine.
 *
 * Models list the names they were trained on in their card (`feature_names`), which may be a prefix of this list.
 */
export const FEATURE_NAMES = [
  'lm_human', 'lm_human_low', 'lm_ratio', 'lm_machine', 'lm_diff', 'lm_word_cv',
  'deflate_bpc', 'deflate_human', 'deflate_machine', 'deflate_diff',
  'sentence_len_mean', 'sentence_len_cv', 'word_len_mean', 'word_len_sd', 'mattr', 'function_words',
  'comma', 'semicolon_colon', 'dash', 'paren', 'quote', 'question_exclaim', 'digit', 'repeated_trigrams',
  'lz_bpc', 'lz_human', 'lz_machine', 'lz_diff',
] as const;

/** Features that need a deflate call per range (slow for sentence windows); skipped when a model does not use them. */
export const DEFLATE_FEATURES: readonly FeatureName[] = ['deflate_bpc', 'deflate_human', 'deflate_machine', 'deflate_diff'];

/** Name of one feature. */
export type FeatureName = (typeof FEATURE_NAMES)[number];
