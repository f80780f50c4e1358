import { Bm25Index } from './bm25.js';
import { InvalidArgumentError } from './errors.js';
import { segmentSentences } from './segmentSentences.js';
import { stem } from './stem.js';
import { isContentWord } from './stopwords.js';
import { tokenize } from './tokenize.js';

/** A document the deployment trusts. */
export interface EvidenceDocument {
  url: string;
  title: string;
  text: string;
}

/** A passage of an evidence document, as retrieved for a claim. */
export interface EvidencePassage {
  url: string;
  title: string;
  text: string;
  /** BM25 score of the passage for the query. */
  score: number;
}

export interface EvidenceStoreOptions {
  /**
   * A passage is a run of consecutive sentences of at most this many words (a longer sentence is a passage alone).
   * @default 60
   */
  passageWords?: number;
}

/** Stemmed content words, the terms of the BM25 index. */
export function retrievalTerms(text: string): string[] {
  return tokenize(text).map((t) => t.lower).filter(isContentWord).map(stem);
}

/** Trusted documents split into passages of whole sentences, searched with BM25. */
export class EvidenceStore {
  readonly #index = new Bm25Index();
  readonly #passages: Array<{ document: EvidenceDocument; text: string }> = [];
  readonly #passageWords: number;
  #documents = 0;

  constructor(documents: Iterable<EvidenceDocument> = [], options: EvidenceStoreOptions = {}) {
    this.#passageWords = options.passageWords ?? 60;
    if (!Number.isInteger(this.#passageWords) || this.#passageWords < 1) {
      throw new InvalidArgumentError('passageWords', 'a positive integer', options.passageWords);
    }
    for (const document of documents) this.add(document);
  }

  /** Number of documents added. */
  get documentCount(): number {
    return this.#documents;
  }

  /** Number of passages indexed. */
  get passageCount(): number {
    return this.#passages.length;
  }

  /** Adds a document; its passages become searchable at once. */
  add(document: EvidenceDocument): void {
    for (const field of ['url', 'title', 'text'] as const) {
      if (typeof document?.[field] !== 'string') throw new InvalidArgumentError(`document.${field}`, 'a string', document?.[field]);
    }
    this.#documents++;
    let current: string[] = [];
    let words = 0;
    const flush = () => {
      if (current.length === 0) return;
      const text = current.join(' ');
      this.#passages.push({ document, text });
      // The title helps find the passage ("Eiffel Tower": "It is 330 m tall").
      this.#index.add([...retrievalTerms(text), ...retrievalTerms(document.title)]);
      current = [];
      words = 0;
    };
    for (const sentence of segmentSentences(document.text)) {
      const count = tokenize(sentence.text).length;
      if (words > 0 && words + count > this.#passageWords) flush();
      current.push(sentence.text);
      words += count;
    }
    flush();
  }

  /** The `limit` passages that best match `query`, best first. */
  search(query: string, limit = 5): EvidencePassage[] {
    return this.#index.search(retrievalTerms(query), limit).map(({ doc, score }) => {
      const passage = this.#passages[doc];
      if (!passage) throw new RangeError(`no passage ${doc}`);
      return { url: passage.document.url, title: passage.document.title, text: passage.text, score };
    });
  }
}
