import type { Database as SqliteDatabase, Statement } from 'better-sqlite3';
import { NEW_ACCOUNT_CREDITS } from './costs.js';
import {
  BalanceLimitError, DuplicateAccountError, LedgerBusyError, LedgerClosedError, UnknownAccountError, UnknownChargeError,
} from './errors.js';
import { DEFAULT_HISTORY_LIMIT } from './ledger.js';
import type {
  Account, ChargeOutcome, CreateAccountOptions, DeliverCharge, Ledger, LedgerEntry, LedgerEntryKind, TokenIdentity, TokenInfo,
} from './ledger.js';
import { loadSqlite } from './loadSqlite.js';
import { currentHolder, holderIsGone } from './processHolder.js';
import { migrate } from './sqliteSchema.js';
import { generateToken, hashesEqual, hashToken, isWellFormedToken, randomId } from './tokens.js';
import { assertAccountId, assertNonEmptyString, assertNonNegativeInteger, assertOptionalString } from './validate.js';

/** Options of `SqliteLedger`. */
export interface SqliteLedgerOptions {
  /** Database file, created if missing; `:memory:` for a private in-memory database. */
  path: string;
  /**
   * How long a call waits for another connection (in this or another process) to release the write lock
   * before it fails with `LedgerBusyError`, in milliseconds.
   * @default 5000
   */
  busyTimeout?: number;
}

interface AccountRow { id: string; balance: number; created_at: string }
interface EntryRow {
  id: string; account_id: string; kind: LedgerEntryKind; amount: number; balance_after: number;
  memo: string | null; created_at: string; refund_of: string | null;
}
interface TokenListRow { id: string; account_id: string; label: string | null; created_at: string; revoked_at: string | null }

function toTokenInfo(row: TokenListRow): TokenInfo {
  const info: TokenInfo = { id: row.id, accountId: row.account_id, createdAt: row.created_at };
  if (row.label !== null) info.label = row.label;
  if (row.revoked_at !== null) info.revokedAt = row.revoked_at;
  return info;
}

interface TokenRow { id: string; account_id: string; hash: string; revoked_at: string | null }

const ENTRY_COLUMNS = 'id, account_id, kind, amount, balance_after, memo, created_at, refund_of';
const PREFIX: Record<LedgerEntryKind, string> = { charge: 'ch_', refund: 'rf_', topup: 'tu_' };

function toEntry(row: EntryRow): LedgerEntry {
  const entry: LedgerEntry = { id: row.id, accountId: row.account_id, kind: row.kind, amount: row.amount,
    balanceAfter: row.balance_after, createdAt: row.created_at };
  if (row.memo !== null) entry.memo = row.memo;
  if (row.refund_of !== null) entry.refundOf = row.refund_of;
  return entry;
}

/**
 * A durable ledger in one SQLite file (better-sqlite3), safe to share between threads and processes.
 *
 * Every write is one `BEGIN IMMEDIATE` transaction: it takes the database's write lock before reading, so the
 * check of a balance and the debit cannot interleave with another writer, in this process or another. A charge
 * is a conditional `UPDATE … WHERE balance >= amount`, and the schema's CHECK constraints refuse a negative
 * balance and a second refund of one charge even if the code were wrong. The journal is a write-ahead log
 * (`journal_mode = WAL`, readers never block the writer) and `synchronous = FULL` syncs it at every commit, so
 * a charge that has returned survives a crash of the process or of the machine.
 */
export class SqliteLedger implements Ledger {
  readonly #db: SqliteDatabase;
  readonly #sql: Statements;
  readonly #tx: Transactions;
  #closed = false;

  constructor(options: SqliteLedgerOptions) {
    if (typeof options !== 'object' || options === null) {
      throw new TypeError(`Expected object for options but received ${String(options)} of type ${typeof options}`);
    }
    assertNonEmptyString('path', options.path, 4096);
    const busyTimeout = options.busyTimeout ?? 5000;
    assertNonNegativeInteger('busyTimeout', busyTimeout);
    const Database = loadSqlite('SqliteLedger');
    this.#db = new Database(options.path);
    try {
      // The busy timeout comes first: switching to WAL and migrating may have to wait for another process.
      this.#db.pragma(`busy_timeout = ${busyTimeout}`);
      this.#db.pragma('journal_mode = WAL');
      this.#db.pragma('synchronous = FULL');
      this.#db.pragma('foreign_keys = ON');
      translateBusy(() => migrate(this.#db));
      this.#sql = prepare(this.#db);
      this.#tx = transactions(this.#db, this.#sql);
      // Charges left pending by a process that died mid-delivery (killed, out of memory, machine lost) are refunded
      // as the file is opened again.
      translateBusy(() => this.#tx.recover.immediate());
    } catch (error) {
      this.#db.close();
      throw error;
    }
  }

  async createAccount(options: CreateAccountOptions = {}): Promise<Account> {
    this.#open();
    const id = options.id ?? randomId('acct_');
    const credits = options.credits ?? NEW_ACCOUNT_CREDITS;
    assertAccountId('id', id);
    assertNonNegativeInteger('credits', credits);
    return translateBusy(() => this.#tx.createAccount.immediate(id, credits, new Date().toISOString()));
  }

  async getAccount(accountId: string): Promise<Account | undefined> {
    this.#open();
    const row = translateBusy(() => this.#sql.selectAccount.get(accountId) as AccountRow | undefined);
    return row && { id: row.id, balance: row.balance, createdAt: row.created_at };
  }

  async balance(accountId: string): Promise<number> {
    this.#open();
    const row = translateBusy(() => this.#sql.selectAccount.get(accountId) as AccountRow | undefined);
    if (!row) throw new UnknownAccountError(accountId);
    return row.balance;
  }

  async charge(accountId: string, amount: number, memo?: string): Promise<ChargeOutcome> {
    this.#open();
    assertNonNegativeInteger('amount', amount);
    assertOptionalString('memo', memo);
    return this.#groupCommit(() => this.#tx.charge(accountId, amount, memo ?? null));
  }

  /**
   * The charge and a pending mark under this process (`host pid start`) in one transaction; the mark goes once
   * `deliver` resolved, and with a refund when it rejects. If the process dies in between, the next `SqliteLedger`
   * opened on the file (this or another process, on this host) refunds the charge: see `recoverUndelivered`.
   */
  async chargeOnDelivery(accountId: string, amount: number, memo: string | undefined, deliver: DeliverCharge): Promise<ChargeOutcome> {
    this.#open();
    assertNonNegativeInteger('amount', amount);
    assertOptionalString('memo', memo);
    // The charge and the refund are committed with the other writes of their turn of the event loop (#groupCommit);
    // the mark's removal at once, so that a process killed after an answer left does not get that charge refunded.
    const charged = await this.#groupCommit(() => this.#tx.chargePending(accountId, amount, memo ?? null, HOLDER));
    if (!charged.ok) return charged;
    try {
      await deliver(charged);
    } catch (error) {
      // A ledger closed meanwhile leaves the mark: the next one to open the file refunds it once this process is gone.
      if (!this.#closed) await this.#groupCommit(() => this.#tx.refundPending(charged.chargeId));
      throw error;
    }
    if (!this.#closed) translateBusy(() => this.#sql.deleteDelivery.run(charged.chargeId));
    return charged;
  }

  /**
   * Refunds the charges left pending by processes of this host that are gone, and clears their marks; resolves
   * with how many. Runs when a ledger opens the file; a charge is credited back at most once.
   */
  async recoverUndelivered(): Promise<number> {
    this.#open();
    return translateBusy(() => this.#tx.recover.immediate());
  }

  /** How many charges of any process have an answer being delivered now, or left by a process that died. */
  async pendingDeliveries(): Promise<number> {
    this.#open();
    return translateBusy(() => (this.#sql.pendingCount.get() as { n: number }).n);
  }

  async refund(chargeId: string): Promise<number> {
    this.#open();
    return this.#groupCommit(() => this.#tx.refund(chargeId));
  }

  async topUp(accountId: string, amount: number, memo?: string): Promise<number> {
    this.#open();
    assertNonNegativeInteger('amount', amount);
    assertOptionalString('memo', memo);
    return translateBusy(() => this.#tx.topUp.immediate(accountId, amount, memo ?? null));
  }

  async createToken(accountId: string, label?: string): Promise<{ token: string; tokenId: string }> {
    this.#open();
    assertOptionalString('label', label);
    const token = generateToken();
    const tokenId = randomId('tok_');
    translateBusy(() => this.#tx.createToken.immediate(tokenId, accountId, hashToken(token), label ?? null));
    return { token, tokenId };
  }

  async authenticate(token: string): Promise<TokenIdentity | undefined> {
    this.#open();
    if (!isWellFormedToken(token)) return undefined;
    const hash = hashToken(token);
    const row = translateBusy(() => this.#sql.selectTokenByHash.get(hash) as TokenRow | undefined);
    if (!row || row.revoked_at !== null || !hashesEqual(row.hash, hash)) return undefined;
    return { accountId: row.account_id, tokenId: row.id };
  }

  async revokeToken(tokenId: string): Promise<boolean> {
    this.#open();
    return translateBusy(() => this.#sql.revokeToken.run(new Date().toISOString(), tokenId).changes === 1);
  }

  async history(accountId: string, limit: number = DEFAULT_HISTORY_LIMIT): Promise<LedgerEntry[]> {
    this.#open();
    assertNonNegativeInteger('limit', limit);
    // One read transaction, so the account check and the entries see the same snapshot.
    return translateBusy(() => this.#tx.history.deferred(accountId, limit));
  }

  async listAccounts(): Promise<Account[]> {
    this.#open();
    const rows = translateBusy(() => this.#sql.selectAccounts.all() as AccountRow[]);
    return rows.map((row) => ({ id: row.id, balance: row.balance, createdAt: row.created_at }));
  }

  async listTokens(accountId?: string): Promise<TokenInfo[]> {
    this.#open();
    const rows = translateBusy(() => (accountId === undefined ? this.#sql.selectTokens.all()
      : this.#sql.selectTokensOf.all(accountId)) as TokenListRow[]);
    return rows.map(toTokenInfo);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#commitQueued();
    this.#closed = true;
    this.#db.close();
  }

  /** Charges and refunds (with their delivery marks) queued in this turn of the event loop, committed together at its end. */
  #queued: Array<{ write: () => unknown; resolve: (value: any) => void; reject: (error: unknown) => void }> = [];

  /**
   * Group commit: the charges and refunds asked for in one turn of the event loop (a burst of requests)
   * are written in one `BEGIN IMMEDIATE` transaction at its end, each in a savepoint of its own, in the order they
   * were asked for, and the log is synced once for all of them rather than once each, so the node's thread is not
   * held for fifty syncs in a row. Each write is as atomic as alone (one that fails is rolled back alone), and each
   * promise resolves only once the transaction that holds it has committed.
   */
  #groupCommit<T>(write: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#queued.push({ write, resolve, reject });
      if (this.#queued.length === 1) setImmediate(() => this.#commitQueued());
    });
  }

  #commitQueued(): void {
    const queued = this.#queued.splice(0);
    if (queued.length === 0) return;
    if (this.#closed) {
      for (const q of queued) q.reject(new LedgerClosedError());
      return;
    }
    const outcomes: Array<{ value: unknown } | { error: unknown }> = [];
    try {
      translateBusy(() => this.#tx.batch.immediate(() => {
        for (const q of queued) {
          try {
            outcomes.push({ value: q.write() });
          } catch (error) {
            outcomes.push({ error });
          }
        }
      }));
    } catch (error) {
      for (const q of queued) q.reject(error);
      return;
    }
    queued.forEach((q, i) => {
      const outcome = outcomes[i]!;
      if ('error' in outcome) q.reject(outcome.error);
      else q.resolve(outcome.value);
    });
  }

  #open(): void {
    if (this.#closed) throw new LedgerClosedError();
  }
}

/** This process, as the holder of its pending deliveries. */
const HOLDER = currentHolder();

/**
 * The ledger's transactions. Writes run with `.immediate`: `BEGIN IMMEDIATE` takes the write lock first, so no
 * other connection can change a balance between the read and the write. `history` runs `.deferred`, a snapshot.
 */
function transactions(db: SqliteDatabase, sql: Statements) {
  const record = (accountId: string, kind: LedgerEntryKind, amount: number, balanceAfter: number,
    memo: string | null, refundOf: string | null = null): string => {
    const id = randomId(PREFIX[kind]);
    sql.insertEntry.run(id, accountId, kind, amount, balanceAfter, memo, new Date().toISOString(), refundOf);
    return id;
  };
  const requireBalance = (accountId: string): number => {
    const row = sql.selectAccount.get(accountId) as AccountRow | undefined;
    if (!row) throw new UnknownAccountError(accountId);
    return row.balance;
  };
  const credit = (accountId: string, amount: number): number => {
    const row = sql.credit.get(amount, accountId, Number.MAX_SAFE_INTEGER - amount) as { balance: number } | undefined;
    if (!row) throw new BalanceLimitError(accountId, requireBalance(accountId), amount);
    return row.balance;
  };

  const charge = db.transaction((accountId: string, amount: number, memo: string | null): ChargeOutcome => {
    const row = sql.debit.get(amount, accountId, amount) as { balance: number } | undefined;
    if (!row) {
      const balance = requireBalance(accountId);
      return { ok: false, balance, shortBy: amount - balance };
    }
    return { ok: true, chargeId: record(accountId, 'charge', amount, row.balance, memo), balance: row.balance };
  });
  const refund = db.transaction((chargeId: string): number => {
    const entry = sql.selectEntry.get(chargeId) as EntryRow | undefined;
    if (!entry || entry.kind !== 'charge') throw new UnknownChargeError(chargeId);
    if (sql.selectRefundOf.get(chargeId)) return requireBalance(entry.account_id);
    const balance = credit(entry.account_id, entry.amount);
    record(entry.account_id, 'refund', entry.amount, balance, null, chargeId);
    return balance;
  });

  return {
    createAccount: db.transaction((id: string, credits: number, createdAt: string): Account => {
      if (sql.selectAccount.get(id)) throw new DuplicateAccountError(id);
      sql.insertAccount.run(id, credits, createdAt);
      if (credits > 0) record(id, 'topup', credits, credits, 'opening balance');
      return { id, balance: credits, createdAt };
    }),
    charge,
    refund,
    chargePending: db.transaction((accountId: string, amount: number, memo: string | null, holder: string): ChargeOutcome => {
      const outcome = charge(accountId, amount, memo);
      if (outcome.ok) sql.insertDelivery.run(outcome.chargeId, holder, new Date().toISOString());
      return outcome;
    }),
    refundPending: db.transaction((chargeId: string): number => {
      const balance = refund(chargeId);
      sql.deleteDelivery.run(chargeId);
      return balance;
    }),
    recover: db.transaction((): number => {
      const gone = new Map<string, boolean>();
      let refunded = 0;
      for (const { charge_id: chargeId, holder } of sql.selectDeliveries.all() as Array<{ charge_id: string; holder: string }>) {
        if (!gone.has(holder)) gone.set(holder, holderIsGone(holder));
        if (!gone.get(holder)) continue;
        refund(chargeId);
        sql.deleteDelivery.run(chargeId);
        refunded++;
      }
      return refunded;
    }),
    topUp: db.transaction((accountId: string, amount: number, memo: string | null): number => {
      if (amount === 0) return requireBalance(accountId);
      const balance = credit(accountId, amount);
      record(accountId, 'topup', amount, balance, memo);
      return balance;
    }),
    createToken: db.transaction((tokenId: string, accountId: string, hash: string, label: string | null): void => {
      requireBalance(accountId);
      sql.insertToken.run(tokenId, accountId, hash, label, new Date().toISOString());
    }),
    /** Runs writes of the ledger's own (each a transaction: a savepoint inside this one) as one transaction. */
    batch: db.transaction((writes: () => void): void => writes()),
    history: db.transaction((accountId: string, limit: number): LedgerEntry[] => {
      requireBalance(accountId);
      return (sql.selectHistory.all(accountId, limit) as EntryRow[]).map(toEntry);
    }),
  };
}

type Statements = ReturnType<typeof prepare>;
type Transactions = ReturnType<typeof transactions>;

function prepare(db: SqliteDatabase) {
  const statement = (source: string): Statement => db.prepare(source);
  return {
    selectAccount: statement('SELECT id, balance, created_at FROM accounts WHERE id = ?'),
    insertAccount: statement('INSERT INTO accounts (id, balance, created_at) VALUES (?, ?, ?)'),
    debit: statement('UPDATE accounts SET balance = balance - ? WHERE id = ? AND balance >= ? RETURNING balance'),
    credit: statement('UPDATE accounts SET balance = balance + ? WHERE id = ? AND balance <= ? RETURNING balance'),
    insertEntry: statement(`INSERT INTO entries (${ENTRY_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`),
    selectEntry: statement(`SELECT ${ENTRY_COLUMNS} FROM entries WHERE id = ?`),
    selectRefundOf: statement('SELECT id FROM entries WHERE refund_of = ?'),
    selectHistory: statement(`SELECT ${ENTRY_COLUMNS} FROM entries WHERE account_id = ? ORDER BY seq DESC LIMIT ?`),
    insertToken: statement('INSERT INTO tokens (id, account_id, hash, label, created_at) VALUES (?, ?, ?, ?, ?)'),
    selectTokenByHash: statement('SELECT id, account_id, hash, revoked_at FROM tokens WHERE hash = ?'),
    selectAccounts: statement('SELECT id, balance, created_at FROM accounts ORDER BY created_at, id'),
    selectTokens: statement('SELECT id, account_id, label, created_at, revoked_at FROM tokens ORDER BY created_at, id'),
    selectTokensOf: statement('SELECT id, account_id, label, created_at, revoked_at FROM tokens WHERE account_id = ? ORDER BY created_at, id'),
    revokeToken: statement('UPDATE tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL'),
    insertDelivery: statement('INSERT INTO pending_deliveries (charge_id, holder, created_at) VALUES (?, ?, ?)'),
    deleteDelivery: statement('DELETE FROM pending_deliveries WHERE charge_id = ?'),
    selectDeliveries: statement('SELECT charge_id, holder FROM pending_deliveries ORDER BY created_at, charge_id'),
    pendingCount: statement('SELECT count(*) AS n FROM pending_deliveries'),
  };
}

/** Runs `work`, turning SQLite's "database is locked" (after the busy timeout) into a `LedgerBusyError`. */
function translateBusy<T>(work: () => T): T {
  try {
    return work();
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (error instanceof loadSqlite('SqliteLedger').SqliteError && typeof code === 'string' && code.startsWith('SQLITE_BUSY')) {
      throw new LedgerBusyError({ cause: error });
    }
    throw error;
  }
}
