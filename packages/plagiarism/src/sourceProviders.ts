import type { PlagiarismLanguage } from './languages.js';
import { SourceIndex } from './sourceIndex.js';
import type { CandidateOptions } from './sourceIndex.js';
import type { SourceDocument } from './types.js';

/** What a provider is asked: the input and its fingerprints (same scheme as the provider's index, if any). */
export interface SourceQuery {
  text: string;
  language: PlagiarismLanguage;
  /** Winnowed fingerprints of the input, computed with `fingerprintsFor`. */
  fingerprints: (options: SourceIndex['fingerprintOptions']) => Uint32Array;
  /**
   * All k-gram fingerprints of the input (`queryFingerprintsOf`), for a second lookup that fills the candidate
   * slots the winnowed one left free. @default none
   */
  allFingerprints?: ((options: SourceIndex['fingerprintOptions']) => Uint32Array) | undefined;
  candidates: Readonly<CandidateOptions>;
}

/** A candidate source with the document's full text. */
export interface FoundSource {
  document: SourceDocument;
  /** Whether the text could be read; false when only metadata came back. @default true */
  canAccess?: boolean | undefined;
  /** Which provider found it, reported as the source object's `source`. */
  provider: string;
  /**
   * Whether it is one of the input's topic neighbours the rarity background is made of: false for a source found
   * only by the input's k-grams that winnowing leaves out (a reworded passage's few remaining runs), aligned but
   * not counted as a neighbour. @default true
   */
  background?: boolean | undefined;
}

/** Where candidate sources come from: the index, a folder or JSONL collection, or a web search service. */
export interface SourceProvider {
  readonly id: string;
  findSources(query: SourceQuery): Promise<FoundSource[]> | FoundSource[];
}

/** Candidates from a {@link SourceIndex}. */
export class IndexSourceProvider implements SourceProvider {
  readonly id: string;
  private readonly index: SourceIndex;

  constructor(index: SourceIndex, id = 'index') {
    this.index = index;
    this.id = id;
  }

  findSources(query: SourceQuery): Promise<FoundSource[]> | FoundSource[] {
    // A shared index first takes in what other nodes wrote, so that candidates and stem frequencies include it.
    if (this.index.isShared) return this.index.refresh().then(() => this.fromIndex(query));
    return this.fromIndex(query);
  }

  private fromIndex(query: SourceQuery): FoundSource[] {
    const fingerprints = query.fingerprints(this.index.fingerprintOptions);
    const found: FoundSource[] = [];
    const seen = new Set<number>();
    for (const { id } of this.index.candidates(fingerprints, query.candidates)) {
      const stored = this.index.getById(id);
      seen.add(id);
      if (stored !== undefined) found.push({ document: stored.document, provider: this.id });
    }
    const free = query.candidates.maxCandidates - seen.size;
    if (query.allFingerprints === undefined || free <= 0) return found;
    // The free slots go to documents sharing any k-gram with the input (the stored fingerprints are winnowed; the
    // input's winnowing keeps a shared gram only where both windows select it).
    let added = 0;
    for (const { id } of this.index.candidates(query.allFingerprints(this.index.fingerprintOptions), query.candidates)) {
      if (seen.has(id) || added >= free) continue;
      const stored = this.index.getById(id);
      if (stored === undefined) continue;
      found.push({ document: stored.document, provider: this.id, background: false });
      added++;
    }
    return found;
  }
}

/** Candidates from a fixed list of documents (a folder or JSONL file), indexed in memory on creation. */
export class DocumentsSourceProvider extends IndexSourceProvider {
  constructor(documents: Iterable<SourceDocument>, id = 'documents') {
    const index = SourceIndex.open();
    index.addMany(documents);
    super(index, id);
  }
}

/** Sources found already (`findSources`), returned as they are: the alignment of a worker thread reads no index. */
export class FoundSourcesProvider implements SourceProvider {
  readonly id = 'found';
  private readonly found: readonly FoundSource[];

  constructor(found: readonly FoundSource[]) {
    this.found = found;
  }

  findSources(): FoundSource[] {
    return [...this.found];
  }
}
