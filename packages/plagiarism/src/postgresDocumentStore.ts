import { checkoutClient } from '@content-analysis/credits';
import { createRequire } from 'node:module';
import type pg from 'pg';
import type { DocumentStore, StoredDocument } from './documentStore.js';
import { IndexVersionError, InvalidArgumentError, SharedIndexWriteError } from './errors.js';
import { migrateIndex, quoteIdentifier, writeLockKey } from './postgresSchema.js';
import type { SourceDocument } from './types.js';

/** Where a PostgreSQL source index lives: exactly one of `connectionString` and `pool`. */
export interface PostgresIndexOptions {
  /** `postgres://…` (or `postgresql://`); the index opens its own pool and ends it on `close()`. */
  connectionString?: string | undefined;
  /** An existing pg `Pool`; the caller keeps it, and `close()` leaves it open. */
  pool?: pg.Pool | undefined;
  /**
   * Schema of the index's tables, created on open if missing; a plain identifier (letters, digits, `_`, at most
   * 63 characters).
   * @default 'public'
   */
  schema?: string | undefined;
  /**
   * Connections of the pool the index opens; only with `connectionString`.
   * @default 4
   */
  maxConnections?: number | undefined;
}

/** A document to write: the url's previous version, if any, is removed in the same transaction. */
export interface DocumentWrite {
  document: SourceDocument;
  language: string;
  fingerprints: Uint32Array;
}

/** What changed in the table since the last pull: ids removed, then documents added, in id order. */
export interface DocumentChanges {
  removed: number[];
  added: StoredDocument[];
}

interface Row {
  kind: number;
  id: string;
  url: string | null;
  title: string | null;
  author: string | null;
  description: string | null;
  published_date: string | null;
  language: string | null;
  text: string | null;
  fingerprints: Buffer | null;
}

const SCHEMA_PATTERN = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;
const CONNECTION_STRING_PATTERN = /^postgres(ql)?:\/\//;

function toStored(row: Row): StoredDocument {
  const document: SourceDocument = { url: row.url!, text: row.text! };
  if (row.title !== null) document.title = row.title;
  if (row.author !== null) document.author = row.author;
  if (row.description !== null) document.description = row.description;
  if (row.published_date !== null) document.publishedDate = Number(row.published_date);
  document.language = row.language!;
  const bytes = new Uint8Array(row.fingerprints!);
  return { id: Number(row.id), document, language: row.language!, fingerprints: new Uint32Array(bytes.buffer, 0, bytes.length / 4) };
}

function fingerprintBytes(fingerprints: Uint32Array): Buffer {
  return Buffer.from(fingerprints.buffer, fingerprints.byteOffset, fingerprints.byteLength);
}

/**
 * Documents in PostgreSQL, shared by every node that opens the same schema. Reads are synchronous, from a mirror
 * of the table in this process (the `DocumentStore` contract the index's candidate search needs); writes go to
 * PostgreSQL (`write`) and reach every node's mirror, the writer's included, through `pull`, which reads the
 * documents and removals committed since the previous pull in one statement (one snapshot). The sync write
 * methods of `DocumentStore` throw {@link SharedIndexWriteError}.
 */
export class PostgresDocumentStore implements DocumentStore {
  private readonly pool: pg.Pool;
  private readonly ownsPool: boolean;
  private readonly table: { documents: string; removed: string; meta: string };
  private readonly lockKey: string;
  private readonly byId = new Map<number, StoredDocument>();
  private readonly ids = new Map<string, number>();
  private lastId = 0;
  /** Highest removal seen; -1 before the first pull, which skips the removals of documents it never saw. */
  private lastRemoval = -1;
  private storedScheme: string | undefined;
  private closed = false;

  private constructor(pool: pg.Pool, ownsPool: boolean, schema: string) {
    this.pool = pool;
    this.ownsPool = ownsPool;
    const quoted = quoteIdentifier(schema);
    this.table = { documents: `${quoted}.documents`, removed: `${quoted}.removed_documents`, meta: `${quoted}.index_meta` };
    this.lockKey = writeLockKey(schema);
  }

  /**
   * Opens the store: migrates the schema, then records `scheme` as the fingerprint scheme of a new collection or
   * checks it against the one recorded (every node of one collection must fingerprint alike).
   *
   * @throws {IndexVersionError} when the collection was fingerprinted with another scheme
   */
  static async open(options: PostgresIndexOptions, scheme: string): Promise<PostgresDocumentStore> {
    if (typeof options !== 'object' || options === null) throw new InvalidArgumentError('postgres', 'an object', options);
    const { connectionString, pool, schema = 'public', maxConnections } = options;
    if ((connectionString === undefined) === (pool === undefined)) {
      throw new InvalidArgumentError('postgres', 'exactly one of connectionString and pool', options);
    }
    if (typeof schema !== 'string' || !SCHEMA_PATTERN.test(schema)) {
      throw new InvalidArgumentError('postgres.schema', 'an identifier of letters, digits and _ (at most 63 characters)', schema);
    }
    let store: PostgresDocumentStore;
    if (pool !== undefined) {
      if (typeof pool !== 'object' || pool === null || typeof pool.query !== 'function' || typeof pool.connect !== 'function') {
        throw new InvalidArgumentError('postgres.pool', 'a pg Pool', pool);
      }
      if (maxConnections !== undefined) throw new InvalidArgumentError('postgres.maxConnections', 'undefined next to a pool', maxConnections);
      store = new PostgresDocumentStore(pool, false, schema);
    } else {
      if (typeof connectionString !== 'string' || !CONNECTION_STRING_PATTERN.test(connectionString)) {
        throw new InvalidArgumentError('postgres.connectionString', 'a postgres:// or postgresql:// URL', connectionString);
      }
      const max = maxConnections ?? 4;
      if (!Number.isInteger(max) || max < 1) throw new InvalidArgumentError('postgres.maxConnections', 'a positive integer', max);
      const own = new (loadPg().Pool)({ connectionString, max });
      // An idle connection the server drops emits 'error' on the pool; the next query opens a new one.
      own.on('error', () => undefined);
      store = new PostgresDocumentStore(own, true, schema);
    }
    try {
      const { client, release } = await checkoutClient(store.pool);
      try {
        await migrateIndex(client, schema);
      } finally {
        release();
      }
      await store.pool.query(`INSERT INTO ${store.table.meta} (key, value) VALUES ('fingerprint_scheme', $1) ON CONFLICT (key) DO NOTHING`, [scheme]);
      const { rows } = await store.pool.query<{ value: string }>(`SELECT value FROM ${store.table.meta} WHERE key = 'fingerprint_scheme'`);
      store.storedScheme = rows[0]?.value;
      if (store.storedScheme !== scheme) throw new IndexVersionError(store.storedScheme ?? '', scheme);
    } catch (error) {
      await store.end();
      throw error;
    }
    return store;
  }

  get size(): number {
    return this.byId.size;
  }

  /** The changes committed since the previous pull, applied to the mirror. */
  async pull(): Promise<DocumentChanges> {
    // One statement, so one snapshot: the removals and additions agree, and the last row says how far removals go.
    const { rows } = await this.pool.query<Row>(`
      SELECT 0 AS kind, document_id AS id, NULL::text AS url, NULL::text AS title, NULL::text AS author,
        NULL::text AS description, NULL::bigint AS published_date, NULL::text AS language, NULL::text AS text,
        NULL::bytea AS fingerprints
        FROM ${this.table.removed} WHERE $2::bigint >= 0 AND seq > $2::bigint
      UNION ALL
      SELECT 1, id, url, title, author, description, published_date, language, text, fingerprints
        FROM ${this.table.documents} WHERE id > $1::bigint
      UNION ALL
      SELECT 2, coalesce(max(seq), 0), NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL FROM ${this.table.removed}
      ORDER BY kind, id`, [this.lastId, this.lastRemoval]);
    const changes: DocumentChanges = { removed: [], added: [] };
    for (const row of rows) {
      if (row.kind === 0) {
        changes.removed.push(Number(row.id));
      } else if (row.kind === 1) {
        const stored = toStored(row);
        changes.added.push(stored);
        this.lastId = Math.max(this.lastId, stored.id);
      } else {
        this.lastRemoval = Number(row.id);
      }
    }
    return changes;
  }

  /** Keeps a pulled document in the mirror. */
  remember(stored: StoredDocument): void {
    this.byId.set(stored.id, stored);
    this.ids.set(stored.document.url, stored.id);
  }

  /** Drops a removed document from the mirror. */
  forget(id: number): void {
    const stored = this.byId.get(id);
    if (stored === undefined) return;
    this.byId.delete(id);
    if (this.ids.get(stored.document.url) === id) this.ids.delete(stored.document.url);
  }

  /**
   * Writes documents (each replacing the url's previous version) and removes urls, in one transaction under the
   * schema's write lock; returns how many of `removals` were there. The mirror changes on the next pull.
   */
  async write(documents: readonly DocumentWrite[], removals: readonly string[] = []): Promise<number> {
    const { client, release } = await checkoutClient(this.pool);
    let removed = 0;
    try {
      await client.query('BEGIN');
      await client.query('SELECT pg_advisory_xact_lock($1::bigint)', [this.lockKey]);
      const remove = `WITH old AS (DELETE FROM ${this.table.documents} WHERE url = $1 RETURNING id)
        INSERT INTO ${this.table.removed} (document_id) SELECT id FROM old`;
      for (const { document, language, fingerprints } of documents) {
        await client.query(remove, [document.url]);
        await client.query(`INSERT INTO ${this.table.documents}
          (url, title, author, description, published_date, language, text, fingerprints) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [document.url, document.title ?? null, document.author ?? null, document.description ?? null,
          document.publishedDate ?? null, language, document.text, fingerprintBytes(fingerprints)]);
      }
      for (const url of removals) removed += (await client.query(remove, [url])).rowCount ?? 0;
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      release();
    }
    return removed;
  }

  get(id: number): StoredDocument | undefined {
    return this.byId.get(id);
  }

  idOf(url: string): number | undefined {
    return this.ids.get(url);
  }

  all(): Iterable<StoredDocument> {
    // Pulls bring documents in id order, so insertion order is id order.
    return this.byId.values();
  }

  put(): number {
    throw new SharedIndexWriteError('add');
  }

  delete(): number | undefined {
    throw new SharedIndexWriteError('remove');
  }

  updateFingerprints(): void {
    throw new SharedIndexWriteError('reindex');
  }

  transaction<T>(fn: () => T): T {
    return fn();
  }

  scheme(): string | undefined {
    return this.storedScheme;
  }

  setScheme(scheme: string): void {
    if (scheme !== this.storedScheme) throw new SharedIndexWriteError('reindex');
  }

  /** Forgets the mirror and ends the pool the store opened (a pool given to it stays open). */
  close(): void {
    void this.end();
  }

  /** `close`, resolved once the store's own pool has ended. */
  async end(): Promise<void> {
    this.byId.clear();
    this.ids.clear();
    if (this.closed) return;
    this.closed = true;
    if (this.ownsPool) await this.pool.end().catch(() => undefined);
  }
}

/** node-postgres, loaded when a pool is first opened, so that importing the package does not load it. */
function loadPg(): typeof pg {
  return createRequire(import.meta.url)('pg') as typeof pg;
}
