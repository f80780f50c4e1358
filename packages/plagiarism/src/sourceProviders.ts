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
  candidates: Readonly<CandidateOptions>;
}

/** A candidate source with the document's full text. */
export interface FoundSource {
  document: SourceDocument;
  /** Whether the text could be read; false when only metadata came back. @default true */
  canAccess?: boolean | undefined;
  /** Which provider found it, reported as the source object's `source`. */
  provider: string;
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
    for (const { id } of this.index.candidates(fingerprints, query.candidates)) {
      const stored = this.index.getById(id);
      if (stored !== undefined) found.push({ document: stored.document, provider: this.id });
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
