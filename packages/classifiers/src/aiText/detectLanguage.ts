import { franc } from 'franc';

/**
 * ISO 639-3 codes franc reports (individual languages; franc names macrolanguages by their main member) and their
 * ISO 639-1 codes: the languages of the API's plagiarism and fact-check lists that franc models. Icelandic and Irish
 * are not among franc's languages.
 */
const ISO_639_1: Readonly<Record<string, string>> = {
  eng: 'en', fra: 'fr', deu: 'de', spa: 'es', por: 'pt', nld: 'nl', ita: 'it', cmn: 'zh', nob: 'no', nno: 'no',
  swe: 'sv', dan: 'da', fin: 'fi', pol: 'pl', ces: 'cs', slk: 'sk', ron: 'ro', hun: 'hu', bul: 'bg', hrv: 'hr',
  ell: 'el', tur: 'tr', heb: 'he', arb: 'ar', vie: 'vi', zlm: 'ms', ind: 'id', tha: 'th', kor: 'ko', jpn: 'ja',
  rus: 'ru', kaz: 'kk', kat: 'ka', tgl: 'tl', hin: 'hi', ben: 'bn', pes: 'fa', urd: 'ur', mal: 'ml', tam: 'ta',
  tel: 'te', kan: 'kn', mar: 'mr', guj: 'gu', ukr: 'uk', als: 'sq', ekk: 'et', lvs: 'lv', lit: 'lt', srp: 'sr',
  slv: 'sl', swh: 'sw',
};
const CANDIDATES = Object.keys(ISO_639_1);
const SAMPLE_CHARS = 20_000;
/**
 * Above this share of the sample's non-space characters being control, unassigned, private-use or replacement
 * characters (U+FFFD), the text is bytes rather than language: franc would still guess from its few letters
 * (random bytes read as Latin-1 come out Portuguese, read as UTF-8 Serbian).
 */
const MAX_NOISE_SHARE = 0.05;
const NOISE = /(?!\s)[\p{Cc}\p{Cn}\p{Co}\uFFFD]/gu;
const NON_SPACE = /\S/gu;

/**
 * The language of a text as a 2-letter code, or `und` when it cannot be told: franc (Titus Wormer's trigram
 * language identifier, after Cavnar & Trenkle 1994) over the first 20,000 characters, among the 50 languages above
 * (the API's language lists), so that English prose is not read as a closely related minority language (Scots).
 * A sample with more noise (control or undecodable characters) than `MAX_NOISE_SHARE` is `und` without asking franc.
 */
export function detectLanguage(text: string): string {
  const sample = text.slice(0, SAMPLE_CHARS);
  const noise = sample.match(NOISE)?.length ?? 0;
  if (noise > MAX_NOISE_SHARE * (sample.match(NON_SPACE)?.length ?? 0)) return 'und';
  const code = franc(sample, { only: CANDIDATES, minLength: 10 });
  return ISO_639_1[code] ?? 'und';
}
