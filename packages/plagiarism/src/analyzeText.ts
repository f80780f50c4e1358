import type { PlagiarismLanguage } from './languages.js';
import { stemmerFor } from './stemmers.js';
import { stopwordsOf } from './stopwords.js';
import { tokenize } from './tokenize.js';
import type { TokenizedText } from './tokenize.js';
import { wordNetLexicon } from './wordnet.js';

/** A text ready for fingerprinting and alignment. */
export interface AnalyzedText {
  readonly tokens: TokenizedText;
  readonly language: PlagiarismLanguage;
  /** Stem of each word (the key itself in languages without a stemmer). */
  readonly stems: readonly string[];
  /** 1 for content words, 0 for stop words. */
  readonly content: Uint8Array;
  /** WordNet synset ids of each content word (English only, when synonyms are on); empty arrays otherwise. */
  readonly synsets: readonly (readonly number[])[];
}

const NONE: readonly number[] = [];

/** Tokenises `text` and attaches stems, stop-word flags and, for English, WordNet synsets. */
export function analyzeText(text: string, language: PlagiarismLanguage, synonyms: boolean): AnalyzedText {
  const tokens = tokenize(text);
  const stem = stemmerFor(language);
  const stop = stopwordsOf(language);
  const lexicon = synonyms && language === 'en' ? wordNetLexicon() : undefined;
  const n = tokens.length;
  const stems: string[] = new Array(n);
  const content = new Uint8Array(n);
  const synsets: (readonly number[])[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const key = tokens.keys[i]!;
    stems[i] = stem(key);
    const isContent = !stop.has(key);
    content[i] = isContent ? 1 : 0;
    synsets[i] = isContent && lexicon !== undefined && key.length > 2 ? lexicon.synsetsOf(key) : NONE;
  }
  return { tokens, language, stems, content, synsets };
}
