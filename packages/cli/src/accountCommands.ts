import { assertAccountId, NEW_ACCOUNT_CREDITS, PostgresLedger, UnknownAccountError } from '@content-analysis/credits';
import type { Ledger } from '@content-analysis/credits';
import { parseCommandLine } from './commandLine.js';
import { CliError, UsageError } from './errors.js';
import { DEFAULT_ACCOUNT, ledgerPath, openLedger } from './ledgerFile.js';
import type { CliIo } from './main.js';
import { redact, serveStores } from './serve.js';

/**
 * `accounts`, `tokens` and `credits`: what an operator does to the ledger, against the store `serve` uses: the
 * PostgreSQL ledger of `--database` (or `$CONTENT_ANALYSIS_DATABASE_URL`) in `--database-schema`, else the SQLite
 * file of `--db` (or `$CONTENT_ANALYSIS_DB`). A named account must exist: a typo in `--account` is refused rather
 * than opening a new funded account, unless `accounts create` made it or `tokens create --create-account` says so.
 */
export async function accountCommand(command: 'accounts' | 'tokens' | 'credits', argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandLine(argv, {
    db: { type: 'string' },
    database: { type: 'string' },
    'database-schema': { type: 'string' },
    account: { type: 'string' },
    label: { type: 'string' },
    credits: { type: 'string' },
    'create-account': { type: 'boolean' },
  });
  const [sub, ...args] = positionals;
  const known = SUBCOMMANDS[command];
  if (sub === undefined) throw new UsageError(`${command}: missing subcommand (${known.join(', ')})`);
  if (!known.includes(sub)) throw new UsageError(`Unknown command: ${command} ${sub}`);
  const expected = command === 'tokens' && sub === 'revoke' ? 1 : command === 'credits' && sub === 'add' ? 1
    : command === 'accounts' && sub === 'create' ? [0, 1] : 0;
  const counts = Array.isArray(expected) ? expected : [expected];
  if (!counts.includes(args.length)) {
    throw new UsageError(args.length > Math.max(...counts) ? `${command} ${sub}: unexpected argument "${args[Math.max(...counts)]}"`
      : `${command} ${sub}: missing ${command === 'tokens' ? '<token-id>' : '<amount>'}`);
  }
  const accountId = values.account ?? DEFAULT_ACCOUNT;
  checkAccountId('--account', accountId);
  const ledger = await openAccountLedger(values, io.env);
  try {
    const out = (value: unknown) => io.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
    const requireAccount = async (id: string) => {
      // The default account is the one `serve` makes on its first start; any other must have been made on purpose.
      if (id === DEFAULT_ACCOUNT) return (await ledger.getAccount(id)) ?? ledger.createAccount({ id });
      const account = await ledger.getAccount(id);
      if (!account) throw new CliError(`no account "${id}"; \`content-analysis accounts create ${id}\` makes one (or \`tokens create --create-account\`)`);
      return account;
    };
    if (command === 'accounts' && sub === 'list') {
      const tokens = await ledger.listTokens();
      out((await ledger.listAccounts()).map((a) => ({
        account: a.id, balance: a.balance, created_at: a.createdAt,
        active_tokens: tokens.filter((t) => t.accountId === a.id && t.revokedAt === undefined).length,
      })));
      return 0;
    }
    if (command === 'accounts' && sub === 'create') {
      const id = args[0] ?? values.account;
      if (id !== undefined) checkAccountId('<account-id>', id);
      const credits = values.credits === undefined ? NEW_ACCOUNT_CREDITS : nonNegativeInteger('--credits', values.credits);
      const account = await ledger.createAccount({ ...(id === undefined ? {} : { id }), credits });
      out({ account: account.id, balance: account.balance, created_at: account.createdAt });
      return 0;
    }
    if (command === 'tokens' && sub === 'create') {
      if (values['create-account'] === true && !(await ledger.getAccount(accountId))) await ledger.createAccount({ id: accountId });
      await requireAccount(accountId);
      const { token, tokenId } = await ledger.createToken(accountId, values.label);
      out({ account: accountId, token_id: tokenId, token });
      io.stderr.write('This token is shown once; only its hash is stored.\n');
      return 0;
    }
    if (command === 'tokens' && sub === 'list') {
      const tokens = await ledger.listTokens(values.account);
      out(tokens.map((t) => ({ token_id: t.id, account: t.accountId, label: t.label ?? null, created_at: t.createdAt, revoked_at: t.revokedAt ?? null })));
      return 0;
    }
    if (command === 'tokens' && sub === 'revoke') {
      const tokenId = args[0]!;
      if (!(await ledger.revokeToken(tokenId))) {
        const known = (await ledger.listTokens()).some((t) => t.id === tokenId);
        throw new CliError(known ? `token ${tokenId} was already revoked` : `no token with id ${tokenId} (\`tokens list\` shows them)`);
      }
      out({ token_id: tokenId, revoked: true });
      return 0;
    }
    if (command === 'credits' && sub === 'show') {
      const account = await ledger.getAccount(accountId);
      if (!account) throw new CliError(`no account "${accountId}"; \`content-analysis accounts create ${accountId}\` makes one`);
      out({ account: account.id, balance: account.balance, history: await ledger.history(accountId, 10) });
      return 0;
    }
    // credits add
    const amount = Number(args[0]);
    if (!Number.isSafeInteger(amount) || amount <= 0) throw new UsageError(`Expected positive integer for amount but received ${args[0]}`);
    await requireAccount(accountId);
    out({ account: accountId, balance: await ledger.topUp(accountId, amount, 'top-up (cli)') });
    return 0;
  } catch (error) {
    if (error instanceof UnknownAccountError) throw new CliError(`no account "${error.accountId}"`, { cause: error });
    throw error;
  } finally {
    await ledger.close();
  }
}

const SUBCOMMANDS: Record<'accounts' | 'tokens' | 'credits', string[]> = {
  accounts: ['list', 'create'],
  tokens: ['create', 'list', 'revoke'],
  credits: ['show', 'add'],
};

function checkAccountId(flag: string, id: string): void {
  try {
    assertAccountId(flag, id);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

function nonNegativeInteger(flag: string, value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isSafeInteger(n) || n < 0) throw new UsageError(`Expected non-negative integer for ${flag} but received ${value}`);
  return n;
}

/** The ledger of `serve`'s stores: PostgreSQL when a database URL is named, else the SQLite file. */
export async function openAccountLedger(values: Record<string, string | boolean | undefined>, env: NodeJS.ProcessEnv): Promise<Ledger> {
  const stores = serveStores(values, env);
  if (stores.database === undefined) return openLedger(ledgerPath(typeof values.db === 'string' ? values.db : undefined, env));
  try {
    return await PostgresLedger.open({ connectionString: stores.database, schema: stores.databaseSchema, maxConnections: 2 });
  } catch (error) {
    if (error instanceof TypeError) throw new UsageError(`--database: ${error.message}`);
    throw new CliError(`cannot open the PostgreSQL ledger at ${redact(stores.database)}: ${(error as Error).message}`, { cause: error });
  }
}
