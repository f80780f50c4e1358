import { SqliteUnavailableError } from '@content-analysis/credits';
import type Database from 'better-sqlite3';
import { createRequire } from 'node:module';
import type { DocumentStore, StoredDocument } from './documentStore.js';
import type { SourceDocument } from './types.js';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS documents (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  url TEXT NOT NULL UNIQUE,
  title TEXT, author TEXT, description TEXT, published_date INTEGER,
  language TEXT NOT NULL,
  text TEXT NOT NULL,
  fingerprints BLOB NOT NULL
);`;

interface Row {
  id: number;
  url: string;
  title: string | null;
  author: string | null;
  description: string | null;
  published_date: number | null;
  language: string;
  text: string;
  fingerprints: Buffer;
}

function toStored(row: Row): StoredDocument {
  const document: SourceDocument = { url: row.url, text: row.text };
  if (row.title !== null) document.title = row.title;
  if (row.author !== null) document.author = row.author;
  if (row.description !== null) document.description = row.description;
  if (row.published_date !== null) document.publishedDate = row.published_date;
  document.language = row.language;
  // Copy: the Buffer may not be 4-byte aligned.
  const bytes = new Uint8Array(row.fingerprints);
  return { id: row.id, document, language: row.language, fingerprints: new Uint32Array(bytes.buffer, 0, bytes.length / 4) };
}

/**
 * Documents in an SQLite file (better-sqlite3, write-ahead log), so that a collection survives restarts. Texts
 * stay on disk and are read when a document is a candidate; fingerprints are stored as little-endian uint32
 * blobs and loaded into the in-memory posting table on open.
 */
export class SqliteDocumentStore implements DocumentStore {
  private readonly db: Database.Database;
  private readonly statements;

  constructor(path: string) {
    this.db = new (loadSqlite())(path);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.db.exec(SCHEMA);
    this.statements = {
      insert: this.db.prepare(`INSERT INTO documents (url, title, author, description, published_date, language, text, fingerprints)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?)`),
      deleteByUrl: this.db.prepare('DELETE FROM documents WHERE url = ? RETURNING id'),
      get: this.db.prepare('SELECT * FROM documents WHERE id = ?'),
      idOf: this.db.prepare('SELECT id FROM documents WHERE url = ?'),
      all: this.db.prepare('SELECT * FROM documents ORDER BY id'),
      count: this.db.prepare('SELECT count(*) AS n FROM documents'),
      update: this.db.prepare('UPDATE documents SET fingerprints = ? WHERE id = ?'),
      getMeta: this.db.prepare('SELECT value FROM meta WHERE key = ?'),
      setMeta: this.db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value'),
    };
  }

  get size(): number {
    return (this.statements.count.get() as { n: number }).n;
  }

  put(document: SourceDocument, language: string, fingerprints: Uint32Array): number {
    this.statements.deleteByUrl.get(document.url);
    const info = this.statements.insert.run(document.url, document.title ?? null, document.author ?? null,
      document.description ?? null, document.publishedDate ?? null, language, document.text,
      Buffer.from(fingerprints.buffer, fingerprints.byteOffset, fingerprints.byteLength));
    return Number(info.lastInsertRowid);
  }

  delete(url: string): number | undefined {
    const row = this.statements.deleteByUrl.get(url) as { id: number } | undefined;
    return row?.id;
  }

  get(id: number): StoredDocument | undefined {
    const row = this.statements.get.get(id) as Row | undefined;
    return row === undefined ? undefined : toStored(row);
  }

  idOf(url: string): number | undefined {
    return (this.statements.idOf.get(url) as { id: number } | undefined)?.id;
  }

  *all(): Iterable<StoredDocument> {
    for (const row of this.statements.all.iterate() as IterableIterator<Row>) yield toStored(row);
  }

  updateFingerprints(id: number, fingerprints: Uint32Array): void {
    this.statements.update.run(Buffer.from(fingerprints.buffer, fingerprints.byteOffset, fingerprints.byteLength), id);
  }

  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn)();
  }

  scheme(): string | undefined {
    return (this.statements.getMeta.get('fingerprint_scheme') as { value: string } | undefined)?.value;
  }

  setScheme(scheme: string): void {
    this.statements.setMeta.run('fingerprint_scheme', scheme);
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}

let driver: typeof Database | undefined;

/** better-sqlite3 (an optional peer dependency), loaded when the first SQLite store opens. */
function loadSqlite(): typeof Database {
  try {
    driver ??= createRequire(import.meta.url)('better-sqlite3') as typeof Database;
  } catch (error) {
    throw new SqliteUnavailableError('SqliteDocumentStore (a plagiarism index with a path)', { cause: error });
  }
  return driver;
}
