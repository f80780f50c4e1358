import { SearchProviderError } from './errors.js';
import { EvidenceStore, type EvidencePassage } from './evidenceStore.js';
import type { WebSearchProvider } from './searchProvider.js';

export interface GatherEvidenceOptions {
  store: EvidenceStore;
  searchProvider?: WebSearchProvider;
  language: string;
  /**
   * Passages per claim.
   * @default 5
   */
  passagesPerClaim?: number;
  /**
   * Documents asked of the search provider per claim.
   * @default 5
   */
  searchResults?: number;
  signal?: AbortSignal;
}

/** What retrieval found for one query, plus a provider failure when there was one (the store's passages still count). */
export interface GatheredEvidence {
  passages: EvidencePassage[];
  searchError?: SearchProviderError;
}

/**
 * Evidence for the claims of one request: passages from the store and, when a search provider is given, from the
 * documents it returns (ranked together with BM25). Results are cached per normalised query for the request, so
 * the same claim is never searched twice.
 */
export class EvidenceGatherer {
  readonly #cache = new Map<string, Promise<GatheredEvidence>>();
  readonly #options: GatherEvidenceOptions;

  constructor(options: GatherEvidenceOptions) {
    this.#options = options;
  }

  /** Passages for a claim, best first. */
  gather(query: string): Promise<GatheredEvidence> {
    const key = query.toLowerCase().replace(/\s+/g, ' ').trim();
    let found = this.#cache.get(key);
    if (!found) {
      found = this.#search(query);
      this.#cache.set(key, found);
    }
    return found;
  }

  async #search(query: string): Promise<GatheredEvidence> {
    const { store, searchProvider, language, signal } = this.#options;
    const limit = this.#options.passagesPerClaim ?? 5;
    const passages = store.search(query, limit);
    if (!searchProvider) return { passages };
    try {
      const documents = await searchProvider.search(query, { limit: this.#options.searchResults ?? 5, language, ...(signal ? { signal } : {}) });
      const web = new EvidenceStore(documents).search(query, limit);
      // BM25 scores of two indexes are not on one scale: interleave, store first, dropping duplicate texts.
      const merged: EvidencePassage[] = [];
      const seen = new Set<string>();
      for (let i = 0; merged.length < limit && (i < passages.length || i < web.length); i++) {
        for (const passage of [passages[i], web[i]]) {
          if (passage && !seen.has(passage.text) && merged.length < limit) {
            seen.add(passage.text);
            merged.push(passage);
          }
        }
      }
      return { passages: merged };
    } catch (error) {
      return { passages, searchError: new SearchProviderError(error) };
    }
  }
}
