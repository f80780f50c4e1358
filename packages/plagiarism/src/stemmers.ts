import { createRequire } from 'node:module';
import type { PlagiarismLanguage } from './languages.js';
import { arabicLightStem, koreanLightStem } from './lightStemmers.js';

/**
 * natural's stemmers, loaded one file at a time (loading all of natural takes about a second and reads a
 * `.env` file). Typed here rather than through natural's own declarations, which describe the whole bundle.
 */
interface NaturalStemmer {
  stem(word: string): string;
}

const require = createRequire(import.meta.url);

const STEMMER_FILES: Partial<Record<PlagiarismLanguage, string>> = {
  en: 'porter_stemmer.js', fr: 'porter_stemmer_fr.js', de: 'porter_stemmer_de.js', es: 'porter_stemmer_es.js',
  it: 'porter_stemmer_it.js', nl: 'porter_stemmer_nl.js', no: 'porter_stemmer_no.js', da: 'porter_stemmer_no.js',
  pt: 'porter_stemmer_pt.js', ru: 'porter_stemmer_ru.js', sv: 'porter_stemmer_sv.js', uk: 'porter_stemmer_uk.js',
  fa: 'porter_stemmer_fa.js', id: 'indonesian/stemmer_id.js', ms: 'indonesian/stemmer_id.js',
};

/** Light stemmers written here (`lightStemmers.ts`) for languages natural has none for. */
const LIGHT_STEMMERS: Partial<Record<PlagiarismLanguage, NaturalStemmer>> = {
  ar: { stem: arabicLightStem }, ko: { stem: koreanLightStem },
};

/** A memoised stem function: `stem(key)` for lower-case word keys. */
export type StemFunction = (key: string) => string;

const CACHE_LIMIT = 500_000;
/**
 * Longest key handed to a stemmer; longer keys are their own stem. natural's stemmers run regular expressions that
 * are quadratic in the word's length (Porter's `/[^aeiouy]+y/g` took 42 s on a 120,000-character `1,1,1,...`), and
 * no word of any language it stems is this long.
 */
export const MAX_STEMMED_LENGTH = 64;
const stemmers = new Map<PlagiarismLanguage, StemFunction>();

function load(file: string): NaturalStemmer | undefined {
  try {
    const loaded = require(`natural/lib/natural/stemmers/${file}`) as NaturalStemmer | { default: NaturalStemmer };
    const stemmer = 'stem' in loaded ? loaded : loaded.default;
    return typeof stemmer.stem === 'function' ? stemmer : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The stemmer of `language` (natural's Porter-family stemmers; Indonesian also for Malay, Norwegian also for
 * Danish; light stemmers for Arabic and Korean); for a language without one, the identity. Results are cached per language.
 */
export function stemmerFor(language: PlagiarismLanguage): StemFunction {
  const known = stemmers.get(language);
  if (known !== undefined) return known;
  const file = STEMMER_FILES[language];
  const stemmer = LIGHT_STEMMERS[language] ?? (file === undefined ? undefined : load(file));
  let fn: StemFunction;
  if (stemmer === undefined) {
    fn = (key) => key;
  } else {
    const cache = new Map<string, string>();
    fn = (key) => {
      let stem = cache.get(key);
      if (stem === undefined) {
        if (key.length > MAX_STEMMED_LENGTH) return key;
        try {
          stem = stemmer.stem(key) || key;
        } catch {
          stem = key;
        }
        if (cache.size >= CACHE_LIMIT) cache.clear();
        cache.set(key, stem);
      }
      return stem;
    };
  }
  stemmers.set(language, fn);
  return fn;
}
