/**
 * Light stemmers written here for languages natural has no stemmer for, where a word carries its particles:
 * they strip the most frequent affixes only, so that the same word with another particle matches.
 */

// Definite article and attached conjunctions / prepositions (و ف ب ك ل + ال), after Larkey, Ballesteros and
// Connell (2002), "light10": prefixes first, then the commonest suffixes, keeping a stem of at least 2 letters.
const AR_PREFIXES = ['وال', 'فال', 'بال', 'كال', 'لل', 'ال', 'و'];
const AR_SUFFIXES = ['ها', 'ان', 'ات', 'ون', 'ين', 'يه', 'ية', 'ه', 'ة', 'ي'];
// Short vowels and tatweel, and the forms of alef unified (أ إ آ -> ا, ى -> ي).
const AR_MARKS = /[\u064B-\u0652\u0640]/g;

/** Light Arabic stem (Larkey et al. 2002, light10): diacritics removed, alef forms unified, affixes stripped. */
export function arabicLightStem(key: string): string {
  let word = key.replace(AR_MARKS, '').replace(/[أإآ]/g, 'ا').replace(/ى/g, 'ي');
  for (const prefix of AR_PREFIXES) {
    if (word.startsWith(prefix) && word.length - prefix.length >= 2) {
      word = word.slice(prefix.length);
      break;
    }
  }
  for (const suffix of AR_SUFFIXES) {
    if (word.endsWith(suffix) && word.length - suffix.length >= 2) {
      word = word.slice(0, -suffix.length);
      break;
    }
  }
  return word;
}

// Case particles and the commonest endings of an eojeol (word + particles), longest first.
const KO_ENDINGS = ['에서는', '으로는', '에게서', '에서', '에게', '으로', '까지', '부터', '처럼', '보다', '와', '과', '은',
  '는', '이', '가', '을', '를', '의', '에', '로', '도', '만', '이며', '이다', '하는', '하고', '했다', '한다', '하다', '적인', '적'];

/** Light Korean stem: one trailing particle or ending stripped from a word (eojeol), keeping 1 syllable or more. */
export function koreanLightStem(key: string): string {
  for (const ending of KO_ENDINGS) {
    if (key.endsWith(ending) && key.length - ending.length >= 1) return key.slice(0, -ending.length);
  }
  return key;
}
