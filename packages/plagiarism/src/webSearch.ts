import type { FoundSource, SourceProvider, SourceQuery } from './sourceProviders.js';
import { segmentWords } from './segments.js';
import { tokenize } from './tokenize.js';
import type { SourceDocument } from './types.js';

/** One hit of a web search. */
export interface WebSearchHit {
  url: string;
  title?: string | undefined;
  snippet?: string | undefined;
}

/**
 * A real search service, plugged in by a deployment: `search` runs one query, `fetchDocument` reads a hit's
 * page as text (through the project's guarded fetcher, for instance) or returns undefined when it cannot.
 */
export interface WebSearchProvider {
  search(query: string, options: { language: string; maxResults: number }): Promise<WebSearchHit[]>;
  fetchDocument(hit: WebSearchHit): Promise<SourceDocument | undefined>;
}

export interface WebSearchSourceOptions {
  /**
   * Queries sent per check: the longest segments of the input, spread over it.
   * @default 5
   */
  queries: number;
  /**
   * Results asked per query.
   * @default 5
   */
  resultsPerQuery: number;
  /**
   * Words per query.
   * @default 12
   */
  queryWords: number;
}

export const DEFAULT_WEB_SEARCH_SOURCE_OPTIONS: Readonly<WebSearchSourceOptions> = Object.freeze({ queries: 5, resultsPerQuery: 5, queryWords: 12 });

/** Queries for a web search: the first `queryWords` words of the longest segments, in text order. */
export function searchQueries(text: string, options: WebSearchSourceOptions = DEFAULT_WEB_SEARCH_SOURCE_OPTIONS): string[] {
  const tokens = tokenize(text);
  const bounds = segmentWords(tokens, 40);
  const segments: { from: number; to: number }[] = [];
  for (let s = 0; s + 1 < bounds.length; s++) segments.push({ from: bounds[s]!, to: bounds[s + 1]! });
  const chosen = segments.filter((s) => s.to - s.from >= 6).sort((a, b) => (b.to - b.from) - (a.to - a.from) || a.from - b.from)
    .slice(0, options.queries).sort((a, b) => a.from - b.from);
  return chosen.map(({ from, to }) => {
    const last = Math.min(to, from + options.queryWords) - 1;
    return `"${text.slice(tokens.starts[from]!, tokens.ends[last]!)}"`;
  });
}

/** A {@link SourceProvider} over a {@link WebSearchProvider}: searches, then fetches each distinct hit once. */
export class WebSearchSourceProvider implements SourceProvider {
  readonly id: string;
  private readonly provider: WebSearchProvider;
  private readonly options: WebSearchSourceOptions;

  constructor(provider: WebSearchProvider, options: Partial<WebSearchSourceOptions> = {}, id = 'web') {
    this.provider = provider;
    this.options = { ...DEFAULT_WEB_SEARCH_SOURCE_OPTIONS, ...options };
    this.id = id;
  }

  async findSources(query: SourceQuery): Promise<FoundSource[]> {
    const hits = new Map<string, WebSearchHit>();
    for (const q of searchQueries(query.text, this.options)) {
      for (const hit of await this.provider.search(q, { language: query.language, maxResults: this.options.resultsPerQuery })) {
        if (!hits.has(hit.url)) hits.set(hit.url, hit);
      }
    }
    const found: FoundSource[] = [];
    for (const hit of [...hits.values()].slice(0, query.candidates.maxCandidates)) {
      const document = await this.provider.fetchDocument(hit).catch(() => undefined);
      if (document !== undefined) found.push({ document, provider: this.id });
      else found.push({ document: { url: hit.url, title: hit.title, description: hit.snippet, text: hit.snippet ?? '' }, canAccess: false, provider: this.id });
    }
    return found;
  }
}
