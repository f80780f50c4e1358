import type { EvidenceDocument } from './evidenceStore.js';

/** Options passed to a {@link WebSearchProvider} for one query. */
export interface WebSearchOptions {
  /** Most documents wanted. */
  limit: number;
  /** Language of the checked text (2-letter code). */
  language: string;
  /** Aborted when the request is cancelled. */
  signal?: AbortSignal;
}

/**
 * A web search service plugged in by the deployment: returns documents (url, title and the page text or snippet) for
 * a claim. Their passages are ranked with BM25 together with the store's, per request, and never added to the store.
 */
export interface WebSearchProvider {
  search(query: string, options: WebSearchOptions): Promise<EvidenceDocument[]>;
}
