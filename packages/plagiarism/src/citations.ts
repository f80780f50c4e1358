import { hostOf } from './excludedSources.js';

const URL_PATTERN = /\bhttps?:\/\/[^\s<>"'()[\]{}]+|\bwww\.[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+[^\s<>"'()[\]{}]*|\b[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.(?:com|org|net|edu|gov|int|mil|io|info|biz|co|uk|de|fr|es|it|nl|eu|ca|au|jp|cn|ru|br|in|ch|se|no|dk|fi|pl)\b(?:\/[^\s<>"'()[\]{}]*)?/g;

// What URL_PATTERN can match never holds these, so matching runs piece by piece between them.
const NOT_IN_URL = /[\s<>"'()[\]{}]+/;
// The bare-domain alternative backtracks: quadratic in a run such as `a.a.a.a...` (4 s on 40,000 characters). It is
// tried only on pieces up to this long; longer pieces are searched for `http(s)://` and `www.` addresses only.
const LONGEST_DOMAIN_PIECE = 512;
const SCHEME_OR_WWW = /\bhttps?:\/\/[^\s<>"'()[\]{}]+|\bwww\.[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+[^\s<>"'()[\]{}]*/g;
const TRAILING_PUNCTUATION = new Set(['.', ',', ';', ':', '!', '?']);

/** The sites the text cites: URLs, `www.` addresses and bare domain names, as written, each once. */
export function findCitedSites(text: string): string[] {
  const found = new Set<string>();
  for (const piece of text.split(NOT_IN_URL)) {
    if (!piece.includes('.')) continue;
    const pattern = piece.length <= LONGEST_DOMAIN_PIECE ? URL_PATTERN : SCHEME_OR_WWW;
    for (const match of piece.matchAll(pattern)) found.add(withoutTrailingPunctuation(match[0]));
  }
  return [...found];
}

/** `site` without the sentence punctuation after it (a loop: `/[.,;:!?]+$/` rescans every run of dots). */
function withoutTrailingPunctuation(site: string): string {
  let end = site.length;
  while (end > 0 && TRAILING_PUNCTUATION.has(site[end - 1]!)) end -= 1;
  return site.slice(0, end);
}

function withScheme(site: string): string {
  return /^https?:\/\//i.test(site) ? site : `http://${site}`;
}

const stripScheme = (url: string): string => url.replace(/^https?:\/\//i, '').replace(/^www\./i, '').replace(/\/$/, '').toLowerCase();

/** Whether the source at `url` is one of the cited sites (same page, or a page of a cited domain). */
export function isCitedSource(url: string, cited: readonly string[]): boolean {
  const host = hostOf(url)?.toLowerCase().replace(/^www\./, '');
  for (const site of cited) {
    const citedHost = hostOf(withScheme(site))?.toLowerCase().replace(/^www\./, '');
    if (citedHost === undefined || host === undefined) continue;
    const isPage = /\//.test(site.replace(/^https?:\/\//i, '').replace(/\/$/, ''));
    if (isPage) {
      if (stripScheme(url) === stripScheme(withScheme(site))) return true;
    } else if (host === citedHost || host.endsWith(`.${citedHost}`)) {
      return true;
    }
  }
  return false;
}

const QUOTE_PAIRS: Readonly<Record<string, string>> = { '“': '”', '«': '»', '„': '“', '"': '"', '「': '」', '『': '』', '‹': '›' };

/** Character ranges `[start, end)` inside quotation marks. */
export function quotedRanges(text: string): [number, number][] {
  const ranges: [number, number][] = [];
  let i = 0;
  while (i < text.length) {
    const close = QUOTE_PAIRS[text[i]!];
    if (close === undefined) {
      i++;
      continue;
    }
    const end = text.indexOf(close, i + 1);
    if (end < 0) break;
    ranges.push([i + 1, end]);
    i = end + 1;
  }
  return ranges;
}

const ATTRIBUTION = /\b(?:according to|said|says|say|wrote|writes|stated|states|argued|argues|noted|notes|explained|explains|told|asked|cited|quoted|in the words of)\b|\([^()]*\b\d{4}[a-z]?\b[^()]*\)|\[\d+\]|\s[-—–]\s*[A-Z]/i;

/**
 * Whether the quotation `[qs, qe)` has an attribution: the 200 characters around it name a speaker or reference
 * (a reporting verb, a parenthetical reference with a year, a numbered reference, a dash before a name, or one of
 * `sourceNames`: the source's author, title or host).
 */
export function hasAttribution(text: string, qs: number, qe: number, sourceNames: readonly string[]): boolean {
  const around = text.slice(Math.max(0, qs - 201), qs) + ' ' + text.slice(qe, qe + 201);
  if (ATTRIBUTION.test(around)) return true;
  const lower = around.toLowerCase();
  return sourceNames.some((name) => name.length >= 3 && lower.includes(name.toLowerCase()));
}

/**
 * Whether the passage `[start, end)` is a quotation with an attribution: it lies mostly (80 %) inside
 * quotation marks, and the quotation has an attribution ({@link hasAttribution}).
 */
export function isAttributedQuote(text: string, start: number, end: number, quotes: readonly [number, number][],
  sourceNames: readonly string[]): boolean {
  for (const [qs, qe] of quotes) {
    const overlap = Math.min(end, qe) - Math.max(start, qs);
    if (overlap <= 0 || overlap < 0.8 * (end - start)) continue;
    if (hasAttribution(text, qs, qe, sourceNames)) return true;
  }
  return false;
}
