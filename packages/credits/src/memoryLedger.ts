import { NEW_ACCOUNT_CREDITS } from './costs.js';
import {
  BalanceLimitError, DuplicateAccountError, LedgerClosedError, UnknownAccountError, UnknownChargeError,
} from './errors.js';
import { DEFAULT_HISTORY_LIMIT, refundUndelivered } from './ledger.js';
import type {
  Account, ChargeOutcome, CreateAccountOptions, DeliverCharge, Ledger, LedgerEntry, LedgerEntryKind, TokenIdentity, TokenInfo,
} from './ledger.js';
import { generateToken, hashesEqual, hashToken, isWellFormedToken, randomId } from './tokens.js';
import { assertAccountId, assertNonNegativeInteger, assertOptionalString } from './validate.js';

interface StoredAccount {
  id: string;
  balance: number;
  createdAt: string;
  /** Entries, oldest first. */
  entries: LedgerEntry[];
}

interface StoredToken {
  id: string;
  accountId: string;
  hash: string;
  label: string | undefined;
  revoked: boolean;
  createdAt: string;
  revokedAt?: string;
}

/**
 * A ledger held in memory, for tests, demos and single-process embedding; everything is lost when the process
 * ends. Each method does all its work synchronously before its promise resolves, so, JavaScript being
 * single-threaded, every operation is atomic: concurrent charges can never overdraw an account.
 */
export class MemoryLedger implements Ledger {
  readonly #accounts = new Map<string, StoredAccount>();
  readonly #charges = new Map<string, { entry: LedgerEntry; refunded: boolean }>();
  readonly #tokensByHash = new Map<string, StoredToken>();
  readonly #tokensById = new Map<string, StoredToken>();
  #closed = false;

  async createAccount(options: CreateAccountOptions = {}): Promise<Account> {
    this.#open();
    const id = options.id ?? randomId('acct_');
    const credits = options.credits ?? NEW_ACCOUNT_CREDITS;
    assertAccountId('id', id);
    assertNonNegativeInteger('credits', credits);
    if (this.#accounts.has(id)) throw new DuplicateAccountError(id);
    const account: StoredAccount = { id, balance: 0, createdAt: new Date().toISOString(), entries: [] };
    this.#accounts.set(id, account);
    if (credits > 0) this.#record(account, 'topup', credits, credits, 'opening balance');
    return { id, balance: account.balance, createdAt: account.createdAt };
  }

  async getAccount(accountId: string): Promise<Account | undefined> {
    this.#open();
    const account = this.#accounts.get(accountId);
    return account && { id: account.id, balance: account.balance, createdAt: account.createdAt };
  }

  async balance(accountId: string): Promise<number> {
    this.#open();
    return this.#account(accountId).balance;
  }

  async charge(accountId: string, amount: number, memo?: string): Promise<ChargeOutcome> {
    this.#open();
    assertNonNegativeInteger('amount', amount);
    assertOptionalString('memo', memo);
    const account = this.#account(accountId);
    if (account.balance < amount) return { ok: false, balance: account.balance, shortBy: amount - account.balance };
    const entry = this.#record(account, 'charge', amount, account.balance - amount, memo);
    this.#charges.set(entry.id, { entry, refunded: false });
    return { ok: true, chargeId: entry.id, balance: account.balance };
  }

  async chargeOnDelivery(accountId: string, amount: number, memo: string | undefined, deliver: DeliverCharge): Promise<ChargeOutcome> {
    return refundUndelivered(this, accountId, amount, memo, deliver);
  }

  async refund(chargeId: string): Promise<number> {
    this.#open();
    const charge = this.#charges.get(chargeId);
    if (!charge) throw new UnknownChargeError(chargeId);
    const account = this.#account(charge.entry.accountId);
    if (charge.refunded) return account.balance;
    const amount = charge.entry.amount;
    if (account.balance > Number.MAX_SAFE_INTEGER - amount) {
      throw new BalanceLimitError(account.id, account.balance, amount);
    }
    charge.refunded = true;
    this.#record(account, 'refund', amount, account.balance + amount, undefined, chargeId);
    return account.balance;
  }

  async topUp(accountId: string, amount: number, memo?: string): Promise<number> {
    this.#open();
    assertNonNegativeInteger('amount', amount);
    assertOptionalString('memo', memo);
    const account = this.#account(accountId);
    if (amount === 0) return account.balance;
    if (account.balance > Number.MAX_SAFE_INTEGER - amount) {
      throw new BalanceLimitError(account.id, account.balance, amount);
    }
    this.#record(account, 'topup', amount, account.balance + amount, memo);
    return account.balance;
  }

  async createToken(accountId: string, label?: string): Promise<{ token: string; tokenId: string }> {
    this.#open();
    assertOptionalString('label', label);
    this.#account(accountId);
    const token = generateToken();
    const stored: StoredToken = { id: randomId('tok_'), accountId, hash: hashToken(token), label, revoked: false,
      createdAt: new Date().toISOString() };
    this.#tokensByHash.set(stored.hash, stored);
    this.#tokensById.set(stored.id, stored);
    return { token, tokenId: stored.id };
  }

  async authenticate(token: string): Promise<TokenIdentity | undefined> {
    this.#open();
    if (!isWellFormedToken(token)) return undefined;
    const hash = hashToken(token);
    const stored = this.#tokensByHash.get(hash);
    if (!stored || stored.revoked || !hashesEqual(stored.hash, hash)) return undefined;
    return { accountId: stored.accountId, tokenId: stored.id };
  }

  async revokeToken(tokenId: string): Promise<boolean> {
    this.#open();
    const stored = this.#tokensById.get(tokenId);
    if (!stored || stored.revoked) return false;
    stored.revoked = true;
    stored.revokedAt = new Date().toISOString();
    return true;
  }

  async history(accountId: string, limit: number = DEFAULT_HISTORY_LIMIT): Promise<LedgerEntry[]> {
    this.#open();
    assertNonNegativeInteger('limit', limit);
    const { entries } = this.#account(accountId);
    return entries.slice(Math.max(0, entries.length - limit)).reverse().map((entry) => ({ ...entry }));
  }

  async listAccounts(): Promise<Account[]> {
    this.#open();
    return [...this.#accounts.values()].map(({ id, balance, createdAt }) => ({ id, balance, createdAt }));
  }

  async listTokens(accountId?: string): Promise<TokenInfo[]> {
    this.#open();
    return [...this.#tokensById.values()].filter((t) => accountId === undefined || t.accountId === accountId)
      .map((t) => ({ id: t.id, accountId: t.accountId, createdAt: t.createdAt,
        ...(t.label === undefined ? {} : { label: t.label }), ...(t.revokedAt === undefined ? {} : { revokedAt: t.revokedAt }) }));
  }

  async close(): Promise<void> {
    this.#closed = true;
  }

  #open(): void {
    if (this.#closed) throw new LedgerClosedError();
  }

  #account(accountId: string): StoredAccount {
    const account = this.#accounts.get(accountId);
    if (!account) throw new UnknownAccountError(accountId);
    return account;
  }

  #record(account: StoredAccount, kind: LedgerEntryKind, amount: number, balanceAfter: number, memo?: string,
    refundOf?: string): LedgerEntry {
    const prefix = kind === 'charge' ? 'ch_' : kind === 'refund' ? 'rf_' : 'tu_';
    const entry: LedgerEntry = { id: randomId(prefix), accountId: account.id, kind, amount, balanceAfter,
      createdAt: new Date().toISOString() };
    if (memo !== undefined) entry.memo = memo;
    if (refundOf !== undefined) entry.refundOf = refundOf;
    account.balance = balanceAfter;
    account.entries.push(entry);
    return entry;
  }
}
