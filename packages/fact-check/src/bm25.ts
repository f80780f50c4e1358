export interface Bm25Options {
  /**
   * Term-frequency saturation.
   * @default 1.2
   */
  k1?: number;
  /**
   * Length normalisation.
   * @default 0.75
   */
  b?: number;
}

/** A BM25 index (Robertson and Zaragoza 2009) over token lists; documents are added incrementally. */
export class Bm25Index {
  readonly #k1: number;
  readonly #b: number;
  readonly #postings = new Map<string, Array<[doc: number, tf: number]>>();
  readonly #lengths: number[] = [];
  #totalLength = 0;

  constructor(options: Bm25Options = {}) {
    this.#k1 = options.k1 ?? 1.2;
    this.#b = options.b ?? 0.75;
  }

  get size(): number {
    return this.#lengths.length;
  }

  /** Adds a document and returns its index. */
  add(terms: readonly string[]): number {
    const doc = this.#lengths.length;
    const counts = new Map<string, number>();
    for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + 1);
    for (const [term, tf] of counts) {
      let list = this.#postings.get(term);
      if (!list) this.#postings.set(term, (list = []));
      list.push([doc, tf]);
    }
    this.#lengths.push(terms.length);
    this.#totalLength += terms.length;
    return doc;
  }

  /** The `limit` best documents for the query terms, best first, with their BM25 scores (only scores > 0). */
  search(terms: readonly string[], limit: number): Array<{ doc: number; score: number }> {
    const n = this.#lengths.length;
    if (n === 0) return [];
    const averageLength = this.#totalLength / n;
    const scores = new Map<number, number>();
    for (const term of new Set(terms)) {
      const list = this.#postings.get(term);
      if (!list) continue;
      const idf = Math.log(1 + (n - list.length + 0.5) / (list.length + 0.5));
      for (const [doc, tf] of list) {
        const norm = 1 - this.#b + (this.#b * (this.#lengths[doc] ?? 0)) / averageLength;
        scores.set(doc, (scores.get(doc) ?? 0) + (idf * tf * (this.#k1 + 1)) / (tf + this.#k1 * norm));
      }
    }
    return [...scores]
      .map(([doc, score]) => ({ doc, score }))
      .sort((a, b) => b.score - a.score || a.doc - b.doc)
      .slice(0, limit);
  }
}
