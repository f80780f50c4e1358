import type { SourceDocument } from './types.js';

/** A stored document with its id and fingerprints. */
export interface StoredDocument {
  id: number;
  document: SourceDocument;
  language: string;
  fingerprints: Uint32Array;
}

/** Where the documents of a {@link SourceIndex} live: memory, or an SQLite file. */
export interface DocumentStore {
  /** Stores a document (replacing one with the same url) and returns its new, never reused id. */
  put(document: SourceDocument, language: string, fingerprints: Uint32Array): number;
  /** Removes the document with this url; returns its id, or undefined when absent. */
  delete(url: string): number | undefined;
  get(id: number): StoredDocument | undefined;
  idOf(url: string): number | undefined;
  /** Every stored document, in id order. */
  all(): Iterable<StoredDocument>;
  /** Replaces the fingerprints of every document (re-index). */
  updateFingerprints(id: number, fingerprints: Uint32Array): void;
  /** Runs `fn` in one transaction where the store has them. */
  transaction<T>(fn: () => T): T;
  readonly size: number;
  /** The fingerprint scheme the stored fingerprints were made with (undefined for a new store). */
  scheme(): string | undefined;
  setScheme(scheme: string): void;
  close(): void;
}

/** Documents in memory only. */
export class MemoryDocumentStore implements DocumentStore {
  private readonly byId = new Map<number, StoredDocument>();
  private readonly ids = new Map<string, number>();
  private nextId = 1;
  private storedScheme: string | undefined;

  get size(): number {
    return this.byId.size;
  }

  put(document: SourceDocument, language: string, fingerprints: Uint32Array): number {
    this.delete(document.url);
    const id = this.nextId++;
    this.byId.set(id, { id, document: { ...document }, language, fingerprints });
    this.ids.set(document.url, id);
    return id;
  }

  delete(url: string): number | undefined {
    const id = this.ids.get(url);
    if (id === undefined) return undefined;
    this.ids.delete(url);
    this.byId.delete(id);
    return id;
  }

  get(id: number): StoredDocument | undefined {
    return this.byId.get(id);
  }

  idOf(url: string): number | undefined {
    return this.ids.get(url);
  }

  all(): Iterable<StoredDocument> {
    return this.byId.values();
  }

  updateFingerprints(id: number, fingerprints: Uint32Array): void {
    const stored = this.byId.get(id);
    if (stored !== undefined) stored.fingerprints = fingerprints;
  }

  transaction<T>(fn: () => T): T {
    return fn();
  }

  scheme(): string | undefined {
    return this.storedScheme;
  }

  setScheme(scheme: string): void {
    this.storedScheme = scheme;
  }

  close(): void {
    this.byId.clear();
    this.ids.clear();
  }
}
