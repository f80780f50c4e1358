import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { hashToken, POSTGRES_SCHEMA_VERSION, PostgresLedger, SchemaVersionError } from '../src/index.js';
import { balanceFromEntries, describeLedgerContract } from './ledgerContract.js';
import { postgresRequired as required, postgresUrl as url, probePostgres as probe, redactUrl as redact } from './postgresServer.js';

/**
 * These tests need a PostgreSQL server: `CONTENT_ANALYSIS_TEST_POSTGRES`, or the one at 127.0.0.1:5432 (database
 * `test`, user `postgres`). Without one they are skipped with a message, so `npm test` passes on a machine
 * with Node alone; with `CONTENT_ANALYSIS_TEST_POSTGRES_REQUIRED=1` (set by `.ci/run`) a missing server fails
 * instead. Each test works in a schema of its own, created for it and dropped after it, so test files running
 * in parallel and reruns never see each other's rows.
 */
const unavailable = await probe();
if (unavailable !== undefined && !required) {
  console.log(`PostgresLedger tests skipped: no PostgreSQL answered at ${redact(url)} (${unavailable}); ` +
    'set CONTENT_ANALYSIS_TEST_POSTGRES to a postgres:// URL to run them');
}

let schemas = 0;
/** A schema name no other test, test file or run uses. */
function freshSchema(): string {
  return `credits_test_${process.pid}_${schemas++}_${randomBytes(4).toString('hex')}`;
}

describe('PostgresLedger options', () => {
  it('requires exactly one of connectionString and pool', () => {
    expect(() => new PostgresLedger({})).toThrow('Expected exactly one of connectionString and pool');
    expect(() => new PostgresLedger({ connectionString: url, pool: new pg.Pool() }))
      .toThrow('Expected exactly one of connectionString and pool');
  });

  it('rejects a connection string that is not a postgres:// URL', () => {
    expect(() => new PostgresLedger({ connectionString: 'mysql://localhost/db' })).toThrow(TypeError);
  });

  it('rejects a schema that is not a plain identifier', () => {
    expect(() => new PostgresLedger({ connectionString: url, schema: 'a"; DROP TABLE x; --' })).toThrow(
      /Expected identifier of letters, digits and _ .* for schema/);
  });

  it('rejects a pool size below 1, and a pool size next to a pool', () => {
    expect(() => new PostgresLedger({ connectionString: url, maxConnections: 0 })).toThrow(
      'Expected positive integer for maxConnections but received 0 of type number');
    const pool = new pg.Pool();
    expect(() => new PostgresLedger({ pool, maxConnections: 2 })).toThrow(/maxConnections applies only/);
  });

  it('rejects from open, and ends its pool, when no server answers', async () => {
    await expect(PostgresLedger.open({ connectionString: 'postgres://postgres@127.0.0.1:1/none' }))
      .rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });
});

describe.skipIf(unavailable !== undefined && !required)('PostgresLedger', () => {
  let admin: pg.Pool;
  let shared: pg.Pool;
  const created: string[] = [];
  const schema = (): string => {
    const name = freshSchema();
    created.push(name);
    return name;
  };

  beforeAll(async () => {
    if (unavailable !== undefined) throw new Error(`no PostgreSQL answered at ${redact(url)}: ${unavailable}`);
    admin = new pg.Pool({ connectionString: url, max: 2 });
    shared = new pg.Pool({ connectionString: url, max: 5 });
  });
  // Runs after the contract's own afterEach has closed the test's ledger.
  afterEach(async () => {
    for (const name of created.splice(0)) await admin.query(`DROP SCHEMA IF EXISTS "${name}" CASCADE`);
  });
  afterAll(async () => {
    await shared?.end();
    await admin?.end();
  });

  describeLedgerContract('PostgresLedger (connection string)',
    () => PostgresLedger.open({ connectionString: url, schema: schema(), maxConnections: 4 }));
  describeLedgerContract('PostgresLedger (existing pool)', () => PostgresLedger.open({ pool: shared, schema: schema() }));

  describe('concurrency', () => {
    it('settles 300 concurrent charges of 1 against a balance of 100 from two pools: exactly 100 pass', async () => {
      const name = schema();
      const nodes = await Promise.all([1, 2].map(() =>
        PostgresLedger.open({ connectionString: url, schema: name, maxConnections: 6 })));
      try {
        const [first, second] = nodes as [PostgresLedger, PostgresLedger];
        const { id } = await first.createAccount({ credits: 100 });
        const outcomes = await Promise.all(Array.from({ length: 300 },
          (_, i) => (i % 2 === 0 ? first : second).charge(id, 1, `request ${i}`)));
        const accepted = outcomes.filter((o) => o.ok);
        expect(accepted).toHaveLength(100);
        expect(outcomes.filter((o) => !o.ok).every((o) => !o.ok && o.balance === 0 && o.shortBy === 1)).toBe(true);
        expect(await second.balance(id)).toBe(0);
        const entries = await first.history(id, 1000);
        expect(entries.filter((e) => e.kind === 'charge')).toHaveLength(100);
        expect(balanceFromEntries(entries)).toBe(0);
        expect(new Set(accepted.map((o) => o.ok && o.balance)).size).toBe(100);
      } finally {
        await Promise.all(nodes.map((node) => node.close()));
      }
    });

    it('applies each migration once when four ledgers start on one fresh schema at the same moment', async () => {
      const name = schema();
      const nodes = await Promise.all([1, 2, 3, 4].map(() =>
        PostgresLedger.open({ connectionString: url, schema: name, maxConnections: 2 })));
      try {
        const { rows } = await admin.query(`SELECT version, name FROM "${name}".schema_migrations ORDER BY version`);
        expect(rows.map((row) => row.version)).toEqual(
          Array.from({ length: POSTGRES_SCHEMA_VERSION }, (_, i) => i + 1));
        const { id } = await nodes[0]!.createAccount({ credits: 10 });
        expect(await nodes[3]!.charge(id, 4)).toMatchObject({ ok: true, balance: 6 });
      } finally {
        await Promise.all(nodes.map((node) => node.close()));
      }
    });
  });

  describe('connections', () => {
    it('survives a connection error between a refund\'s statements and discards that connection', async () => {
      const pool = new pg.Pool({ connectionString: url, max: 2 });
      const ledger = await PostgresLedger.open({ pool, schema: schema() });
      try {
        const { id } = await ledger.createAccount({ credits: 50 });
        const charged = await ledger.charge(id, 20);
        // The next connection checked out emits 'error' before its first statement, as a connection the server
        // dropped does while no query runs; the statements themselves still work.
        let hit: pg.PoolClient | undefined;
        pool.once('acquire', (client: pg.PoolClient) => {
          const query = client.query.bind(client) as (...args: unknown[]) => unknown;
          let first = true;
          (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
            if (first) {
              first = false;
              hit = client;
              client.emit('error', new Error('connection dropped'));
            }
            return query(...args);
          };
        });
        const removed = new Promise<pg.PoolClient>((resolve) => pool.once('remove', resolve));
        expect(charged.ok && await ledger.refund(charged.chargeId)).toBe(50);
        expect(await removed).toBe(hit);
        expect(await ledger.balance(id)).toBe(50);
      } finally {
        await ledger.close();
        await pool.end();
      }
    });
  });

  describe('charges on delivery', () => {
    it('shows the charge to every connection while its answer is delivered, and clears its pending mark after', async () => {
      const name = schema();
      const ledger = await PostgresLedger.open({ connectionString: url, schema: name, maxConnections: 2 });
      try {
        const { id } = await ledger.createAccount();
        const seen: unknown[] = [];
        const charged = await ledger.chargeOnDelivery(id, 300, 'first', async () => {
          seen.push((await admin.query(`SELECT balance FROM "${name}".accounts WHERE id = $1`, [id])).rows[0].balance);
          seen.push((await admin.query(`SELECT count(*) AS n FROM "${name}".pending_deliveries`)).rows[0].n);
        });
        expect(charged).toMatchObject({ ok: true, balance: 1700 });
        expect(seen).toEqual(['1700', '1']);
        expect((await admin.query(`SELECT count(*) AS n FROM "${name}".pending_deliveries`)).rows[0].n).toBe('0');
      } finally {
        await ledger.close();
      }
    });

    it('refunds from another ledger the charge of a ledger whose session died during delivery, and not before', async () => {
      const applicationName = `credits_delivery_${randomBytes(4).toString('hex')}`;
      const withName = new URL(url);
      withName.searchParams.set('application_name', applicationName);
      const name = schema();
      const dying = await PostgresLedger.open({ connectionString: withName.href, schema: name, maxConnections: 2 });
      const other = await PostgresLedger.open({ connectionString: url, schema: name, maxConnections: 2 });
      try {
        const { id } = await other.createAccount();
        let handOver!: () => void;
        let delivering!: () => void;
        const started = new Promise<void>((resolve) => (delivering = resolve));
        const pending = dying.chargeOnDelivery(id, 500, 'lost', () => {
          delivering();
          return new Promise<void>((resolve) => (handOver = resolve));
        });
        await started;
        expect(await other.recoverUndelivered()).toBe(0);
        expect(await other.balance(id)).toBe(1500);
        // As if the process of `dying` were killed: every session it had ends, its lease lock with them.
        const { rows } = await admin.query('SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity WHERE application_name = $1',
          [applicationName]);
        expect(rows.length).toBeGreaterThan(0);
        for (let i = 0; i < 50 && (await other.recoverUndelivered()) === 0; i++) await new Promise((resolve) => setTimeout(resolve, 20));
        expect(await other.balance(id)).toBe(2000);
        expect((await other.history(id)).map((e) => [e.kind, e.amount])).toEqual([['refund', 500], ['charge', 500], ['topup', 2000]]);
        expect(await other.recoverUndelivered()).toBe(0);
        handOver();
        await pending.catch(() => undefined);
        expect(await other.balance(id)).toBe(2000);
      } finally {
        await Promise.all([dying.close(), other.close()]);
      }
    });
  });

  describe('schema', () => {
    it('creates the schema with its tables and records the migrations', async () => {
      const name = schema();
      await (await PostgresLedger.open({ pool: shared, schema: name })).close();
      const { rows: tables } = await admin.query(
        'SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name', [name]);
      expect(tables.map((row) => row.table_name)).toEqual(['accounts', 'entries', 'pending_deliveries', 'schema_migrations', 'tokens']);
      const { rows } = await admin.query(`SELECT version, name FROM "${name}".schema_migrations ORDER BY version`);
      expect(rows).toEqual([{ version: 1, name: 'accounts, tokens and entries' }, { version: 2, name: 'pending deliveries' }]);
    });

    it('starts again on a migrated schema and keeps its data', async () => {
      const name = schema();
      const first = await PostgresLedger.open({ pool: shared, schema: name });
      const { id } = await first.createAccount();
      await first.charge(id, 120);
      const { token } = await first.createToken(id);
      await first.close();
      const second = await PostgresLedger.open({ connectionString: url, schema: name });
      expect(await second.balance(id)).toBe(1880);
      expect(await second.history(id)).toHaveLength(2);
      expect(await second.authenticate(token)).toMatchObject({ accountId: id });
      await second.close();
    });

    it('refuses a schema migrated by a newer version of the package', async () => {
      const name = schema();
      await (await PostgresLedger.open({ pool: shared, schema: name })).close();
      await admin.query(`INSERT INTO "${name}".schema_migrations (version, name) VALUES ($1, 'from the future')`,
        [POSTGRES_SCHEMA_VERSION + 1]);
      await expect(PostgresLedger.open({ connectionString: url, schema: name })).rejects.toBeInstanceOf(SchemaVersionError);
      const ledger = new PostgresLedger({ pool: shared, schema: name });
      await expect(ledger.balance('any')).rejects.toMatchObject({ code: 'ERR_SCHEMA_VERSION' });
      await ledger.close();
    });

    it('stores only the SHA-256 of a token, never the token', async () => {
      const name = schema();
      const ledger = await PostgresLedger.open({ pool: shared, schema: name });
      const { id } = await ledger.createAccount();
      const { token, tokenId } = await ledger.createToken(id, 'deploy');
      await ledger.close();
      const { rows } = await admin.query(`SELECT * FROM "${name}".tokens`);
      expect(rows).toEqual([expect.objectContaining({ id: tokenId, hash: hashToken(token), label: 'deploy' })]);
      expect(JSON.stringify(rows)).not.toContain(token.slice(3));
    });

    it('refuses a second refund of one charge and a negative balance in the schema itself', async () => {
      const name = schema();
      const ledger = await PostgresLedger.open({ pool: shared, schema: name });
      const { id } = await ledger.createAccount();
      const charge = await ledger.charge(id, 5);
      if (!charge.ok) throw new Error('charge refused');
      await ledger.refund(charge.chargeId);
      await ledger.close();
      await expect(admin.query(`INSERT INTO "${name}".entries (id, account_id, kind, amount, balance_after, refund_of)
        VALUES ('rf_forged', $1, 'refund', 5, 2005, $2)`, [id, charge.chargeId])).rejects.toMatchObject({ code: '23505' });
      await expect(admin.query(`UPDATE "${name}".accounts SET balance = -1 WHERE id = $1`, [id]))
        .rejects.toMatchObject({ code: '23514' });
    });
  });

  describe('close', () => {
    it('leaves a pool it was given open', async () => {
      const ledger = await PostgresLedger.open({ pool: shared, schema: schema() });
      await ledger.close();
      expect((await shared.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    });

    it('ends the connections of the pool it opened', async () => {
      const applicationName = `credits_close_${randomBytes(4).toString('hex')}`;
      const withName = new URL(url);
      withName.searchParams.set('application_name', applicationName);
      const ledger = await PostgresLedger.open({ connectionString: withName.href, schema: schema() });
      const { id } = await ledger.createAccount();
      await Promise.all([ledger.charge(id, 1), ledger.charge(id, 2), ledger.balance(id)]);
      const count = async (): Promise<number> => Number((await admin.query(
        'SELECT count(*) AS n FROM pg_stat_activity WHERE application_name = $1', [applicationName])).rows[0].n);
      expect(await count()).toBeGreaterThan(0);
      await ledger.close();
      // A backend leaves pg_stat_activity a moment after its client hangs up.
      for (let i = 0; i < 50 && (await count()) > 0; i++) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(await count()).toBe(0);
    });
  });
});
