import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  analyzeText, checkPlagiarism, fingerprintsOf, INDEX_SCHEMA_VERSION, IndexSchemaVersionError, IndexVersionError,
  InvalidArgumentError, SharedIndexWriteError, SourceIndex, StemFrequencies,
} from '../src/index.js';
import { BEES, PRESS, VOLCANO } from './helpers.js';
import { CHECK_INPUTS, COLLECTION, describeSourceIndexContract, FAMILY } from './sourceIndexContract.js';
import { postgresRequired as required, postgresUrl as url, probePostgres as probe, redactUrl as redact } from '../../credits/test/postgresServer.js';

/**
 * These tests need a PostgreSQL server: `CONTENT_ANALYSIS_TEST_POSTGRES`, or the one at 127.0.0.1:5432 (database
 * `test`, user `postgres`). Without one they are skipped with a message, so `npm test` passes on a machine with
 * Node alone; with `CONTENT_ANALYSIS_TEST_POSTGRES_REQUIRED=1` (set by `.ci/run`) a missing server fails instead.
 * Each test works in a schema of its own, dropped after it.
 */
const unavailable = await probe();
if (unavailable !== undefined && !required) {
  console.log(`PostgreSQL source index tests skipped: no PostgreSQL answered at ${redact(url)} (${unavailable}); ` +
    'set CONTENT_ANALYSIS_TEST_POSTGRES to a postgres:// URL to run them');
}

let schemas = 0;
const created: string[] = [];
/** A schema name no other test, test file or run uses; dropped after the test. */
function freshSchema(): string {
  const name = `plagiarism_test_${process.pid}_${schemas++}_${randomBytes(4).toString('hex')}`;
  created.push(name);
  return name;
}

const query = (text: string) => fingerprintsOf(analyzeText(text, 'en', false));
const now = () => new Date(Date.UTC(2026, 0, 1));

/** The counts of stem frequencies, whatever the layout of their table (which depends on the order of changes). */
function countsOf(stems: StemFrequencies): { documents: number; counts: Map<number, number> } {
  const { keys, counts, documents } = stems.snapshot();
  const nonzero = new Map<number, number>();
  keys.forEach((key, slot) => {
    if (key !== 0 && counts[slot] !== 0) nonzero.set(key, counts[slot]!);
  });
  return { documents, counts: nonzero };
}

describe('SourceIndex.openPostgres options', () => {
  it('requires exactly one of connectionString and pool, and a plain schema name', async () => {
    await expect(SourceIndex.openPostgres({})).rejects.toThrow('Expected exactly one of connectionString and pool for postgres');
    await expect(SourceIndex.openPostgres({ connectionString: 'mysql://localhost/db' })).rejects.toBeInstanceOf(InvalidArgumentError);
    await expect(SourceIndex.openPostgres({ connectionString: url, schema: 'a"; DROP TABLE x; --' })).rejects.toThrow(/for postgres\.schema/);
    await expect(SourceIndex.openPostgres({ connectionString: url, fingerprint: { k: 0 } })).rejects.toThrow(/fingerprint\.k/);
  });

  it('rejects when no server answers', async () => {
    await expect(SourceIndex.openPostgres({ connectionString: 'postgres://postgres@127.0.0.1:1/none' }))
      .rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });
});

describe.skipIf(unavailable !== undefined && !required)('SourceIndex in PostgreSQL', () => {
  let admin: pg.Pool;
  let shared: pg.Pool;
  const dir = mkdtempSync(join(tmpdir(), 'plagiarism-pg-'));

  beforeAll(() => {
    if (unavailable !== undefined) throw new Error(`no PostgreSQL answered at ${redact(url)}: ${unavailable}`);
    admin = new pg.Pool({ connectionString: url, max: 2 });
    shared = new pg.Pool({ connectionString: url, max: 6 });
  });
  afterEach(async () => {
    for (const name of created.splice(0)) await admin.query(`DROP SCHEMA IF EXISTS "${name}" CASCADE`);
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await shared?.end();
    await admin?.end();
  });

  describeSourceIndexContract('SourceIndex contract (PostgreSQL, connection string)',
    () => SourceIndex.openPostgres({ connectionString: url, schema: freshSchema(), maxConnections: 2 }));
  describeSourceIndexContract('SourceIndex contract (PostgreSQL, existing pool)',
    () => SourceIndex.openPostgres({ pool: shared, schema: freshSchema() }));

  it('gives the same check results as the SQLite store on the same fixture documents', async () => {
    const sqlite = SourceIndex.open({ path: join(dir, 'same.db') });
    const postgres = await SourceIndex.openPostgres({ pool: shared, schema: freshSchema() });
    try {
      sqlite.addMany([...COLLECTION, ...FAMILY]);
      await postgres.addManyAsync([...COLLECTION, ...FAMILY]);
      expect(postgres.stemFrequencies().snapshot()).toEqual(sqlite.stemFrequencies().snapshot());
      for (const text of CHECK_INPUTS) {
        const options = { bounds: { min: 0, max: 1e9 }, now };
        expect(await checkPlagiarism(text, { ...options, index: postgres })).toEqual(await checkPlagiarism(text, { ...options, index: sqlite }));
      }
    } finally {
      sqlite.close();
      await postgres.closeAsync();
    }
  });

  it('shares one collection between two instances: what one node adds, replaces and removes, the other finds', async () => {
    const schema = freshSchema();
    const [first, second] = await Promise.all([1, 2].map(() => SourceIndex.openPostgres({ connectionString: url, schema, maxConnections: 2 })));
    try {
      const a = first!;
      const b = second!;
      await a.addManyAsync(COLLECTION);
      const text = CHECK_INPUTS[0]!;
      const found = await checkPlagiarism(text, { index: b, now });
      expect(found.sources.map((s) => s.url)).toEqual(['https://www.geo.example.org/volcano']);
      expect(found).toEqual(await checkPlagiarism(text, { index: a, now }));
      expect(b.size).toBe(3);
      expect(b.stemFrequencies().count('volcano')).toBe(1);
      await b.addAsync({ url: 'https://www.geo.example.org/volcano', text: BEES });
      await b.removeAsync('https://bees.example.net/a');
      await a.refresh();
      expect(a.size).toBe(2);
      expect(a.get('https://www.geo.example.org/volcano')?.text).toBe(BEES);
      expect(a.candidates(query(VOLCANO))).toEqual([]);
      expect([a.stemFrequencies().documents, a.stemFrequencies().count('volcano'), a.stemFrequencies().count('bee')]).toEqual([2, 0, 1]);
      expect(countsOf(a.stemFrequencies())).toEqual(countsOf(b.stemFrequencies()));
      expect((await checkPlagiarism(text, { index: a, now })).sources).toEqual([]);
    } finally {
      await first?.closeAsync();
      await second?.closeAsync();
    }
  });

  it('converges when two nodes write the same urls at once: both end with the table\'s documents and counts', async () => {
    const schema = freshSchema();
    const [first, second] = await Promise.all([1, 2].map(() => SourceIndex.openPostgres({ pool: shared, schema })));
    try {
      const a = first!;
      const b = second!;
      const texts = [PRESS, VOLCANO, BEES];
      const batch = (node: number) => Array.from({ length: 12 }, (_, i) => ({ url: `https://n.example/${i % 8}`, text: texts[(i + node) % 3]! }));
      await Promise.all([a.addManyAsync(batch(0)), b.addManyAsync(batch(1)), a.removeAsync('https://n.example/7'), b.addManyAsync(batch(2).slice(0, 4))]);
      await Promise.all([a.refresh(), b.refresh()]);
      const { rows } = await admin.query<{ url: string; text: string }>(`SELECT url, text FROM "${schema}".documents ORDER BY url`);
      for (const node of [a, b]) {
        expect(node.size).toBe(rows.length);
        for (const row of rows) expect(node.get(row.url)?.text).toBe(row.text);
      }
      const reopened = await SourceIndex.openPostgres({ pool: shared, schema });
      expect(countsOf(a.stemFrequencies())).toEqual(countsOf(reopened.stemFrequencies()));
      expect(countsOf(b.stemFrequencies())).toEqual(countsOf(reopened.stemFrequencies()));
      await reopened.closeAsync();
    } finally {
      await first?.closeAsync();
      await second?.closeAsync();
    }
  });

  it('keeps the collection across restarts and loads it on open', async () => {
    const schema = freshSchema();
    const before = await SourceIndex.openPostgres({ pool: shared, schema });
    await before.addManyAsync(COLLECTION);
    await before.removeAsync('https://bees.example.net/a');
    await before.closeAsync();
    const after = await SourceIndex.openPostgres({ pool: shared, schema });
    try {
      expect(after.size).toBe(2);
      expect(after.getById(after.candidates(query(PRESS))[0]!.id)?.document).toMatchObject({ url: 'https://history.example.com/press', author: 'Ann Smith' });
      expect(after.stemFrequencies().count('press')).toBe(1);
    } finally {
      await after.closeAsync();
    }
  });

  it('migrates a fresh schema once when nodes start together, and refuses a newer schema version', async () => {
    const schema = freshSchema();
    const nodes = await Promise.all(Array.from({ length: 4 }, () => SourceIndex.openPostgres({ pool: shared, schema })));
    for (const node of nodes) await node.closeAsync();
    const { rows } = await admin.query(`SELECT version FROM "${schema}".index_schema_migrations`);
    expect(rows.map((r: { version: number }) => r.version)).toEqual([INDEX_SCHEMA_VERSION]);
    await admin.query(`INSERT INTO "${schema}".index_schema_migrations (version, name) VALUES ($1, 'from the future')`, [INDEX_SCHEMA_VERSION + 1]);
    await expect(SourceIndex.openPostgres({ pool: shared, schema })).rejects.toBeInstanceOf(IndexSchemaVersionError);
  });

  it('refuses another fingerprint scheme, and the sync writes of local indexes', async () => {
    const schema = freshSchema();
    const index = await SourceIndex.openPostgres({ pool: shared, schema });
    try {
      await expect(SourceIndex.openPostgres({ pool: shared, schema, fingerprint: { k: 2 } })).rejects.toBeInstanceOf(IndexVersionError);
      expect(index.isShared).toBe(true);
      expect(() => index.add({ url: 'u', text: PRESS })).toThrow(SharedIndexWriteError);
      expect(() => index.remove('u')).toThrow(SharedIndexWriteError);
      expect(() => index.reindex()).toThrow(/addAsync, addManyAsync and removeAsync/);
    } finally {
      await index.closeAsync();
    }
  });
});
