import { createRequire } from 'node:module';

// Loaded through require with a local type: natural's own typings ship a .ts file that strict builds reject.
const porter = createRequire(import.meta.url)('natural/lib/natural/stemmers/porter_stemmer.js') as {
  stem(word: string): string;
};
const cache = new Map<string, string>();
// Longer words are their own stem: Porter's `/[^aeiouy]+y/g` is quadratic in the word's length.
const MAX_STEMMED_LENGTH = 64;

/** Porter stem of a lower-cased English word (memoised; natural's PorterStemmer). */
export function stem(lower: string): string {
  let stemmed = cache.get(lower);
  if (stemmed === undefined) {
    stemmed = lower.length > MAX_STEMMED_LENGTH || /^\p{N}/u.test(lower) ? lower : porter.stem(lower);
    if (cache.size > 200_000) cache.clear();
    cache.set(lower, stemmed);
  }
  return stemmed;
}
