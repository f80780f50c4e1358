import { languageCues, type LanguageCues } from './languageCues.js';

/** A sentence of the analysed text with its character span (`text === source.slice(start, end)`). */
export interface Sentence {
  /** 1-based position in the text, the id claims refer to. */
  id: number;
  text: string;
  start: number;
  end: number;
}

const segmenters = new Map<string, Intl.Segmenter>();

const TERMINATORS = /[.!?…。！？।॥؟;]/u;
const ENDS_WITH_STOP = /[.!?…。！？।॥؟;]["'”’)\]]*$/u;

function sentenceSegmenter(language: string): Intl.Segmenter {
  let segmenter = segmenters.get(language);
  if (!segmenter) {
    segmenter = new Intl.Segmenter(language, { granularity: 'sentence' });
    segmenters.set(language, segmenter);
  }
  return segmenter;
}

// Abbreviations that often end a sentence ("... and so on."): before a capital they end it like any other word.
const CLOSING_ABBREVIATIONS = new Set(['etc', 'usw', 'ecc', 'itd', 'itp', 'atd', 'atď', 'osv', 'jne', 'stb', 'enz', 'dll', 'dsb', 'dst', 'vb', 'ipd', 'utt', 'mv', 'т.д', 'т.п', 'и.т.д', 'κ.λπ', 'v.v', 'n.k']);

/** The guard's word sets of one language, built once. */
interface Guard {
  abbreviations: ReadonlySet<string>;
  months: ReadonlySet<string>;
  ordinalLeads: ReadonlySet<string>;
  ordinalPeriod: boolean;
}

const guards = new Map<LanguageCues, Guard>();

function guardOf(cues: LanguageCues): Guard {
  let guard = guards.get(cues);
  if (!guard) {
    guard = {
      // Abbreviations written with inner spaces ("a. c.") are matched without them, like "z. B." -> "z.b".
      abbreviations: new Set(cues.abbreviations.map((a) => a.replace(/\s+/g, '').replace(/\.$/, ''))),
      months: new Set(cues.months),
      ordinalLeads: new Set(cues.ordinalLeads ?? []),
      ordinalPeriod: cues.ordinalPeriod,
    };
    guards.set(cues, guard);
  }
  return guard;
}

/**
 * Splits `text` into sentences, keeping offsets: Unicode sentence boundaries (`Intl.Segmenter` for `language`, UAX
 * #29), then a guard per language ({@link languageCues}) removes the boundaries that follow an abbreviation (`Dr.`,
 * `z. B.`, `p. ex.`, `EE. UU.`), an initial (`J. K.`) or, where ordinals take a period, an ordinal date (`am 13.
 * August 1961`, `1961. augusztus 13.`); a line break alone does not end a sentence, a blank line does. Leading and
 * trailing white space is trimmed from each span.
 * @param language a code of `FACT_CHECK_LANGUAGES` (@default 'en')
 */
export function segmentSentences(text: string, language = 'en'): Sentence[] {
  const guard = guardOf(languageCues(language));
  const cuts: number[] = [];
  // Text with no sentence stop before its end (a title, a one-sentence passage) needs no segmenter.
  const inner = TERMINATORS.test(text.trimEnd().slice(0, -1));
  for (const { index, segment } of inner ? sentenceSegmenter(language).segment(text) : []) {
    const end = index + segment.length;
    if (end >= text.length) break;
    const body = segment.trimEnd();
    // A single line break (wrapped text, a heading) is left to the blank-line rule below.
    if (!ENDS_WITH_STOP.test(body)) continue;
    if (body.endsWith('.') && keepsGoing(body, text.slice(end, end + 40), guard)) continue;
    cuts.push(index + body.length);
  }
  for (const match of text.matchAll(/\n\s*\n/g)) cuts.push(match.index);
  cuts.sort((a, b) => a - b);

  const sentences: Sentence[] = [];
  let from = 0;
  for (const cut of [...cuts, text.length]) {
    if (cut <= from) continue;
    pushTrimmed(text, from, cut, sentences);
    from = cut;
  }
  return sentences;
}

/** Whether the period ending `body` belongs to an abbreviation, an initial or an ordinal rather than ending it. */
function keepsGoing(body: string, after: string, { abbreviations, months, ordinalLeads, ordinalPeriod }: Guard): boolean {
  // The word before the period, with inner periods and spaced parts of a dotted abbreviation ("z. B", "EE. UU").
  const tail = body.slice(-40);
  const word = /(?:^|[\s(\[«"“„])((?:\p{L}{1,4}\.\s?)*[\p{L}\p{N}°º-]+)\.$/u.exec(tail)?.[1] ?? '';
  const compact = word.replace(/\s+/g, '').toLowerCase();
  const last = /([\p{L}\p{N}°º-]+)$/u.exec(word)?.[1] ?? '';
  const next = /^\s*["'“‘(«„]?([\p{L}\p{N}]+)/u.exec(after)?.[1] ?? '';
  const closing = CLOSING_ABBREVIATIONS.has(compact) || CLOSING_ABBREVIATIONS.has(last.toLowerCase());
  if (closing) return !/^\p{Lu}/u.test(next);
  if (abbreviations.has(compact) || abbreviations.has(last.toLowerCase())) return true;
  // A single letter with a period: an initial (J. K. Rowling) or part of a dotted abbreviation (z. B., u. a.).
  if (/^\p{L}$/u.test(last)) return true;
  if (ordinalPeriod && /^\p{N}{1,4}$/u.test(last) && next !== '') {
    if (months.has(next.toLowerCase()) || /^\p{Ll}/u.test(next) || /^\p{N}/u.test(next)) return true;
    const before = /([\p{L}]+)\s+\p{N}{1,4}\.$/u.exec(tail)?.[1]?.toLowerCase() ?? '';
    if (ordinalLeads.has(before)) return true;
  }
  return false;
}

function pushTrimmed(text: string, from: number, to: number, out: Sentence[]): void {
  let start = from;
  let end = to;
  while (start < end && /\s/.test(text[start] ?? '')) start++;
  while (end > start && /\s/.test(text[end - 1] ?? '')) end--;
  if (end > start) out.push({ id: out.length + 1, text: text.slice(start, end), start, end });
}
