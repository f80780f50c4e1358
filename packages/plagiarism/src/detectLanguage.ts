import { wordSpans } from '@content-analysis/credits';
import type { PlagiarismLanguage } from './languages.js';
import { STOPWORD_LANGUAGES, stopwordsOf } from './stopwords.js';

/** Unicode blocks that name one language each, or a family decided afterwards. */
const SCRIPTS: readonly (readonly [number, number, string])[] = [
  [0x0e00, 0x0e7f, 'th'], [0x10a0, 0x10ff, 'ka'], [0x0980, 0x09ff, 'bn'], [0x0a80, 0x0aff, 'gu'],
  [0x0b80, 0x0bff, 'ta'], [0x0c00, 0x0c7f, 'te'], [0x0c80, 0x0cff, 'kn'], [0x0d00, 0x0d7f, 'ml'],
  [0x0590, 0x05ff, 'he'], [0x0370, 0x03ff, 'el'], [0xac00, 0xd7af, 'ko'], [0x1100, 0x11ff, 'ko'],
  [0x3040, 0x30ff, 'kana'], [0x4e00, 0x9fff, 'han'], [0x3400, 0x4dbf, 'han'], [0x0600, 0x06ff, 'arabic'],
  [0x0400, 0x04ff, 'cyrillic'], [0x0900, 0x097f, 'devanagari'],
];

function scriptOf(c: number): string | undefined {
  if (c < 0x0370) return (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || (c >= 0xc0 && c <= 0x24f) ? 'latin' : undefined;
  for (const [lo, hi, name] of SCRIPTS) if (c >= lo && c <= hi) return name;
  if (c >= 0x1e00 && c <= 0x1eff) return 'latin';
  return undefined;
}

const SAMPLE_CHARS = 20_000;

function bestByStopwords(words: readonly string[], candidates: readonly PlagiarismLanguage[]): PlagiarismLanguage | undefined {
  let best: PlagiarismLanguage | undefined;
  let bestHits = 0;
  for (const language of candidates) {
    const stop = stopwordsOf(language);
    let hits = 0;
    for (const w of words) if (stop.has(w)) hits++;
    if (hits > bestHits) {
      best = language;
      bestHits = hits;
    }
  }
  return best;
}

/**
 * Guesses the language of `text` among the 47 supported codes (or returns `fallback`), from at most the first
 * 20,000 characters:
 * 1. the dominant script decides alone for Thai, Georgian, Bengali, Gujarati, Tamil, Telugu, Kannada, Malayalam,
 *    Hebrew, Greek and Korean; kana means Japanese, other Han text Chinese;
 * 2. Arabic script is Urdu when Urdu-only letters (ٹ ڈ ڑ ں ے) occur, Persian when Persian-only letters (پ چ ژ گ)
 *    occur, else Arabic; Cyrillic is Kazakh or Ukrainian when their own letters occur, else Russian or Bulgarian by
 *    stop words; Devanagari is Hindi or Marathi by stop words;
 * 3. Latin script is the language whose stop-word list covers most words (25 lists).
 * A simple detector: reliable on paragraphs, unreliable on a sentence or two of closely related languages
 * (Danish and Norwegian, Czech and Slovak, Malay and Indonesian).
 */
export function detectLanguage(text: string, fallback: PlagiarismLanguage = 'en'): PlagiarismLanguage {
  const sample = text.length > SAMPLE_CHARS ? text.slice(0, SAMPLE_CHARS) : text;
  const counts = new Map<string, number>();
  for (let i = 0; i < sample.length; i++) {
    const script = scriptOf(sample.charCodeAt(i));
    if (script !== undefined) counts.set(script, (counts.get(script) ?? 0) + 1);
  }
  let script: string | undefined;
  let most = 0;
  for (const [name, count] of counts) if (count > most) [script, most] = [name, count];
  if (script === undefined) return fallback;
  if ((script === 'han' || script === 'kana') && (counts.get('kana') ?? 0) > 0.05 * most) return 'ja';
  if (script === 'han') return 'zh';
  if (script === 'arabic') {
    if (/[ٹڈڑںے]/.test(sample)) return 'ur';
    if (/[پچژگ]/.test(sample)) return 'fa';
    return 'ar';
  }
  const spans = wordSpans(sample);
  const words: string[] = [];
  for (let i = 0; i < spans.length; i += 2) words.push(sample.slice(spans[i]!, spans[i + 1]!).toLowerCase());
  if (script === 'cyrillic') {
    if (/[әғқңөұүһ]/i.test(sample)) return 'kk';
    if (/[їєґ]/i.test(sample)) return 'uk';
    return bestByStopwords(words, ['ru', 'bg', 'uk']) ?? 'ru';
  }
  if (script === 'devanagari') return bestByStopwords(words, ['hi', 'mr']) ?? 'hi';
  if (script !== 'latin') return script as PlagiarismLanguage;
  const latin = STOPWORD_LANGUAGES.filter((l) => !['ru', 'uk', 'bg', 'kk', 'hi', 'mr'].includes(l));
  return bestByStopwords(words, latin) ?? fallback;
}
