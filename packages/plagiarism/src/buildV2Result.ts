import { countWords } from '@content-analysis/credits';
import type { PassageMatch, PlagiarismAnalysis, SourceMatch } from './analyzePlagiarism.js';
import { IDENTICAL, SIMILAR } from './classifyWords.js';
import type { PlagiarismSourceResult, PlagiarismV2Result } from './resultTypes.js';
import type { PlagiarismSequence } from './types.js';

const round2 = (x: number): number => Math.round(x * 100) / 100;

function sequence(text: string, startIndex: number, endIndex: number): PlagiarismSequence {
  return { startIndex, endIndex, sequence: text.slice(startIndex, endIndex) };
}

/** Passages of a source that its figures describe: the unquoted ones, or all when every one is quoted. */
function reportedPassages(match: SourceMatch): PassageMatch[] {
  const unquoted = match.passages.filter((p) => !p.quoted);
  return unquoted.length > 0 ? unquoted : match.passages;
}

/** Per input word, the strongest kind over the passages (2 identical, 1 similar). */
function markWords(kinds: Uint8Array, passages: readonly PassageMatch[]): void {
  for (const p of passages) {
    for (let k = 0; k < p.kinds.length; k++) {
      const i = p.inputFrom + k;
      if (p.kinds[k]! > kinds[i]!) kinds[i] = p.kinds[k]!;
    }
  }
}

function tally(kinds: Uint8Array): { identical: number; similar: number } {
  let identical = 0;
  let similar = 0;
  for (const kind of kinds) {
    if (kind === IDENTICAL) identical++;
    else if (kind === SIMILAR) similar++;
  }
  return { identical, similar };
}

/** Union of `[start, end)` ranges, merged where they overlap or touch. */
function mergeRanges(ranges: [number, number][]): [number, number][] {
  ranges.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const out: [number, number][] = [];
  for (const [s, e] of ranges) {
    const last = out[out.length - 1];
    if (last !== undefined && s <= last[1]) last[1] = Math.max(last[1], e);
    else out.push([s, e]);
  }
  return out;
}

export interface BuildV2Options {
  scanTime: Date;
  inputType: 'text' | 'file' | 'website';
}

/**
 * The v2 result (spec, "Plagiarism result (v2)") without `credits_used` and `credits_remaining`:
 * - a source's figures count the input words of its passages: `identicalWordCounts` (same word),
 *   `similarWordCounts` (same stem or WordNet synonym), `plagiarismWords` (their sum), `score` (percent of the
 *   input's words); `plagiarismFound` lists its passages in the input;
 * - a passage in quotation marks with an attribution is a citation: left out of the source's figures (unless
 *   all its passages are quotations) and never counted; a source the text cites (its page or site) has
 *   `citation: true`; an excluded source has `is_excluded: true`; neither counts toward `result`;
 * - `result` counts each input word once over the counting sources (identical wins over similar);
 *   `indexes` is the union of their passages; `similarWords` lists the similar words by character offset;
 * - word counts use the project's word counter, so `textWordCounts` is the count that is charged.
 */
export function buildV2Result(analysis: PlagiarismAnalysis, options: BuildV2Options): PlagiarismV2Result {
  const { text, input } = analysis;
  const textWordCounts = countWords(text);
  const counting = new Uint8Array(input.tokens.length);
  const ranges: [number, number][] = [];
  const sources: PlagiarismSourceResult[] = [];
  let sourceCounts = 0;
  for (const match of analysis.matches) {
    const passages = reportedPassages(match);
    const citation = match.cited || match.passages.every((p) => p.quoted);
    const kinds = new Uint8Array(input.tokens.length);
    markWords(kinds, passages);
    const { identical, similar } = tally(kinds);
    const document = match.found.document;
    sources.push({
      score: textWordCounts === 0 ? 0 : Math.min(100, round2((100 * (identical + similar)) / textWordCounts)),
      canAccess: match.found.canAccess ?? true,
      url: document.url,
      title: document.title ?? '',
      plagiarismWords: identical + similar,
      identicalWordCounts: identical,
      similarWordCounts: similar,
      totalNumberOfWords: countWords(document.text),
      author: document.author ?? '',
      description: document.description ?? '',
      publishedDate: Math.round(document.publishedDate ?? 0),
      source: match.found.provider,
      citation,
      plagiarismFound: passages.map((p) => sequence(text, p.inputStart, p.inputEnd)),
      is_excluded: match.excluded,
    });
    if (match.excluded || citation) continue;
    sourceCounts++;
    markWords(counting, passages);
    for (const p of passages) ranges.push([p.inputStart, p.inputEnd]);
  }
  sources.sort((a, b) => b.score - a.score || a.url.localeCompare(b.url));
  const { identical, similar } = tally(counting);
  const similarWords: { index: number; word: string }[] = [];
  counting.forEach((kind, i) => {
    if (kind === SIMILAR) similarWords.push({ index: input.tokens.starts[i]!, word: text.slice(input.tokens.starts[i]!, input.tokens.ends[i]!) });
  });
  return {
    status: 200,
    scanInformation: { service: 'plagiarism', scanTime: options.scanTime.toISOString(), inputType: options.inputType, language: analysis.language },
    result: {
      score: textWordCounts === 0 ? 0 : Math.min(100, round2((100 * (identical + similar)) / textWordCounts)),
      sourceCounts,
      textWordCounts,
      totalPlagiarismWords: identical + similar,
      identicalWordCounts: identical,
      similarWordCounts: similar,
    },
    sources,
    attackDetected: { zero_width_space: input.tokens.zeroWidth, homoglyph_attack: input.tokens.homoglyph },
    text,
    similarWords,
    citations: analysis.citedSites,
    indexes: mergeRanges(ranges).map(([s, e]) => sequence(text, s, e)),
  };
}
