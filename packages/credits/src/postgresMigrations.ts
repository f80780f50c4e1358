import { createHash } from 'node:crypto';
import type pg from 'pg';

/** One step of a PostgreSQL schema. Steps are applied in order and never edited once released: add a new one. */
export interface PostgresMigration {
  version: number;
  name: string;
  sql: string;
}

/** `"name"`, quoted for SQL; names are validated by their callers first, so this is belt and braces. */
export function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/**
 * Key of a transaction-level advisory lock named by `label`: the first 8 bytes of its SHA-256, as a signed bigint
 * string, so that locks with different labels (other packages, other schemas) do not wait for each other.
 */
export function advisoryLockKey(label: string): string {
  return createHash('sha256').update(label).digest().readBigInt64BE(0).toString();
}

/** What `applyMigrations` applies, and where it records them. */
export interface MigrationPlan {
  /** Table of the applied versions, in the schema (packages sharing a schema each keep their own). */
  table: string;
  migrations: readonly PostgresMigration[];
  /** Advisory lock key serialising the migrations of this plan in this schema (`advisoryLockKey`). */
  lockKey: string;
  /** The error for a schema migrated by a newer version of the package (`current` > the last step's version). */
  tooNew(current: number, latest: number): Error;
}

/**
 * Brings `schema` to the last step of `plan`, creating the schema if it is missing, in one transaction that first
 * takes the plan's advisory lock: processes that start against a fresh schema at the same moment (API nodes
 * booting together) apply each step once; the others wait, then find it recorded. DDL is transactional in
 * PostgreSQL, so a failed step leaves nothing behind, and the lock is released by the commit or rollback even if
 * the connection goes back to a pool. The schema and the version table are looked up before they are created, so
 * a role without CREATE rights can use a schema made for it.
 */
export async function applyMigrations(client: pg.PoolClient, schema: string, plan: MigrationPlan): Promise<void> {
  const quoted = quoteIdentifier(schema);
  const latest = plan.migrations[plan.migrations.length - 1]?.version ?? 0;
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock($1::bigint)', [plan.lockKey]);
    const exists = await client.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [schema]);
    if (exists.rowCount === 0) await client.query(`CREATE SCHEMA ${quoted}`);
    await client.query(`SET LOCAL search_path TO ${quoted}`);
    const table = quoteIdentifier(plan.table);
    const { rows: [found] } = await client.query<{ found: boolean }>(
      'SELECT to_regclass($1) IS NOT NULL AS found', [`${quoted}.${table}`]);
    if (!found?.found) await client.query(`CREATE TABLE ${table} (
      version integer PRIMARY KEY,
      name text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
    const { rows } = await client.query<{ version: number | null }>(`SELECT max(version) AS version FROM ${table}`);
    const current = rows[0]?.version ?? 0;
    if (current > latest) throw plan.tooNew(current, latest);
    for (const migration of plan.migrations) {
      if (migration.version <= current) continue;
      await client.query(migration.sql);
      await client.query(`INSERT INTO ${table} (version, name) VALUES ($1, $2)`, [migration.version, migration.name]);
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

/** A connection checked out of a pool for one transaction, with the `release` that must end it. */
export interface CheckedOutClient {
  client: pg.PoolClient;
  /** Returns the connection to the pool, or discards it if it broke while checked out. */
  release: () => void;
}

/**
 * Checks a connection out of `pool` for one transaction. The pool stops listening for a connection's errors while it
 * is checked out, and one that breaks between two statements (the server gone) emits 'error' with no query to fail,
 * which would end the process: the error is kept here, the next statement fails on the closed connection, and
 * `release` discards the connection instead of pooling it.
 */
export async function checkoutClient(pool: pg.Pool): Promise<CheckedOutClient> {
  const client = await pool.connect();
  let broken: Error | undefined;
  const keep = (error: Error) => {
    broken = error;
  };
  client.on('error', keep);
  return {
    client,
    release: () => {
      client.off('error', keep);
      client.release(broken);
    },
  };
}
