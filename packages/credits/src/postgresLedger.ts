import { createRequire } from 'node:module';
import type pg from 'pg';
import { NEW_ACCOUNT_CREDITS } from './costs.js';
import {
  BalanceLimitError, DuplicateAccountError, LedgerClosedError, UnknownAccountError, UnknownChargeError,
} from './errors.js';
import { DEFAULT_HISTORY_LIMIT } from './ledger.js';
import type {
  Account, ChargeOutcome, CreateAccountOptions, DeliverCharge, Ledger, LedgerEntry, LedgerEntryKind, TokenIdentity, TokenInfo,
} from './ledger.js';
import { DeliveryLease, recoverDeliveries } from './postgresDeliveries.js';
import { checkoutClient } from './postgresMigrations.js';
import { migrate, quoteIdentifier } from './postgresSchema.js';
import { generateToken, hashesEqual, hashToken, isWellFormedToken, randomId } from './tokens.js';
import {
  assertAccountId, assertNonEmptyString, assertNonNegativeInteger, assertOptionalString, assertPositiveInteger,
} from './validate.js';

/** Options of `PostgresLedger`: exactly one of `connectionString` and `pool`. */
export interface PostgresLedgerOptions {
  /**
   * `postgres://user:password@host:port/database?…` (or `postgresql://`); the ledger opens its own pool and ends
   * it on `close()`.
   */
  connectionString?: string;
  /** An existing pg `Pool` to run on; the caller keeps it, and `close()` leaves it open. */
  pool?: pg.Pool;
  /**
   * PostgreSQL schema that holds the ledger's tables, created on start if missing; a plain identifier (letters,
   * digits, `_`, at most 63 characters).
   * @default 'public'
   */
  schema?: string;
  /**
   * Connections of the pool the ledger opens; only with `connectionString`.
   * @default 10
   */
  maxConnections?: number;
}

interface EntryRow {
  id: string; account_id: string; kind: LedgerEntryKind; amount: string; balance_after: string;
  memo: string | null; created_at: Date; refund_of: string | null;
}

const PREFIX: Record<LedgerEntryKind, string> = { charge: 'ch_', refund: 'rf_', topup: 'tu_' };
const SCHEMA_PATTERN = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;
const CONNECTION_STRING_PATTERN = /^postgres(ql)?:\/\//;

function toEntry(row: EntryRow): LedgerEntry {
  const entry: LedgerEntry = { id: row.id, accountId: row.account_id, kind: row.kind, amount: Number(row.amount),
    balanceAfter: Number(row.balance_after), createdAt: row.created_at.toISOString() };
  if (row.memo !== null) entry.memo = row.memo;
  if (row.refund_of !== null) entry.refundOf = row.refund_of;
  return entry;
}

/**
 * A ledger in PostgreSQL (node-postgres), shared by any number of processes and machines, such as several API
 * nodes behind a load balancer.
 *
 * A charge is one statement: a conditional `UPDATE accounts SET balance = balance - $amount WHERE id = $id AND
 * balance >= $amount` and the insert of its entry, joined in a data-modifying CTE, so both happen or neither.
 * PostgreSQL's row lock makes concurrent debits of one account wait for each other and re-check the condition
 * against the balance the previous one committed, so no interleaving can overdraw an account, at the default
 * READ COMMITTED isolation and without retries. Every other write to an account also takes its row lock first,
 * which orders a refund after the charge it credits back and makes the "at most once" check see an earlier
 * refund. The schema's CHECK and UNIQUE constraints refuse a negative balance and a second refund even if the
 * code were wrong. BIGINT columns hold the amounts; the ledger keeps them within `Number.MAX_SAFE_INTEGER`.
 *
 * The schema is migrated when the ledger starts (see `migrate`); `PostgresLedger.open` waits for that, and a
 * ledger made with `new` makes every call wait for it.
 */
export class PostgresLedger implements Ledger {
  readonly #pool: pg.Pool;
  readonly #ownsPool: boolean;
  readonly #sql: ReturnType<typeof statements>;
  readonly #ready: Promise<void>;
  #closed = false;
  #lease: Promise<DeliveryLease> | undefined;
  readonly #recovery: NodeJS.Timeout;

  /** A ledger whose schema is migrated: resolves once the ledger is ready, or rejects (and ends its own pool). */
  static async open(options: PostgresLedgerOptions): Promise<PostgresLedger> {
    const ledger = new PostgresLedger(options);
    try {
      await ledger.#ready;
    } catch (error) {
      await ledger.close();
      throw error;
    }
    return ledger;
  }

  constructor(options: PostgresLedgerOptions) {
    if (typeof options !== 'object' || options === null) {
      throw new TypeError(`Expected object for options but received ${String(options)} of type ${typeof options}`);
    }
    const { connectionString, pool, schema = 'public', maxConnections } = options;
    if ((connectionString === undefined) === (pool === undefined)) {
      throw new TypeError('Expected exactly one of connectionString and pool in PostgresLedger options');
    }
    if (typeof schema !== 'string' || !SCHEMA_PATTERN.test(schema)) {
      throw new TypeError('Expected identifier of letters, digits and _ (at most 63 characters) for schema but ' +
        `received ${JSON.stringify(schema)} of type ${typeof schema}`);
    }
    if (pool !== undefined) {
      if (typeof pool !== 'object' || pool === null || typeof pool.query !== 'function' ||
        typeof pool.connect !== 'function') {
        throw new TypeError(`Expected pg Pool for pool but received ${String(pool)} of type ${typeof pool}`);
      }
      if (maxConnections !== undefined) {
        throw new TypeError('maxConnections applies only with connectionString; size the pool you pass instead');
      }
      this.#pool = pool;
      this.#ownsPool = false;
    } else {
      assertNonEmptyString('connectionString', connectionString, 4096);
      if (!CONNECTION_STRING_PATTERN.test(connectionString)) {
        throw new TypeError('Expected postgres:// or postgresql:// URL for connectionString but received a string ' +
          'starting with ' + JSON.stringify(connectionString.slice(0, 12)));
      }
      const max = maxConnections ?? 10;
      assertPositiveInteger('maxConnections', max);
      this.#pool = new (loadPg().Pool)({ connectionString, max });
      // An idle connection that the server drops emits 'error' on the pool, which would end the process if
      // nobody listened; the pool discards that connection and the next query opens a new one.
      this.#pool.on('error', () => undefined);
      this.#ownsPool = true;
    }
    this.#sql = statements(quoteIdentifier(schema));
    this.#ready = this.#migrate(schema);
    // Whoever calls first sees the failure; this keeps it from being reported as unhandled meanwhile.
    this.#ready.catch(() => undefined);
    const recover = () => void this.recoverUndelivered().catch(() => undefined);
    this.#ready.then(recover, () => undefined);
    this.#recovery = setInterval(recover, 5000).unref();
  }

  async createAccount(options: CreateAccountOptions = {}): Promise<Account> {
    await this.#open();
    const id = options.id ?? randomId('acct_');
    const credits = options.credits ?? NEW_ACCOUNT_CREDITS;
    assertAccountId('id', id);
    assertNonNegativeInteger('credits', credits);
    const { rows } = await this.#pool.query<{ created_at: Date }>(this.#sql.createAccount,
      [id, credits, randomId(PREFIX.topup)]);
    if (!rows[0]) throw new DuplicateAccountError(id);
    return { id, balance: credits, createdAt: rows[0].created_at.toISOString() };
  }

  async getAccount(accountId: string): Promise<Account | undefined> {
    await this.#open();
    const { rows } = await this.#pool.query<{ id: string; balance: string; created_at: Date }>(
      this.#sql.selectAccount, [accountId]);
    const row = rows[0];
    return row && { id: row.id, balance: Number(row.balance), createdAt: row.created_at.toISOString() };
  }

  async balance(accountId: string): Promise<number> {
    await this.#open();
    return this.#requireBalance(accountId);
  }

  async charge(accountId: string, amount: number, memo?: string): Promise<ChargeOutcome> {
    return this.#charge(accountId, amount, memo, async (chargeId) => {
      const { rows } = await this.#pool.query<{ balance: string }>(this.#sql.charge,
        [accountId, amount, chargeId, memo ?? null]);
      return rows[0] && { ok: true, chargeId, balance: Number(rows[0].balance) };
    });
  }

  /**
   * The debit, its entry and a pending delivery under this ledger's lease, in one statement: the charge shows on
   * every node at once. Once `deliver` resolved the pending mark goes; if it rejects, the charge is refunded. If this
   * process dies in between, its lease lock goes with its session, and another ledger's `recoverUndelivered` refunds
   * the charge.
   */
  async chargeOnDelivery(accountId: string, amount: number, memo: string | undefined, deliver: DeliverCharge): Promise<ChargeOutcome> {
    await this.#open();
    const { key } = await this.#heldLease();
    const charged = await this.#charge(accountId, amount, memo, async (chargeId) => {
      const { rows } = await this.#pool.query<{ balance: string }>(this.#sql.chargePending,
        [accountId, amount, chargeId, memo ?? null, key]);
      return rows[0] && { ok: true, chargeId, balance: Number(rows[0].balance) };
    });
    if (!charged.ok) return charged;
    try {
      await deliver(charged);
    } catch (error) {
      await this.refund(charged.chargeId);
      await this.#pool.query(this.#sql.deleteDelivery, [charged.chargeId]);
      throw error;
    }
    await this.#pool.query(this.#sql.deleteDelivery, [charged.chargeId]);
    return charged;
  }

  /** This ledger's lease, taken again when the last one was lost or could not be taken. */
  async #heldLease(): Promise<DeliveryLease> {
    const current = this.#lease;
    const lease = await current?.catch(() => undefined);
    if (lease && !lease.lost) return lease;
    if (this.#lease === current) {
      lease?.release();
      this.#lease = DeliveryLease.take(this.#pool);
    }
    return this.#lease!;
  }

  /** How many charges of any ledger on the schema have an answer being handed over now, or left by a dead ledger. */
  async pendingDeliveries(): Promise<number> {
    await this.#open();
    const { rows: [row] } = await this.#pool.query<{ n: string }>(this.#sql.pendingCount);
    return Number(row?.n ?? 0);
  }

  /**
   * Refunds the charges whose delivery a ledger that is gone (its process died before the answer was handed over)
   * left pending, and resolves with how many. Every ledger runs it at start and every 5 seconds.
   */
  async recoverUndelivered(): Promise<number> {
    await this.#open();
    const own = (await this.#lease?.catch(() => undefined))?.key;
    return recoverDeliveries(this.#pool, this.#sql, (chargeId) => this.refund(chargeId), own);
  }

  /**
   * Runs `attempt` (which returns undefined when the conditional debit was refused) until it is taken or the
   * balance, read again, is short. A top-up or refund may have committed since the UPDATE looked; if the charge
   * would now pass, it is tried again rather than refused with a balance that allows it.
   */
  async #charge(accountId: string, amount: number, memo: string | undefined,
    attempt: (chargeId: string) => Promise<ChargeOutcome | undefined>): Promise<ChargeOutcome> {
    await this.#open();
    assertNonNegativeInteger('amount', amount);
    assertOptionalString('memo', memo);
    for (;;) {
      const charged = await attempt(randomId(PREFIX.charge));
      if (charged) return charged;
      const balance = await this.#requireBalance(accountId);
      if (balance < amount) return { ok: false, balance, shortBy: amount - balance };
    }
  }

  async refund(chargeId: string): Promise<number> {
    await this.#open();
    const { client, release } = await checkoutClient(this.#pool);
    try {
      await client.query('BEGIN');
      const { rows: [charge] } = await client.query<{ account_id: string; amount: string }>(
        this.#sql.selectCharge, [chargeId]);
      if (!charge) throw new UnknownChargeError(chargeId);
      // The account's row lock orders this refund after any other write to the account; the refund check
      // below, a new statement, then sees a refund of this charge that committed while it waited.
      await client.query(this.#sql.lockAccount, [charge.account_id]);
      const { rows: [done] } = await client.query<{ balance: string }>(this.#sql.refundDone, [chargeId]);
      let balance: number;
      if (done) {
        balance = Number(done.balance);
      } else {
        const amount = Number(charge.amount);
        const { rows: [credited] } = await client.query<{ balance: string }>(this.#sql.refund,
          [charge.account_id, amount, Number.MAX_SAFE_INTEGER - amount, randomId(PREFIX.refund), chargeId]);
        if (!credited) {
          throw new BalanceLimitError(charge.account_id, await this.#requireBalance(charge.account_id, client), amount);
        }
        balance = Number(credited.balance);
      }
      await client.query('COMMIT');
      return balance;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      release();
    }
  }

  async topUp(accountId: string, amount: number, memo?: string): Promise<number> {
    await this.#open();
    assertNonNegativeInteger('amount', amount);
    assertOptionalString('memo', memo);
    if (amount === 0) return this.#requireBalance(accountId);
    for (;;) {
      const { rows } = await this.#pool.query<{ balance: string }>(this.#sql.topUp,
        [accountId, amount, Number.MAX_SAFE_INTEGER - amount, randomId(PREFIX.topup), memo ?? null]);
      if (rows[0]) return Number(rows[0].balance);
      const balance = await this.#requireBalance(accountId);
      if (balance > Number.MAX_SAFE_INTEGER - amount) throw new BalanceLimitError(accountId, balance, amount);
    }
  }

  async createToken(accountId: string, label?: string): Promise<{ token: string; tokenId: string }> {
    await this.#open();
    assertOptionalString('label', label);
    const token = generateToken();
    const tokenId = randomId('tok_');
    const { rowCount } = await this.#pool.query(this.#sql.insertToken, [tokenId, accountId, hashToken(token),
      label ?? null]);
    if (rowCount !== 1) throw new UnknownAccountError(accountId);
    return { token, tokenId };
  }

  async authenticate(token: string): Promise<TokenIdentity | undefined> {
    await this.#open();
    if (!isWellFormedToken(token)) return undefined;
    const hash = hashToken(token);
    const { rows: [row] } = await this.#pool.query<{ id: string; account_id: string; hash: string;
      revoked: boolean }>(this.#sql.selectTokenByHash, [hash]);
    if (!row || row.revoked || !hashesEqual(row.hash, hash)) return undefined;
    return { accountId: row.account_id, tokenId: row.id };
  }

  async revokeToken(tokenId: string): Promise<boolean> {
    await this.#open();
    const { rowCount } = await this.#pool.query(this.#sql.revokeToken, [tokenId]);
    return rowCount === 1;
  }

  async history(accountId: string, limit: number = DEFAULT_HISTORY_LIMIT): Promise<LedgerEntry[]> {
    await this.#open();
    assertNonNegativeInteger('limit', limit);
    const { rows } = await this.#pool.query<EntryRow>(this.#sql.selectHistory, [accountId, limit]);
    // Accounts are never deleted, so entries prove the account exists; only an empty answer needs the check.
    if (rows.length === 0) await this.#requireBalance(accountId);
    return rows.map(toEntry);
  }

  async listAccounts(): Promise<Account[]> {
    await this.#open();
    const { rows } = await this.#pool.query<{ id: string; balance: string; created_at: Date }>(this.#sql.selectAccounts);
    return rows.map((row) => ({ id: row.id, balance: Number(row.balance), createdAt: row.created_at.toISOString() }));
  }

  async listTokens(accountId?: string): Promise<TokenInfo[]> {
    await this.#open();
    const { rows } = await this.#pool.query<{ id: string; account_id: string; label: string | null; created_at: Date;
      revoked_at: Date | null }>(this.#sql.selectTokens, [accountId ?? null]);
    return rows.map((row) => ({ id: row.id, accountId: row.account_id, createdAt: row.created_at.toISOString(),
      ...(row.label === null ? {} : { label: row.label }),
      ...(row.revoked_at === null ? {} : { revokedAt: row.revoked_at.toISOString() }) }));
  }

  /**
   * Closes the ledger: later calls throw `LedgerClosedError`. Ends the pool the ledger opened, once its running
   * queries finish; a pool passed in `options.pool` stays open, its owner ends it.
   */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#recovery);
    await this.#ready.catch(() => undefined);
    (await this.#lease?.catch(() => undefined))?.release();
    if (this.#ownsPool) await this.#pool.end();
  }

  async #open(): Promise<void> {
    if (this.#closed) throw new LedgerClosedError();
    await this.#ready;
    if (this.#closed) throw new LedgerClosedError();
  }

  async #migrate(schema: string): Promise<void> {
    const { client, release } = await checkoutClient(this.#pool);
    try {
      await migrate(client, schema);
    } finally {
      release();
    }
  }

  async #requireBalance(accountId: string, client: pg.Pool | pg.PoolClient = this.#pool): Promise<number> {
    const { rows: [row] } = await client.query<{ balance: string }>(this.#sql.selectBalance, [accountId]);
    if (!row) throw new UnknownAccountError(accountId);
    return Number(row.balance);
  }
}

/**
 * The ledger's SQL, with the schema written into every table name, so that the ledger never changes the
 * `search_path` of a connection it borrows from someone else's pool. Parameters carry explicit types because
 * PostgreSQL cannot infer them inside `INSERT … SELECT`.
 */
function statements(schema: string) {
  const accounts = `${schema}.accounts`;
  const entries = `${schema}.entries`;
  const tokens = `${schema}.tokens`;
  const deliveries = `${schema}.pending_deliveries`;
  // Charge $2 of account $1 as entry $3 with memo $4, if the balance allows.
  const debit = `WITH debited AS (
        UPDATE ${accounts} SET balance = balance - $2::bigint
        WHERE id = $1::text AND balance >= $2::bigint RETURNING id, balance
      ), entry AS (
        INSERT INTO ${entries} (id, account_id, kind, amount, balance_after, memo)
        SELECT $3::text, id, 'charge', $2::bigint, balance, $4::text FROM debited
      )`;
  const entryColumns = 'id, account_id, kind, amount, balance_after, memo, created_at, refund_of';
  return {
    selectAccount: `SELECT id, balance, created_at FROM ${accounts} WHERE id = $1::text`,
    selectBalance: `SELECT balance FROM ${accounts} WHERE id = $1::text`,
    lockAccount: `SELECT balance FROM ${accounts} WHERE id = $1::text FOR UPDATE`,
    // The account and its opening top-up in one statement; no row back means the id was taken.
    createAccount: `WITH account AS (
        INSERT INTO ${accounts} (id, balance) VALUES ($1::text, $2::bigint)
        ON CONFLICT (id) DO NOTHING RETURNING id, balance, created_at
      ), opening AS (
        INSERT INTO ${entries} (id, account_id, kind, amount, balance_after, memo, created_at)
        SELECT $3::text, id, 'topup', balance, balance, 'opening balance', created_at FROM account WHERE balance > 0
      )
      SELECT created_at FROM account`,
    // The debit and its entry in one statement; no row back means refused (or no such account).
    charge: `${debit}
      SELECT balance FROM debited`,
    // A charge whose answer is still being delivered, under lease $5 (see postgresDeliveries.ts).
    chargePending: `${debit}, pending AS (
        INSERT INTO ${deliveries} (charge_id, holder) SELECT $3::text, $5::int FROM debited
      )
      SELECT balance FROM debited`,
    pendingHolders: `SELECT DISTINCT holder FROM ${deliveries}`,
    pendingCount: `SELECT count(*) AS n FROM ${deliveries}`,
    pendingOf: `SELECT charge_id FROM ${deliveries} WHERE holder = $1::int`,
    deleteDelivery: `DELETE FROM ${deliveries} WHERE charge_id = $1::text`,
    topUp: `WITH credited AS (
        UPDATE ${accounts} SET balance = balance + $2::bigint
        WHERE id = $1::text AND balance <= $3::bigint RETURNING id, balance
      ), entry AS (
        INSERT INTO ${entries} (id, account_id, kind, amount, balance_after, memo)
        SELECT $4::text, id, 'topup', $2::bigint, balance, $5::text FROM credited
      )
      SELECT balance FROM credited`,
    refund: `WITH credited AS (
        UPDATE ${accounts} SET balance = balance + $2::bigint
        WHERE id = $1::text AND balance <= $3::bigint RETURNING id, balance
      ), entry AS (
        INSERT INTO ${entries} (id, account_id, kind, amount, balance_after, refund_of)
        SELECT $4::text, id, 'refund', $2::bigint, balance, $5::text FROM credited
      )
      SELECT balance FROM credited`,
    selectCharge: `SELECT account_id, amount FROM ${entries} WHERE id = $1::text AND kind = 'charge'`,
    refundDone: `SELECT a.balance FROM ${entries} e JOIN ${accounts} a ON a.id = e.account_id
      WHERE e.refund_of = $1::text`,
    selectHistory: `SELECT ${entryColumns} FROM ${entries} WHERE account_id = $1::text ORDER BY seq DESC LIMIT $2::bigint`,
    insertToken: `INSERT INTO ${tokens} (id, account_id, hash, label)
      SELECT $1::text, id, $3::text, $4::text FROM ${accounts} WHERE id = $2::text`,
    selectTokenByHash: `SELECT id, account_id, hash, revoked_at IS NOT NULL AS revoked FROM ${tokens}
      WHERE hash = $1::text`,
    selectAccounts: `SELECT id, balance, created_at FROM ${accounts} ORDER BY created_at, id`,
    selectTokens: `SELECT id, account_id, label, created_at, revoked_at FROM ${tokens}
      WHERE $1::text IS NULL OR account_id = $1::text ORDER BY created_at, id`,
    revokeToken: `UPDATE ${tokens} SET revoked_at = now() WHERE id = $1::text AND revoked_at IS NULL`,
  };
}

/** node-postgres, loaded when a pool is first opened, so that importing the package does not load it. */
function loadPg(): typeof pg {
  return createRequire(import.meta.url)('pg') as typeof pg;
}
