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

/**
 * Opening quotation marks of the scripts and conventions in use, each with the closing marks it takes: English
 * “” and ‘’, German and Czech „“, Polish and Hungarian „”, Swedish and Finnish ”” and »», French, Spanish,
 * Russian «», Danish and German »«, Swiss ‹›, Chinese and Japanese 「」『』 and the vertical ﹁﹂, 〝〞, and straight
 * double quotes.
 */
const QUOTE_PAIRS: Readonly<Record<string, string>> = {
  '“': '”', '«': '»', '„': '“”', '"': '"', '「': '」', '『': '』', '‹': '›', '›': '‹', '»': '«»', '”': '”', '‘': '’',
  '﹁': '﹂', '﹃': '﹄', '〝': '〞〟', '＂': '＂',
};

const LETTER = /[\p{L}\p{N}]/u;

/** No closing mark before the end of the text (see {@link closingOf}). */
const UNCLOSED = -2;

/**
 * Where the quotation opened at `open` closes: the first of its closing marks after it (not an apostrophe); -1 when
 * a straight quote opens the next quotation first, {@link UNCLOSED} when none follows.
 */
function closingOf(text: string, open: number, closers: string): number {
  for (let j = open + 1; j < text.length; j++) {
    if (!closers.includes(text[j]!)) continue;
    // ’ inside a word is an apostrophe (don’t, l’homme), not the end of a ‘quotation’.
    if (text[j] === '’' && LETTER.test(text[j - 1] ?? '') && LETTER.test(text[j + 1] ?? '')) continue;
    // A straight quote right before a letter opens the next quotation: the one opened at `open` lacks its end.
    if ((text[j] === '"' || text[j] === '＂') && LETTER.test(text[j + 1] ?? '')) return -1;
    return j;
  }
  return UNCLOSED;
}

/** Lines of a block quotation: introduced by `>` (e-mail, Markdown) or indented by 4 spaces or a tab. */
const BLOCK_QUOTE_LINE = /^(?:[ \t]*>[ \t]?|    |\t)(?=\S)(.*)$/gm;

/** Marks that also close a quotation: they open one only where no letter comes right before them. */
const AMBIGUOUS_OPENERS = new Set(['‘', '”', '›', '»']);

/** Quotations inside quotations are looked for this many levels down (each level reads its quotations again). */
const NESTING_DEPTH = 2;

/** Ranges inside quotation marks in `text` (which starts at `offset` of the whole text), quotations nested `depth` levels deep too. */
function markedRanges(text: string, offset: number, depth: number): [number, number][] {
  const ranges: [number, number][] = [];
  // Opening marks with no closing mark after them: later ones of the same kind are not searched again (a text of
  // unpaired “ would otherwise be scanned to its end from each of them).
  const unclosed = new Set<string>();
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    const closers = unclosed.has(ch) ? undefined : QUOTE_PAIRS[ch];
    // A straight quote opens a quotation only before a non-space (a closing one is followed by a space or stop).
    const straight = ch === '"' || ch === '＂';
    if (closers === undefined || (AMBIGUOUS_OPENERS.has(ch) && LETTER.test(text[i - 1] ?? '')) || (straight && /\s|^$/.test(text[i + 1] ?? ''))) {
      i++;
      continue;
    }
    const end = closingOf(text, i, closers);
    if (end < 0) {
      if (end === UNCLOSED) unclosed.add(ch);
      i++;
      continue;
    }
    ranges.push([offset + i + 1, offset + end]);
    // A quotation inside this one (a host's unclosed dialogue holding an attributed quotation in other marks).
    if (depth > 0) ranges.push(...markedRanges(text.slice(i + 1, end), offset + i + 1, depth - 1));
    i = end + 1;
  }
  return ranges;
}

/**
 * Character ranges `[start, end)` of quotations, in order: text inside quotation marks of any script (‘, ”, ›
 * and » open one only after a space or a bracket, so an apostrophe opens nothing), and block quotations, runs of
 * lines marked with `>` or indented.
 */
export function quotedRanges(text: string): [number, number][] {
  const ranges = markedRanges(text, 0, NESTING_DEPTH);
  let block: [number, number] | undefined;
  for (const m of text.matchAll(BLOCK_QUOTE_LINE)) {
    const start = m.index + m[0].length - m[1]!.length;
    const end = m.index + m[0].length;
    // Consecutive lines (one line break apart) form one block quotation.
    if (block !== undefined && /^\r?\n$/.test(text.slice(block[1], m.index))) block[1] = end;
    else ranges.push(block = [start, end]);
  }
  return ranges.sort((a, b) => a[0] - b[0]);
}

const ATTRIBUTION = /\b(?:according to|said|says|say|wrote|writes|stated|states|argued|argues|noted|notes|explained|explains|told|asked|cited|quoted|in the words of|remarked|observed|claimed|claims|insisted|added|put it|selon|d'après|a déclaré|a dit|affirme|écrit|explique|laut|zufolge|sagte|sagt|schreibt|schrieb|erklärte|según|dijo|afirmó|escribió|explicó|segundo|disse|afirmou|secondo|ha detto|volgens|zei|schreef|enligt|według|powiedział|napisał)\b/i;

/**
 * Citation markers: an author-year reference, "(Okafor, 2019)", "(Okafor and Sato 2019, p. 4)", "Okafor (2019)",
 * and a numbered one, "[3]", "[3, 4]", "[3–5]".
 */
const CITATION_MARKER = /\((?:see )?\p{Lu}[\p{L}\p{N}'’.-]*(?:,? (?:et al\.|and|&|\p{Lu}[\p{L}\p{N}'’.-]*))*,? (?:\d{4}[a-z]?|n\.d\.)(?:[,:] ?(?:pp?\. ?)?\d+(?:[-–]\d+)?)?\)|\p{Lu}[\p{L}\p{N}'’.-]+ \(\d{4}[a-z]?\)|\[\d+(?:[,–-] ?\d+)*\]/u;

/** A dash before a capitalised name ("— Ada Lindqvist"), case-sensitive (" - the first" is no attribution). */
const DASH_NAME = /\s[-—–]\s*\p{Lu}\p{Ll}/u;

/** Reporting cues of the languages written without Latin letters (no word boundaries there). */
const ATTRIBUTION_OTHER_SCRIPTS = /по словам|согласно|сказал|заявил|отметил|пишет|написал|говорит|подчеркнул|قال|وفقا|حسب|بحسب|كتب|أكد|صرح|说|表示|指出|写道|据|によると|によれば|述べ|語っ|と言|と書|指摘し|と話|말했다|에 따르면|라고 밝혔|กล่าวว่า|ตามที่|เขียนว่า|ने कहा|के अनुसार|लिखा|का कहना|אמר|לדברי|είπε|σύμφωνα με/;

/** Headings of a reference list. */
const REFERENCE_HEADING = /^[ \t]*(?:references|bibliography|works cited|sources|literature|références|bibliographie|literatur|literaturverzeichnis|quellen|referencias|bibliografía|bibliografia|список литературы|литература|参考文献|引用文献|참고 ?문헌|المراجع|المصادر|บรรณานุกรม|संदर्भ)[ \t]*:?[ \t]*$/im;

/**
 * The entries of the text's reference list (the lines after a heading such as "References" or "Bibliography"),
 * lower case; empty when it has none.
 */
export function referenceEntries(text: string): string[] {
  const heading = REFERENCE_HEADING.exec(text);
  if (heading === null) return [];
  return text.slice(heading.index + heading[0].length).split('\n').map((l) => l.trim().toLowerCase()).filter((l) => l.length > 0);
}

/**
 * Whether a reference list (`entries`, {@link referenceEntries}) names the source: an entry holds one of
 * `sourceNames` (its author's last name, its title, its URL's host; 3 characters or more).
 */
export function isInReferenceList(entries: readonly string[], sourceNames: readonly string[]): boolean {
  return entries.some((entry) => sourceNames.some((name) => name.length >= 3 && entry.includes(name.toLowerCase())));
}

/**
 * Whether the quotation `[qs, qe)` has an attribution: a reporting verb (20 languages) or a dash before a name within
 * 100 characters before it or 60 after it, or within 200 characters a citation marker (author-year or numbered) or
 * one of `sourceNames` (the source's author, title or host). Characters in `copied` (input ranges aligned with the
 * source) are read as blank: a cue copied along with the quotation is the source's own report ("\"...,\" Feehan
 * added." copied whole), not the writer's attribution.
 */
export function hasAttribution(text: string, qs: number, qe: number, sourceNames: readonly string[],
  copied: readonly [number, number][] = []): boolean {
  // Text around the quotation that was copied along with it from the source (`copied`) is read as blank.
  const slice = (from: number, to: number): string => {
    const piece = text.slice(from, to);
    const hits = copied.filter(([cs, ce]) => cs < to && ce > from);
    if (hits.length === 0) return piece;
    let result = '';
    let at = from;
    for (const [cs, ce] of [...hits].sort((x, y) => x[0] - y[0])) {
      const start = Math.max(cs, at);
      const end = Math.min(ce, to);
      if (end <= start) continue;
      result += text.slice(at, start) + ' '.repeat(end - start);
      at = end;
    }
    return result + text.slice(at, to);
  };
  // A reporting verb belongs to the quotation when it is close: "As X wrote, “...”", "“...”, X said"; one further
  // away is the writer's own report of someone else ("The Department of Health said ..." two sentences on).
  const near = slice(Math.max(0, qs - 101), qs) + ' ' + slice(qe, qe + 61);
  if (ATTRIBUTION.test(near) || DASH_NAME.test(near) || ATTRIBUTION_OTHER_SCRIPTS.test(near)) return true;
  const around = slice(Math.max(0, qs - 201), qs) + ' ' + slice(qe, qe + 201);
  if (CITATION_MARKER.test(around)) return true;
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
