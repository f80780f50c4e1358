import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PostgresLedger, SqliteLedger } from '@content-analysis/credits';
import type { Ledger } from '@content-analysis/credits';
import { dropSchema, freshSchema, postgresSkipReason, postgresUrl } from '../../server/test/services.js';
import { main } from '../src/index.js';
import { captureIo } from './io.js';

const dir = mkdtempSync(join(tmpdir(), 'ca-accounts-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function run(argv: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; out: string; err: string }> {
  const io = captureIo('', env);
  const code = await main(argv, io);
  return { code, out: io.out(), err: io.err() };
}

/**
 * The same operator session against each store: flags name the store (`--db` or `--database`), or the environment
 * does, as for `serve`.
 */
function describeStore(name: string, skip: string | undefined, store: () => { flags: string[]; env: NodeJS.ProcessEnv; open: () => Promise<Ledger>; cleanup?: () => Promise<void> }) {
  describe.skipIf(skip !== undefined)(`accounts, tokens and credits on ${name}`, () => {
    const s = store();
    afterAll(async () => s.cleanup?.());

    it('opens an account, makes a token shown once and stored as a hash, lists, tops up and revokes', async () => {
      const created = await run(['accounts', 'create', 'ops-team', '--credits', '100', ...s.flags], s.env);
      expect(created.code).toBe(0);
      expect(JSON.parse(created.out)).toMatchObject({ account: 'ops-team', balance: 100 });

      const token = await run(['tokens', 'create', '--account', 'ops-team', '--label', 'ci', ...s.flags], s.env);
      expect(token.code).toBe(0);
      const { token: secret, token_id: tokenId } = JSON.parse(token.out);
      expect(secret).toMatch(/^ca_[A-Za-z0-9_-]{43}$/);
      expect(token.err).toMatch(/shown once/);

      const added = await run(['credits', 'add', '250', '--account', 'ops-team', ...s.flags], s.env);
      expect(JSON.parse(added.out)).toEqual({ account: 'ops-team', balance: 350 });

      const listed = await run(['tokens', 'list', '--account', 'ops-team', ...s.flags], s.env);
      expect(JSON.parse(listed.out)).toEqual([{ token_id: tokenId, account: 'ops-team', label: 'ci', created_at: expect.any(String), revoked_at: null }]);
      expect(listed.out).not.toContain(secret.slice(3));

      const accounts = JSON.parse((await run(['accounts', 'list', ...s.flags], s.env)).out);
      expect(accounts).toContainEqual({ account: 'ops-team', balance: 350, created_at: expect.any(String), active_tokens: 1 });

      const ledger = await s.open();
      try {
        expect(await ledger.authenticate(secret)).toEqual({ accountId: 'ops-team', tokenId });
        expect(await run(['tokens', 'revoke', tokenId, ...s.flags], s.env)).toMatchObject({ code: 0 });
        expect(await ledger.authenticate(secret)).toBeUndefined();
      } finally {
        await ledger.close();
      }
      const again = await run(['tokens', 'revoke', tokenId, ...s.flags], s.env);
      expect(again.code).toBe(1);
      expect(again.err).toMatch(/already revoked/);
    });

    it('refuses a token or credits for an account nobody opened, and opens it only when told', async () => {
      const typo = await run(['tokens', 'create', '--account', 'ops-taem', ...s.flags], s.env);
      expect(typo.code).toBe(1);
      expect(typo.err.split('\n')[0]).toBe('content-analysis: no account "ops-taem"; `content-analysis accounts create ops-taem` makes one (or `tokens create --create-account`)');
      expect(typo.out).toBe('');
      const credits = await run(['credits', 'add', '5', '--account', 'ops-taem', ...s.flags], s.env);
      expect(credits.code).toBe(1);
      const accounts = JSON.parse((await run(['accounts', 'list', ...s.flags], s.env)).out) as { account: string }[];
      expect(accounts.map((a) => a.account)).not.toContain('ops-taem');

      const told = await run(['tokens', 'create', '--account', 'ops-taem', '--create-account', ...s.flags], s.env);
      expect(told.code).toBe(0);
      expect(JSON.parse((await run(['credits', 'show', '--account', 'ops-taem', ...s.flags], s.env)).out).balance).toBe(2000);
    });

    it('refuses account ids with a newline or U+202E', async () => {
      for (const id of ['ops\nadmin', 'ops\u202Etxt']) {
        const made = await run(['accounts', 'create', id, ...s.flags], s.env);
        expect(made.code).toBe(2);
        expect(made.err).toMatch(/without control or format characters/);
        expect((await run(['tokens', 'create', '--account', id, '--create-account', ...s.flags], s.env)).code).toBe(2);
      }
    });
  });
}

describeStore('SQLite (--db)', undefined, () => {
  const db = join(dir, 'ledger.sqlite');
  return { flags: ['--db', db], env: {}, open: async () => new SqliteLedger({ path: db }) };
});

const postgresSkip = await postgresSkipReason('CLI account commands on PostgreSQL');
for (const via of ['--database', 'CONTENT_ANALYSIS_DATABASE_URL']) {
  describeStore(`PostgreSQL (${via})`, postgresSkip, () => {
    const schema = freshSchema();
    const flags = via === '--database' ? ['--database', postgresUrl, '--database-schema', schema] : [];
    const env = via === '--database' ? {} : { CONTENT_ANALYSIS_DATABASE_URL: postgresUrl, CONTENT_ANALYSIS_DATABASE_SCHEMA: schema };
    return {
      flags,
      env,
      open: () => PostgresLedger.open({ connectionString: postgresUrl, schema, maxConnections: 1 }),
      cleanup: () => dropSchema(schema),
    };
  });
}
