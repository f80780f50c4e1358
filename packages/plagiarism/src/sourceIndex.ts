import { analyzeText } from './analyzeText.js';
import { detectLanguage } from './detectLanguage.js';
import { MemoryDocumentStore } from './documentStore.js';
import type { DocumentStore, StoredDocument } from './documentStore.js';
import { IndexClosedError, IndexVersionError, InvalidArgumentError, InvalidDocumentError, SharedIndexWriteError } from './errors.js';
import { contentStemHashes, DEFAULT_FINGERPRINT_OPTIONS, fingerprintScheme, stemHashFingerprints } from './fingerprints.js';
import type { FingerprintOptions } from './fingerprints.js';
import { isPlagiarismLanguage } from './languages.js';
import type { PlagiarismLanguage } from './languages.js';
import { PostgresDocumentStore } from './postgresDocumentStore.js';
import type { DocumentWrite, PostgresIndexOptions } from './postgresDocumentStore.js';
import { PostingTable } from './postingTable.js';
import { SqliteDocumentStore } from './sqliteDocumentStore.js';
import { StemFrequencies } from './stemFrequencies.js';
import type { SourceDocument } from './types.js';

/** Options of {@link SourceIndex.openPostgres}: where the collection lives, and the fingerprint scheme. */
export interface PostgresSourceIndexOptions extends PostgresIndexOptions {
  /**
   * Fingerprint scheme; every node of one collection must use the same.
   * @default { k: 3, window: 4 }
   */
  fingerprint?: Partial<FingerprintOptions> | undefined;
}

export interface SourceIndexOptions {
  /**
   * SQLite file that keeps the collection across restarts; `undefined` keeps it in memory only.
   * @default undefined
   */
  path?: string | undefined;
  /**
   * Fingerprint scheme (k-gram length and winnowing window).
   * @default { k: 3, window: 4 }
   */
  fingerprint?: Partial<FingerprintOptions> | undefined;
  /**
   * When the file was written with another fingerprint scheme: `true` re-indexes on open, `false` throws
   * `IndexVersionError`.
   * @default true
   */
  reindexOnSchemeChange?: boolean | undefined;
}

/** A candidate source for an input: a document and the number of fingerprints they share. */
export interface IndexCandidate {
  id: number;
  shared: number;
}

export interface CandidateOptions {
  /**
   * Most candidates returned, best first.
   * @default 20
   */
  maxCandidates: number;
  /**
   * Fewest shared fingerprints for a candidate.
   * @default 1
   */
  minShared: number;
  /**
   * Fingerprints held by more than this share of the documents (stock phrases) are skipped; they are kept in
   * collections of fewer than 100 documents.
   * @default 0.02
   */
  maxDocumentShare: number;
}

export const DEFAULT_CANDIDATE_OPTIONS: Readonly<CandidateOptions> = Object.freeze({ maxCandidates: 20, minShared: 1, maxDocumentShare: 0.02 });

function validFingerprint(options: Partial<FingerprintOptions> | undefined): FingerprintOptions {
  const fingerprint = { ...DEFAULT_FINGERPRINT_OPTIONS, ...options };
  for (const name of ['k', 'window'] as const) {
    const value = fingerprint[name];
    if (!Number.isInteger(value) || value < 1 || value > 64) throw new InvalidArgumentError(`fingerprint.${name}`, 'an integer from 1 to 64', value);
  }
  return fingerprint;
}

/**
 * Checks a document and returns it with its date as whole milliseconds (a file's `mtimeMs` has a fraction, which
 * an integer column refuses), so that every store keeps and returns the same value.
 */
function validateDocument(document: SourceDocument): SourceDocument {
  if (document === null || typeof document !== 'object') throw new InvalidDocumentError('url', 'an object', document, 'document');
  if (typeof document.url !== 'string' || document.url.length === 0) throw new InvalidDocumentError('url', 'a non-empty string', document.url);
  if (typeof document.text !== 'string') throw new InvalidDocumentError('text', 'a string', document.text);
  for (const field of ['title', 'author', 'description', 'language'] as const) {
    const value = document[field];
    if (value !== undefined && typeof value !== 'string') throw new InvalidDocumentError(field, 'a string', value);
  }
  const date = document.publishedDate;
  if (date === undefined) return document;
  if (typeof date !== 'number' || !Number.isSafeInteger(Math.round(date))) {
    throw new InvalidDocumentError('publishedDate', 'a finite number of milliseconds', date);
  }
  return Number.isInteger(date) ? document : { ...document, publishedDate: Math.round(date) };
}

/**
 * The source index: documents fingerprinted by winnowed k-grams of their content-word stems, with an in-memory
 * posting table for candidate retrieval and a store (memory or SQLite) for the documents themselves.
 */
export class SourceIndex {
  private readonly store: DocumentStore;
  private readonly fingerprint: FingerprintOptions;
  private postings = new PostingTable();
  private alive = new Uint8Array(1024);
  private deadPostings = 0;
  private closed = false;
  /** Document frequency of each stem; undefined until first asked for when the store was opened with documents. */
  private stems: StemFrequencies | undefined;

  /** The PostgreSQL store of a shared index; its writes are async and its changes arrive by {@link refresh}. */
  private readonly shared: PostgresDocumentStore | undefined;
  /** The refreshes, one after another, so that each sees every write that finished before it was asked for. */
  private refreshes: Promise<void> = Promise.resolve();

  private constructor(store: DocumentStore, fingerprint: FingerprintOptions, shared?: PostgresDocumentStore) {
    this.store = store;
    this.fingerprint = fingerprint;
    this.shared = shared;
  }

  /** Opens (or creates) an index; with `path`, loads the fingerprints of the stored documents. */
  static open(options: SourceIndexOptions = {}): SourceIndex {
    const fingerprint = validFingerprint(options.fingerprint);
    if (options.path !== undefined && (typeof options.path !== 'string' || options.path.length === 0)) {
      throw new InvalidArgumentError('path', 'a non-empty string', options.path);
    }
    const store = options.path === undefined ? new MemoryDocumentStore() : new SqliteDocumentStore(options.path);
    const index = new SourceIndex(store, fingerprint);
    const scheme = fingerprintScheme(fingerprint);
    const found = store.scheme();
    if (found !== undefined && found !== scheme) {
      if (options.reindexOnSchemeChange === false) {
        store.close();
        throw new IndexVersionError(found, scheme);
      }
      index.reindex();
    } else {
      for (const stored of store.all()) index.post(stored.id, stored.fingerprints);
      if (store.size === 0) index.stems = new StemFrequencies();
    }
    store.setScheme(scheme);
    return index;
  }

  /**
   * Opens (or creates) an index kept in PostgreSQL and shared by every process that opens the same schema, such
   * as several API nodes: migrates the schema (versioned, under an advisory lock) and loads the collection. Write
   * it with {@link addAsync}, {@link addManyAsync} and {@link removeAsync}; what other nodes write arrives on
   * {@link refresh}, which the index's source provider calls before every check.
   *
   * @throws {IndexVersionError} when the collection was fingerprinted with another scheme
   */
  static async openPostgres(options: PostgresSourceIndexOptions): Promise<SourceIndex> {
    const fingerprint = validFingerprint(options?.fingerprint);
    const store = await PostgresDocumentStore.open(options, fingerprintScheme(fingerprint));
    const index = new SourceIndex(store, fingerprint, store);
    try {
      await index.refresh();
    } catch (error) {
      await store.end();
      throw error;
    }
    if (store.size === 0) index.stems = new StemFrequencies();
    return index;
  }

  /** Whether the documents live in PostgreSQL, shared with other processes. */
  get isShared(): boolean {
    return this.shared !== undefined;
  }

  /**
   * Brings a shared index up to date with the documents other processes added, replaced and removed (one query);
   * does nothing for a memory or SQLite index.
   */
  refresh(): Promise<void> {
    this.ensureOpen();
    const shared = this.shared;
    if (shared === undefined) return Promise.resolve();
    const next = this.refreshes.catch(() => undefined).then(async () => {
      if (this.closed) return;
      const { removed, added } = await shared.pull();
      if (this.closed) return;
      for (const id of removed) {
        this.bury(id);
        shared.forget(id);
      }
      for (const stored of added) {
        shared.remember(stored);
        this.stems?.add(this.analyzeStored(stored));
        this.post(stored.id, stored.fingerprints);
      }
      this.compactIfNeeded();
    });
    this.refreshes = next;
    return next;
  }

  /** {@link add} for every index; a shared index is written in PostgreSQL, then refreshed. */
  async addAsync(document: SourceDocument): Promise<void> {
    await this.addManyAsync([document]);
  }

  /** {@link addMany} for every index; a shared index writes them in one PostgreSQL transaction, then refreshes. */
  async addManyAsync(documents: Iterable<SourceDocument>): Promise<number> {
    this.ensureOpen();
    if (this.shared === undefined) return this.addMany(documents);
    const writes: DocumentWrite[] = [];
    for (const given of documents) {
      const document = validateDocument(given);
      const language = this.languageOf(document);
      const fingerprints = stemHashFingerprints(contentStemHashes(analyzeText(document.text, language, false)), this.fingerprint);
      writes.push({ document, language, fingerprints });
    }
    await this.shared.write(writes);
    await this.refresh();
    return writes.length;
  }

  /** {@link remove} for every index; a shared index removes it in PostgreSQL, then refreshes. */
  async removeAsync(url: string): Promise<boolean> {
    this.ensureOpen();
    if (this.shared === undefined) return this.remove(url);
    const removed = await this.shared.write([], [url]);
    await this.refresh();
    return removed > 0;
  }

  /** Number of documents. */
  get size(): number {
    this.ensureOpen();
    return this.store.size;
  }

  /** The fingerprint scheme of this index. */
  get fingerprintOptions(): Readonly<FingerprintOptions> {
    return this.fingerprint;
  }

  private ensureOpen(): void {
    if (this.closed) throw new IndexClosedError();
  }

  private post(id: number, fingerprints: Uint32Array): void {
    if (id >= this.alive.length) {
      let length = this.alive.length;
      while (length <= id) length *= 2;
      const alive = new Uint8Array(length);
      alive.set(this.alive);
      this.alive = alive;
    }
    this.alive[id] = 1;
    for (const hash of fingerprints) this.postings.add(hash, id);
  }

  private languageOf(document: SourceDocument): PlagiarismLanguage {
    if (document.language !== undefined && isPlagiarismLanguage(document.language)) return document.language;
    return detectLanguage(document.text);
  }

  /** Adds a document, or replaces the one with the same url. */
  add(document: SourceDocument): void {
    this.addMany([document]);
  }

  /** Adds or replaces many documents (one transaction in SQLite). */
  addMany(documents: Iterable<SourceDocument>): number {
    this.ensureOpen();
    if (this.shared !== undefined) throw new SharedIndexWriteError('addMany');
    let added = 0;
    this.store.transaction(() => {
      for (const given of documents) {
        const document = validateDocument(given);
        const language = this.languageOf(document);
        const stemHashes = contentStemHashes(analyzeText(document.text, language, false));
        const fingerprints = stemHashFingerprints(stemHashes, this.fingerprint);
        const previous = this.store.idOf(document.url);
        if (previous !== undefined) this.bury(previous);
        this.stems?.add(stemHashes);
        const id = this.store.put(document, language, fingerprints);
        this.post(id, fingerprints);
        added++;
      }
    });
    this.compactIfNeeded();
    return added;
  }

  private bury(id: number): void {
    if (this.alive[id] === 1) {
      this.alive[id] = 0;
      const stored = this.store.get(id);
      this.deadPostings += stored?.fingerprints.length ?? 0;
      if (stored !== undefined && this.stems !== undefined) this.stems.remove(this.analyzeStored(stored));
    }
  }

  private analyzeStored(stored: StoredDocument): Uint32Array {
    const language = isPlagiarismLanguage(stored.language) ? stored.language : detectLanguage(stored.document.text);
    return contentStemHashes(analyzeText(stored.document.text, language, false));
  }

  /**
   * How many documents use each content-word stem (the background rate of words that tells topic from reuse).
   * Kept up to date as documents come and go; an index opened from a file with documents counts them on the
   * first call (one analysis of every stored text).
   */
  stemFrequencies(): StemFrequencies {
    this.ensureOpen();
    if (this.stems === undefined) {
      const stems = new StemFrequencies();
      for (const stored of this.store.all()) if (this.alive[stored.id] === 1) stems.add(this.analyzeStored(stored));
      this.stems = stems;
    }
    return this.stems;
  }

  /** Removes the document with this url; returns whether it was there. */
  remove(url: string): boolean {
    this.ensureOpen();
    if (this.shared !== undefined) throw new SharedIndexWriteError('remove');
    const id = this.store.idOf(url);
    if (id === undefined) return false;
    this.bury(id);
    this.store.delete(url);
    this.compactIfNeeded();
    return true;
  }

  /** The document with this url. */
  get(url: string): SourceDocument | undefined {
    this.ensureOpen();
    const id = this.store.idOf(url);
    return id === undefined ? undefined : this.store.get(id)?.document;
  }

  /** The stored document with this id (ids come from {@link candidates}). */
  getById(id: number): StoredDocument | undefined {
    this.ensureOpen();
    return this.alive[id] === 1 ? this.store.get(id) : undefined;
  }

  /** Recomputes every fingerprint from the stored texts and rebuilds the posting table. */
  reindex(): void {
    this.ensureOpen();
    if (this.shared !== undefined) throw new SharedIndexWriteError('reindex');
    const stored = [...this.store.all()];
    this.postings = new PostingTable(stored.length * 64);
    this.alive = new Uint8Array(1024);
    this.deadPostings = 0;
    const stems = new StemFrequencies();
    this.stems = stems;
    this.store.transaction(() => {
      for (const { id, document, language } of stored) {
        const code = isPlagiarismLanguage(language) ? language : detectLanguage(document.text);
        const stemHashes = contentStemHashes(analyzeText(document.text, code, false));
        stems.add(stemHashes);
        const fingerprints = stemHashFingerprints(stemHashes, this.fingerprint);
        this.store.updateFingerprints(id, fingerprints);
        this.post(id, fingerprints);
      }
    });
    this.store.setScheme(fingerprintScheme(this.fingerprint));
  }

  private compactIfNeeded(): void {
    if (this.deadPostings < 100_000 || this.deadPostings * 2 < this.postings.postings) return;
    const postings = new PostingTable(this.postings.distinct);
    for (const stored of this.store.all()) for (const hash of stored.fingerprints) postings.add(hash, stored.id);
    this.postings = postings;
    this.deadPostings = 0;
  }

  /** Documents sharing fingerprints with `fingerprints`, most shared first. */
  candidates(fingerprints: Uint32Array, options: Partial<CandidateOptions> = {}): IndexCandidate[] {
    this.ensureOpen();
    const { maxCandidates, minShared, maxDocumentShare } = { ...DEFAULT_CANDIDATE_OPTIONS, ...options };
    const documents = this.store.size;
    const maxPostings = documents < 100 ? Infinity : Math.max(10, Math.floor(documents * maxDocumentShare));
    const counts = new Map<number, number>();
    for (const hash of fingerprints) {
      if (this.postings.count(hash) > maxPostings) continue;
      this.postings.forEach(hash, (id) => {
        if (this.alive[id] === 1) counts.set(id, (counts.get(id) ?? 0) + 1);
      });
    }
    const found: IndexCandidate[] = [];
    for (const [id, shared] of counts) if (shared >= minShared) found.push({ id, shared });
    found.sort((a, b) => b.shared - a.shared || a.id - b.id);
    return found.slice(0, maxCandidates);
  }

  /** Closes the store; the index cannot be used afterwards. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.store.close();
  }

  /** {@link close}, resolved once a shared index's own connection pool has ended. */
  async closeAsync(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.refreshes.catch(() => undefined);
    await (this.shared?.end() ?? this.store.close());
  }
}
