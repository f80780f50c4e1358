import { alignPassages } from './alignPassages.js';
import { DEFAULT_ALIGNMENT_OPTIONS } from './alignmentOptions.js';
import { analyzeText } from './analyzeText.js';
import { backgroundWeights } from './backgroundWeights.js';
import type { AnalyzedText } from './analyzeText.js';
import type { CheckPlagiarismOptions } from './checkOptions.js';
import { PLAGIARISM_TEXT_BOUNDS } from './checkOptions.js';
import { findCitedSites, hasAttribution, isCitedSource, isInReferenceList, quotedRanges, referenceEntries } from './citations.js';
import { classifyWords } from './classifyWords.js';
import { detectLanguage } from './detectLanguage.js';
import { InvalidArgumentError, TextLengthError, UnsupportedLanguageError } from './errors.js';
import { isExcluded, parseExcludedSources, hostOf } from './excludedSources.js';
import { contentStemHashes, fingerprintsOf, queryFingerprintsOf, stemHashFingerprints, stemHashQueryFingerprints } from './fingerprints.js';
import type { FingerprintOptions } from './fingerprints.js';
import { splitAtQuotations } from './splitAtQuotations.js';
import { keepBestSources } from './keepBestSources.js';
import { isPlagiarismLanguage } from './languages.js';
import type { PlagiarismLanguage } from './languages.js';
import { DEFAULT_CANDIDATE_OPTIONS } from './sourceIndex.js';
import { IndexSourceProvider } from './sourceProviders.js';
import type { FoundSource, SourceProvider, SourceQuery } from './sourceProviders.js';
import { wordFeatures } from './wordFeatures.js';

/** One aligned passage with its word kinds (see `classifyWords`). */
export interface PassageMatch {
  inputStart: number;
  inputEnd: number;
  sourceStart: number;
  sourceEnd: number;
  /** First input word of the passage. */
  inputFrom: number;
  /** Kind of each input word from `inputFrom`: 2 identical, 1 similar, 0 unmatched. */
  kinds: Uint8Array;
  /** A quotation with an attribution: reported as a citation, not counted. */
  quoted: boolean;
  similarity: number;
}

/** All passages of the input found in one source. */
export interface SourceMatch {
  found: FoundSource;
  passages: PassageMatch[];
  excluded: boolean;
  /** The input cites this source (its site or page appears in the text). */
  cited: boolean;
}

/** The analysis behind both results. */
export interface PlagiarismAnalysis {
  text: string;
  input: AnalyzedText;
  language: PlagiarismLanguage;
  matches: SourceMatch[];
  citedSites: string[];
}

/** Whether `[start, end)` lies mostly (80 %) inside one of the attributed `quotations`. */
function liesInQuotation(start: number, end: number, quotations: readonly [number, number][]): boolean {
  return quotations.some(([qs, qe]) => {
    const overlap = Math.min(end, qe) - Math.max(start, qs);
    return overlap > 0 && overlap >= 0.8 * (end - start);
  });
}

function resolveLanguage(language: unknown, text: string): PlagiarismLanguage {
  if (language === undefined || language === 'auto') return detectLanguage(text);
  if (typeof language !== 'string' || !isPlagiarismLanguage(language)) throw new UnsupportedLanguageError(String(language));
  return language;
}

/** What both halves of the check read: the validated options and the analysed input. */
interface PreparedCheck {
  language: PlagiarismLanguage;
  synonyms: boolean;
  rules: ReturnType<typeof parseExcludedSources>;
  alignment: typeof DEFAULT_ALIGNMENT_OPTIONS;
  input: AnalyzedText;
}

/** `withSynsets`: the alignment reads the input's WordNet synsets; finding sources does not (fingerprints are stems). */
function prepareCheck(text: unknown, options: CheckPlagiarismOptions, withSynsets: boolean): PreparedCheck & { text: string } {
  if (typeof text !== 'string') throw new InvalidArgumentError('text', 'a string', text);
  const bounds = options.bounds ?? PLAGIARISM_TEXT_BOUNDS.v2Chars;
  if (text.length < bounds.min || text.length > bounds.max) throw new TextLengthError(text.length, bounds.min, bounds.max, 'characters');
  const rules = parseExcludedSources(options.excludedSources ?? []);
  const language = resolveLanguage(options.language, text);
  const synonyms = options.synonyms ?? true;
  if (typeof synonyms !== 'boolean') throw new InvalidArgumentError('synonyms', 'a boolean', synonyms);
  const alignment = { ...DEFAULT_ALIGNMENT_OPTIONS, ...options.alignment };
  return { text, language, synonyms, rules, alignment, input: analyzeText(text, language, synonyms && withSynsets) };
}

function gatherSources(text: string, prepared: PreparedCheck, options: CheckPlagiarismOptions): Promise<FoundSource[]> {
  const { input, language } = prepared;
  return collectSources(text, language, options, {
    fingerprints: (fp) => fingerprintsOf(input, fp),
    allFingerprints: (fp) => queryFingerprintsOf(input, fp),
  });
}

async function collectSources(
  text: string,
  language: PlagiarismLanguage,
  options: CheckPlagiarismOptions,
  lookups: Pick<SourceQuery, 'fingerprints'> & { allFingerprints: NonNullable<SourceQuery['allFingerprints']> },
): Promise<FoundSource[]> {
  const candidates = { ...DEFAULT_CANDIDATE_OPTIONS, ...options.candidates };
  const providers: SourceProvider[] = [];
  if (options.index !== undefined) providers.push(new IndexSourceProvider(options.index));
  providers.push(...(options.providers ?? []));
  const found = new Map<string, FoundSource>();
  for (const provider of providers) {
    const sources = await provider.findSources({ text, language, candidates, ...lookups });
    for (const source of sources) if (!found.has(source.document.url)) found.set(source.document.url, source);
  }
  return [...found.values()];
}

/**
 * The candidate sources `analyzePlagiarism` would align `text` with (`options.index`, then `options.providers`, one
 * per URL), after the same validation, without reading WordNet (fingerprints are made of stems). With `FoundSourcesProvider` they let the alignment run where the index is not
 * (a worker thread) with the same result: `checkPlagiarism(text, {...options, index: undefined, providers: [new
 * FoundSourcesProvider(found)]})`.
 */
export async function findSources(text: string, options: CheckPlagiarismOptions = {}): Promise<FoundSource[]> {
  const prepared = prepareCheck(text, options, false);
  return gatherSources(prepared.text, prepared, options);
}

/**
 * The part of {@link findSources} that reads only the text and the plain options (the same validation, the text's
 * analysis and its fingerprints for each scheme of `schemes`), as plain data that crosses threads: a worker computes
 * it, and {@link findSourcesOf} looks the sources up where the index is. `findSourcesOf(text,
 * prepareSourceQuery(text, options, [index.fingerprintOptions]), options)` is `findSources(text, options)`.
 */
export function prepareSourceQuery(
  text: string,
  options: Omit<CheckPlagiarismOptions, 'index' | 'providers' | 'now' | 'background'> = {},
  schemes: readonly FingerprintOptions[] = [],
): PreparedSourceQuery {
  const { input, language } = prepareCheck(text, options, false);
  const stemHashes = contentStemHashes(input);
  return {
    language,
    stemHashes,
    fingerprints: schemes.map((scheme) => ({
      k: scheme.k,
      window: scheme.window,
      winnowed: stemHashFingerprints(stemHashes, scheme),
      all: stemHashQueryFingerprints(stemHashes, scheme),
    })),
  };
}

/** What {@link prepareSourceQuery} returns: the input's language, its content-word stem hashes and fingerprints. */
export interface PreparedSourceQuery {
  language: PlagiarismLanguage;
  /** `contentStemHashes` of the analysed input: any other scheme's fingerprints are made from them. */
  stemHashes: Uint32Array;
  /** Per scheme asked for: the winnowed fingerprints (`fingerprintsOf`) and all k-grams (`queryFingerprintsOf`). */
  fingerprints: { k: number; window: number; winnowed: Uint32Array; all: Uint32Array }[];
}

/** The candidate sources of `text` from its {@link prepareSourceQuery} (`options.index`, then `options.providers`). */
export async function findSourcesOf(text: string, query: PreparedSourceQuery, options: CheckPlagiarismOptions = {}): Promise<FoundSource[]> {
  const scheme = (fp: FingerprintOptions) => query.fingerprints.find((f) => f.k === fp.k && f.window === fp.window);
  return collectSources(text, query.language, options, {
    fingerprints: (fp) => scheme(fp)?.winnowed ?? stemHashFingerprints(query.stemHashes, fp),
    allFingerprints: (fp) => scheme(fp)?.all ?? stemHashQueryFingerprints(query.stemHashes, fp),
  });
}

/** Validates the request, finds candidate sources and aligns the input with each of them. */
export async function analyzePlagiarism(text: string, options: CheckPlagiarismOptions = {}): Promise<PlagiarismAnalysis> {
  const prepared = prepareCheck(text, options, true);
  const { language, synonyms, rules, alignment, input } = prepared;
  const found = await gatherSources(prepared.text, prepared, options);

  const citedSites = findCitedSites(text);
  const quotes = quotedRanges(text);
  const references = referenceEntries(text);
  const vocabulary = new Map<string, number>();
  const inputWords = wordFeatures(input, vocabulary);
  const readable = [...found.values()].filter((source) => source.canAccess !== false).map((source) => {
    const analyzed = analyzeText(source.document.text, language, synonyms);
    return { source, analyzed, words: wordFeatures(analyzed, vocabulary) };
  });
  // The background is the input's topic neighbours: not the sources found only by the k-grams winnowing leaves out.
  const neighbours = readable.filter((r) => r.source.background !== false).map((r) => r.words);
  const weights = backgroundWeights(neighbours, vocabulary, options.index?.stemFrequencies() ?? options.background);
  const matches: SourceMatch[] = [];
  for (const { source, analyzed, words: sourceWords } of readable) {
    const names = [source.document.author?.split(/\s+/).pop() ?? '', source.document.title ?? '', hostOf(source.document.url) ?? ''];
    // A quotation is attributed by a cue near it or, for a source the reference list names, by that entry.
    const referenced = isInReferenceList(references, names);
    const raw = alignPassages(inputWords, sourceWords, alignment, weights);
    // A cue the source shares is the source's own report ("\"...,\" Feehan added." copied whole): read without it.
    const copied = raw.map((p): [number, number] => [input.tokens.starts[p.inputFrom]!, input.tokens.ends[p.inputTo - 1]!]);
    const quotations = quotes.filter(([qs, qe]) => referenced || hasAttribution(text, qs, qe, names, copied));
    const aligned = raw.flatMap((p) => splitAtQuotations(p, quotations, inputWords, sourceWords, alignment, weights));
    if (aligned.length === 0) continue;
    const passages = aligned.map((p): PassageMatch => {
      const inputStart = input.tokens.starts[p.inputFrom]!;
      const inputEnd = input.tokens.ends[p.inputTo - 1]!;
      return {
        inputStart, inputEnd,
        sourceStart: analyzed.tokens.starts[p.sourceFrom]!, sourceEnd: analyzed.tokens.ends[p.sourceTo - 1]!,
        inputFrom: p.inputFrom, kinds: classifyWords(inputWords, sourceWords, p),
        quoted: liesInQuotation(inputStart, inputEnd, quotations), similarity: p.similarity,
      };
    });
    matches.push({ found: source, passages, excluded: isExcluded(source.document.url, rules), cited: isCitedSource(source.document.url, citedSites) });
  }
  return { text, input, language, matches: keepBestSources(matches), citedSites };
}
