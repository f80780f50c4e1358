/**
 * The contract every ledger implements. Methods are async so that a networked ledger can implement it later;
 * the embedded ledgers of this package do their work synchronously and resolve at once.
 */

/** A credit account. */
export interface Account {
  /** Account id, chosen by the caller or generated (`acct_…`). */
  id: string;
  /** Credits left, a non-negative safe integer. */
  balance: number;
  /** ISO 8601 time of creation. */
  createdAt: string;
}

/** Result of `Ledger.charge`: either the charge was taken, or nothing changed and `shortBy` credits are missing. */
export type ChargeOutcome =
  | { ok: true; chargeId: string; balance: number }
  | { ok: false; balance: number; shortBy: number };

/** Delivers the result an accepted charge pays for; see `Ledger.chargeOnDelivery`. */
export type DeliverCharge = (charged: Extract<ChargeOutcome, { ok: true }>) => Promise<void>;

/** Kind of a ledger entry. */
export type LedgerEntryKind = 'charge' | 'refund' | 'topup';

/** One movement of credits. For every account, balance = Σ top-ups + Σ refunds − Σ charges over its entries. */
export interface LedgerEntry {
  /** Entry id: `ch_…` for a charge (the `chargeId`), `rf_…` for a refund, `tu_…` for a top-up. */
  id: string;
  accountId: string;
  kind: LedgerEntryKind;
  /** Credits moved, a non-negative safe integer (always positive except for a charge of 0). */
  amount: number;
  /** Balance of the account right after this entry. */
  balanceAfter: number;
  /** Free text given by the caller, if any. */
  memo?: string;
  /** ISO 8601 time of the entry. */
  createdAt: string;
  /** For a refund, the id of the charge it credits back. */
  refundOf?: string;
}

/** Options of `Ledger.createAccount`. */
export interface CreateAccountOptions {
  /**
   * Account id, at most 256 characters.
   * @default a random id `acct_…`
   */
  id?: string;
  /**
   * Opening balance, recorded as a top-up entry (memo "opening balance") when positive.
   * @default NEW_ACCOUNT_CREDITS (2000)
   */
  credits?: number;
}

/** An access token as listed: never the token itself nor its hash. */
export interface TokenInfo {
  /** Token id (`tok_…`), what `revokeToken` takes. */
  id: string;
  accountId: string;
  label?: string;
  /** ISO 8601 time of creation. */
  createdAt: string;
  /** ISO 8601 time of revocation, if revoked. */
  revokedAt?: string;
}

/** The identity an access token stands for. */
export interface TokenIdentity {
  accountId: string;
  tokenId: string;
}

/** Credit accounts, their entries and their access tokens. */
export interface Ledger {
  /**
   * Creates an account with `credits` credits (default 2000).
   * @throws {DuplicateAccountError} if `id` is taken
   */
  createAccount(options?: CreateAccountOptions): Promise<Account>;
  /** The account, or undefined if there is none with this id. */
  getAccount(accountId: string): Promise<Account | undefined>;
  /**
   * The account's balance.
   * @throws {UnknownAccountError}
   */
  balance(accountId: string): Promise<number>;
  /**
   * Atomically debits `amount` if and only if the balance allows; never lets a balance go below zero. A refused
   * charge changes nothing and records nothing. A charge of 0 succeeds and records a zero entry, so every
   * accepted charge has an id in the history.
   * @throws {UnknownAccountError}
   */
  charge(accountId: string, amount: number, memo?: string): Promise<ChargeOutcome>;
  /**
   * A charge that stands only if the result it pays for was delivered: debits as `charge` does (the charge shows at
   * once), then awaits `deliver` with the accepted charge; if `deliver` rejects, the charge is refunded and the
   * rejection passed on. A refused charge does not call `deliver`. PostgreSQL also marks the charge pending until
   * `deliver` settles, under a lease of this ledger: if the process dies meanwhile, any other ledger on the schema
   * refunds it (`PostgresLedger.recoverUndelivered`). SQLite marks it under the process (host, id, start time): the
   * next `SqliteLedger` opened on the file after that process died refunds it (`SqliteLedger.recoverUndelivered`).
   * @throws {UnknownAccountError}
   */
  chargeOnDelivery(accountId: string, amount: number, memo: string | undefined, deliver: DeliverCharge): Promise<ChargeOutcome>;
  /**
   * Credits back a charge, at most once per charge: a second refund of the same id is a no-op returning the
   * balance. Returns the balance after the refund.
   * @throws {UnknownChargeError} if `chargeId` is not the id of a charge
   */
  refund(chargeId: string): Promise<number>;
  /**
   * A top-up, as a purchase would do. Returns the balance after it. A top-up of 0 records nothing.
   * @throws {UnknownAccountError}
   * @throws {BalanceLimitError} if the balance would exceed `Number.MAX_SAFE_INTEGER`
   */
  topUp(accountId: string, amount: number, memo?: string): Promise<number>;
  /**
   * Creates an access token: returns the plain token exactly once; only its SHA-256 hash is stored.
   * @throws {UnknownAccountError}
   */
  createToken(accountId: string, label?: string): Promise<{ token: string; tokenId: string }>;
  /** Resolves a plain token to its account, or undefined for an unknown, malformed or revoked token. */
  authenticate(token: string): Promise<TokenIdentity | undefined>;
  /** Revokes a token; true if it was active, false if it was unknown or already revoked. */
  revokeToken(tokenId: string): Promise<boolean>;
  /** Every account, oldest first. */
  listAccounts(): Promise<Account[]>;
  /** The tokens of one account, or of every account, oldest first; ids and labels only. */
  listTokens(accountId?: string): Promise<TokenInfo[]>;
  /**
   * The account's charges, refunds and top-ups, newest first, at most `limit` of them (default 100).
   * @throws {UnknownAccountError}
   */
  history(accountId: string, limit?: number): Promise<LedgerEntry[]>;
  /** Releases the ledger's resources; later calls throw `LedgerClosedError`. Closing twice is harmless. */
  close(): Promise<void>;
}

/** Entries returned by `history` when no limit is given. */
export const DEFAULT_HISTORY_LIMIT = 100;

/**
 * `chargeOnDelivery` for a ledger of one process: the charge is recorded and refunded when `deliver` rejects (a
 * charge and its refund in the history).
 */
export async function refundUndelivered(
  ledger: Pick<Ledger, 'charge' | 'refund'>, accountId: string, amount: number, memo: string | undefined, deliver: DeliverCharge,
): Promise<ChargeOutcome> {
  const charged = await ledger.charge(accountId, amount, memo);
  if (!charged.ok) return charged;
  try {
    await deliver(charged);
  } catch (error) {
    await ledger.refund(charged.chargeId);
    throw error;
  }
  return charged;
}
