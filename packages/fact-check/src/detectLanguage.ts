import type { FactCheckLanguage } from './languages.js';

// Scripts used by one supported language only (or decided further below for Cyrillic and Han/Kana).
const SCRIPTS: ReadonlyArray<[RegExp, FactCheckLanguage]> = [
  [/\p{Script=Arabic}/u, 'ar'],
  [/\p{Script=Bengali}/u, 'bn'],
  [/\p{Script=Hangul}/u, 'ko'],
  [/\p{Script=Greek}/u, 'el'],
  [/\p{Script=Hebrew}/u, 'he'],
  [/\p{Script=Devanagari}/u, 'hi'],
  [/\p{Script=Thai}/u, 'th'],
];

// Frequent function words per Latin-script language; the language with most hits wins.
const LATIN_STOPWORDS: Readonly<Record<string, string>> = {
  en: 'the and of to in is that it was for on are with as by this be have from not which',
  fr: 'le la les et des est une du que dans pour pas sur au sont avec qui par ce il',
  de: 'der die und das ist nicht zu den von mit sich des auf ein eine dem für im auch wird',
  es: 'el la los las de que y en un una es por con para del se al lo como más',
  pt: 'o os as de que e do da em um uma para com não por mais dos das foi são',
  it: 'il lo la gli le di che e è un una per non con del della sono nel anche',
  nl: 'de het een en van is dat niet op te zijn met voor er ook aan bij wordt',
  da: 'og det er en at til på ikke med den for af som har de var jeg også',
  no: 'og det er en til på ikke med den for av som har de var jeg også ikkje eller',
  sv: 'och det är en att till på inte med den för av som har de var jag också',
  fi: 'ja on ei se että oli mutta kun myös ovat tai hän sen joka mukaan vuonna',
  et: 'ja on ei et see oli ka kui ning mis aga või tema seda oma olla',
  hu: 'a az és hogy nem is egy van meg de már el csak volt mint ez',
  pl: 'i w nie na się z to że do jest jak o po tak ale przez od są',
  cs: 'a v je se na že to s z do jako ale pro by jsou tak které podle',
  sk: 'a v je sa na že to s z do ako ale pre by sú tak ktoré podľa',
  sl: 'in je v na da se so za z ki ne po tudi kot pa bi od',
  hr: 'i je u na da se su za od ne kao što koji ili ali iz bi',
  sr: 'i je u na da se su za od ne kao što koji ili ali iz bi jer',
  ro: 'și de la în că nu cu pe o un este din care sunt mai pentru',
  lv: 'un ir ar par no uz ka kas bet arī to tas vai lai nav',
  lt: 'ir kad yra su į iš tai bet kaip ar jo o už buvo nuo',
  tr: 've bir bu da de için ile çok gibi daha olan ama ne var değil',
  id: 'yang dan di ini itu dengan untuk tidak dari dalam akan pada juga ke adalah',
  sw: 'na ya wa kwa ni la za katika kuwa hiyo huo hii pia lakini',
  vi: 'và của là có không được trong những các một cho với này người đã',
};

const STOPWORD_SETS = Object.entries(LATIN_STOPWORDS).map(
  ([code, words]) => [code as FactCheckLanguage, new Set(words.split(' '))] as const,
);

/**
 * Detects the language of `text` among the fact checker's languages: a unique script decides first (Arabic, Bengali,
 * Hangul, Greek, Hebrew, Devanagari, Thai); Kana means `ja`, Han without Kana `zh`; Cyrillic is told apart by
 * letters specific to Ukrainian (і ї є ґ), Serbian (ђ ј љ њ ћ џ), Russian (ы э ё) or else Bulgarian; Latin text is
 * scored by hits on ~20 frequent function words per language. Returns `fallback` when nothing matches.
 */
export function detectLanguage(text: string, fallback: FactCheckLanguage = 'en'): FactCheckLanguage {
  const sample = text.slice(0, 5000);
  for (const [script, code] of SCRIPTS) {
    if (countMatches(sample, script) > sample.length * 0.1) return code;
  }
  if (/[\p{Script=Hiragana}\p{Script=Katakana}]/u.test(sample)) return 'ja';
  if (countMatches(sample, /\p{Script=Han}/u) > sample.length * 0.1) return 'zh';
  if (countMatches(sample, /\p{Script=Cyrillic}/u) > sample.length * 0.2) {
    if (/[іїєґ]/iu.test(sample)) return 'uk';
    if (/[ђјљњћџ]/iu.test(sample)) return 'sr';
    if (/[ыэё]/iu.test(sample)) return 'ru';
    return 'bg';
  }
  const words = sample.toLowerCase().match(/[\p{L}\p{M}]+/gu) ?? [];
  let best: FactCheckLanguage = fallback;
  let bestHits = 0;
  for (const [code, stopwords] of STOPWORD_SETS) {
    let hits = 0;
    for (const word of words) if (stopwords.has(word)) hits++;
    if (hits > bestHits) {
      best = code;
      bestHits = hits;
    }
  }
  return best;
}

function countMatches(text: string, pattern: RegExp): number {
  let count = 0;
  for (const char of text) if (pattern.test(char)) count++;
  return count;
}
