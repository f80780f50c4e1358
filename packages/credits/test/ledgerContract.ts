import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  BalanceLimitError, DuplicateAccountError, LedgerClosedError, UnknownAccountError, UnknownChargeError,
} from '../src/index.js';
import type { Ledger, LedgerEntry } from '../src/index.js';
import { randomInt, seededRandom } from './random.js';

/** Σ top-ups + Σ refunds − Σ charges: what the balance must equal. */
export function balanceFromEntries(entries: LedgerEntry[]): number {
  return entries.reduce((sum, e) => sum + (e.kind === 'charge' ? -e.amount : e.amount), 0);
}

/**
 * The behaviour every `Ledger` must have, run against a fresh ledger from `factory` in each test.
 */
export function describeLedgerContract(name: string, factory: () => Ledger | Promise<Ledger>): void {
  describe(`${name} (ledger contract)`, () => {
    let ledger: Ledger;
    beforeEach(async () => {
      ledger = await factory();
    });
    afterEach(async () => {
      await ledger.close();
    });

    describe('accounts', () => {
      it('opens a new account with 2000 credits', async () => {
        const account = await ledger.createAccount();
        expect(account.balance).toBe(2000);
        expect(await ledger.balance(account.id)).toBe(2000);
        expect(account.id).toMatch(/^acct_/);
        expect(Number.isNaN(Date.parse(account.createdAt))).toBe(false);
      });

      it('opens an account with a chosen id and balance', async () => {
        const account = await ledger.createAccount({ id: 'team-7', credits: 50 });
        expect(await ledger.getAccount('team-7')).toEqual({ id: 'team-7', balance: 50, createdAt: account.createdAt });
      });

      it('records the opening balance as a top-up', async () => {
        const { id } = await ledger.createAccount({ credits: 70 });
        const [entry] = await ledger.history(id);
        expect(entry).toMatchObject({ kind: 'topup', amount: 70, balanceAfter: 70, accountId: id });
      });

      it('refuses a second account with the same id', async () => {
        await ledger.createAccount({ id: 'a' });
        await expect(ledger.createAccount({ id: 'a' })).rejects.toBeInstanceOf(DuplicateAccountError);
        await expect(ledger.createAccount({ id: 'a' })).rejects.toMatchObject({ code: 'ERR_DUPLICATE_ACCOUNT' });
      });

      it('rejects a negative opening balance', async () => {
        await expect(ledger.createAccount({ credits: -1 })).rejects.toThrow(
          'Expected non-negative integer for credits but received -1 of type number');
      });

      it('refuses account ids with control, format or separator characters, or surrounding white space', async () => {
        for (const id of ['ops\nadmin', 'ops\u202Etxt.exe', 'ops\u200Bteam', 'tab\there', ' ops', 'ops ', 'a\u2028b', '']) {
          await expect(ledger.createAccount({ id })).rejects.toBeInstanceOf(TypeError);
        }
        await expect(ledger.createAccount({ id: 'ops\u202Etxt' })).rejects.toThrow(/U\+202E at 3/);
        expect(await ledger.listAccounts()).toEqual([]);
        expect((await ledger.createAccount({ id: 'équipe ops@example.com' })).id).toBe('équipe ops@example.com');
      });

      it('lists every account with its balance', async () => {
        const first = await ledger.createAccount({ id: 'first', credits: 5 });
        const second = await ledger.createAccount({ id: 'second', credits: 0 });
        await ledger.charge('first', 2);
        expect((await ledger.listAccounts()).sort((a, b) => a.id.localeCompare(b.id))).toEqual([
          { id: 'first', balance: 3, createdAt: first.createdAt },
          { id: 'second', balance: 0, createdAt: second.createdAt },
        ]);
      });

      it('returns undefined for an unknown account', async () => {
        expect(await ledger.getAccount('nobody')).toBeUndefined();
      });

      it('throws UnknownAccountError for the balance of an unknown account', async () => {
        await expect(ledger.balance('nobody')).rejects.toMatchObject({ code: 'ERR_UNKNOWN_ACCOUNT', accountId: 'nobody' });
      });
    });

    describe('charges', () => {
      it('debits the amount and returns the new balance and a charge id', async () => {
        const { id } = await ledger.createAccount();
        const outcome = await ledger.charge(id, 300, 'image detection');
        expect(outcome).toEqual({ ok: true, chargeId: expect.stringMatching(/^ch_/), balance: 1700 });
        expect(await ledger.balance(id)).toBe(1700);
      });

      it('allows a charge of the whole balance', async () => {
        const { id } = await ledger.createAccount({ credits: 10 });
        expect(await ledger.charge(id, 10)).toMatchObject({ ok: true, balance: 0 });
      });

      it('refuses a charge larger than the balance and changes nothing', async () => {
        const { id } = await ledger.createAccount({ credits: 100 });
        const before = await ledger.history(id);
        expect(await ledger.charge(id, 101)).toEqual({ ok: false, balance: 100, shortBy: 1 });
        expect(await ledger.balance(id)).toBe(100);
        expect(await ledger.history(id)).toEqual(before);
      });

      it('accepts a charge of 0 and records a zero entry', async () => {
        const { id } = await ledger.createAccount({ credits: 0 });
        const outcome = await ledger.charge(id, 0);
        expect(outcome).toMatchObject({ ok: true, balance: 0 });
        expect(await ledger.history(id)).toEqual([expect.objectContaining({ kind: 'charge', amount: 0, balanceAfter: 0 })]);
      });

      it('throws UnknownAccountError when charging an unknown account', async () => {
        await expect(ledger.charge('nobody', 1)).rejects.toBeInstanceOf(UnknownAccountError);
      });

      it('rejects amounts that are not non-negative safe integers', async () => {
        const { id } = await ledger.createAccount();
        for (const bad of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53, '5']) {
          await expect(ledger.charge(id, bad as number), String(bad)).rejects.toBeInstanceOf(RangeError);
        }
        expect(await ledger.balance(id)).toBe(2000);
      });
    });

    describe('charges on delivery', () => {
      it('charges once deliver resolves, and hands deliver the accepted charge', async () => {
        const { id } = await ledger.createAccount();
        const delivered: unknown[] = [];
        const outcome = await ledger.chargeOnDelivery(id, 300, 'image detection', async (charged) => {
          delivered.push(charged);
        });
        expect(outcome).toEqual({ ok: true, chargeId: expect.stringMatching(/^ch_/), balance: 1700 });
        expect(delivered).toEqual([outcome]);
        expect(await ledger.balance(id)).toBe(1700);
        expect((await ledger.history(id))[0]).toMatchObject({ kind: 'charge', amount: 300, memo: 'image detection' });
      });

      it('withdraws the charge when deliver rejects, and passes the rejection on', async () => {
        const { id } = await ledger.createAccount();
        const gone = new Error('connection closed');
        await expect(ledger.chargeOnDelivery(id, 300, 'image detection', async () => {
          throw gone;
        })).rejects.toBe(gone);
        expect(await ledger.balance(id)).toBe(2000);
        expect(balanceFromEntries(await ledger.history(id))).toBe(2000);
      });

      it('does not call deliver for a refused charge', async () => {
        const { id } = await ledger.createAccount({ credits: 100 });
        let calls = 0;
        expect(await ledger.chargeOnDelivery(id, 101, undefined, async () => {
          calls++;
        })).toEqual({ ok: false, balance: 100, shortBy: 1 });
        expect(calls).toBe(0);
      });

      it('settles 40 concurrent charges with slow deliveries exactly: only the delivered ones stay charged', async () => {
        const { id } = await ledger.createAccount({ credits: 1000 });
        const outcomes = await Promise.allSettled(Array.from({ length: 40 }, (_, i) => ledger.chargeOnDelivery(id, 100, undefined, async () => {
          await new Promise((resolve) => setTimeout(resolve, 2));
          if (i % 2 === 1) throw new Error(`delivery ${i} failed`);
        })));
        const delivered = outcomes.flatMap((o, i) => (o.status === 'fulfilled' && o.value.ok ? [i] : []));
        const withdrawn = outcomes.flatMap((o, i) => (o.status === 'rejected' ? [i] : []));
        const final = await ledger.balance(id);
        expect(delivered.length).toBeGreaterThanOrEqual(1);
        expect(withdrawn.length).toBeGreaterThanOrEqual(1);
        expect(delivered.every((i) => i % 2 === 0)).toBe(true);
        expect(withdrawn.every((i) => i % 2 === 1)).toBe(true);
        expect(final).toBe(1000 - 100 * delivered.length);
        expect(balanceFromEntries(await ledger.history(id, 1000))).toBe(final);
      });

      it('throws UnknownAccountError for an unknown account', async () => {
        await expect(ledger.chargeOnDelivery('nobody', 1, undefined, async () => undefined)).rejects.toBeInstanceOf(UnknownAccountError);
      });
    });

    describe('refunds', () => {
      it('credits a charge back', async () => {
        const { id } = await ledger.createAccount();
        const charge = await ledger.charge(id, 500);
        if (!charge.ok) throw new Error('charge refused');
        expect(await ledger.refund(charge.chargeId)).toBe(2000);
        expect(await ledger.balance(id)).toBe(2000);
      });

      it('credits a charge back only once', async () => {
        const { id } = await ledger.createAccount();
        const charge = await ledger.charge(id, 500);
        if (!charge.ok) throw new Error('charge refused');
        await ledger.charge(id, 100);
        expect(await ledger.refund(charge.chargeId)).toBe(1900);
        expect(await ledger.refund(charge.chargeId)).toBe(1900);
        expect((await ledger.history(id)).filter((e) => e.kind === 'refund')).toHaveLength(1);
      });

      it('credits back once when two refunds of one charge race', async () => {
        const { id } = await ledger.createAccount();
        const charge = await ledger.charge(id, 500);
        if (!charge.ok) throw new Error('charge refused');
        await Promise.all([ledger.refund(charge.chargeId), ledger.refund(charge.chargeId)]);
        expect(await ledger.balance(id)).toBe(2000);
      });

      it('throws UnknownChargeError for an unknown charge id', async () => {
        await expect(ledger.refund('ch_nothing')).rejects.toMatchObject({ code: 'ERR_UNKNOWN_CHARGE' });
      });

      it('throws UnknownChargeError for the id of a top-up', async () => {
        const { id } = await ledger.createAccount();
        await ledger.topUp(id, 5);
        const [topUp] = await ledger.history(id);
        await expect(ledger.refund(topUp!.id)).rejects.toBeInstanceOf(UnknownChargeError);
      });
    });

    describe('top-ups', () => {
      it('adds credits and returns the new balance', async () => {
        const { id } = await ledger.createAccount();
        expect(await ledger.topUp(id, 1000, 'order 42')).toBe(3000);
        expect(await ledger.balance(id)).toBe(3000);
      });

      it('records nothing for a top-up of 0', async () => {
        const { id } = await ledger.createAccount();
        expect(await ledger.topUp(id, 0)).toBe(2000);
        expect(await ledger.history(id)).toHaveLength(1);
      });

      it('refuses a top-up that would pass the largest safe integer', async () => {
        const { id } = await ledger.createAccount({ credits: Number.MAX_SAFE_INTEGER - 1 });
        await expect(ledger.topUp(id, 2)).rejects.toBeInstanceOf(BalanceLimitError);
        expect(await ledger.balance(id)).toBe(Number.MAX_SAFE_INTEGER - 1);
      });

      it('throws UnknownAccountError for an unknown account', async () => {
        await expect(ledger.topUp('nobody', 1)).rejects.toBeInstanceOf(UnknownAccountError);
      });
    });

    describe('history', () => {
      it('lists charges, refunds and top-ups newest first', async () => {
        const { id } = await ledger.createAccount({ credits: 100 });
        const charge = await ledger.charge(id, 30, 'text');
        if (!charge.ok) throw new Error('charge refused');
        await ledger.topUp(id, 50, 'order 1');
        await ledger.refund(charge.chargeId);
        const entries = await ledger.history(id);
        expect(entries.map(({ kind, amount, balanceAfter }) => ({ kind, amount, balanceAfter }))).toEqual([
          { kind: 'refund', amount: 30, balanceAfter: 150 },
          { kind: 'topup', amount: 50, balanceAfter: 120 },
          { kind: 'charge', amount: 30, balanceAfter: 70 },
          { kind: 'topup', amount: 100, balanceAfter: 100 },
        ]);
        expect(entries[0]!.refundOf).toBe(charge.chargeId);
        expect(entries[2]).toMatchObject({ id: charge.chargeId, memo: 'text', accountId: id });
      });

      it('returns at most `limit` entries, the newest', async () => {
        const { id } = await ledger.createAccount();
        for (let i = 1; i <= 5; i++) await ledger.charge(id, i);
        expect((await ledger.history(id, 2)).map((e) => e.amount)).toEqual([5, 4]);
      });

      it('keeps the balance equal to the sum of the entries', async () => {
        const { id } = await ledger.createAccount({ credits: 1000 });
        const random = seededRandom(3);
        const chargeIds: string[] = [];
        for (let i = 0; i < 60; i++) {
          const step = random();
          if (step < 0.6) {
            const outcome = await ledger.charge(id, randomInt(random, 0, 80));
            if (outcome.ok) chargeIds.push(outcome.chargeId);
          } else if (step < 0.8 && chargeIds.length > 0) {
            await ledger.refund(chargeIds[randomInt(random, 0, chargeIds.length - 1)]!);
          } else {
            await ledger.topUp(id, randomInt(random, 1, 50));
          }
        }
        expect(balanceFromEntries(await ledger.history(id, 1000))).toBe(await ledger.balance(id));
      });

      it('throws UnknownAccountError for an unknown account', async () => {
        await expect(ledger.history('nobody')).rejects.toBeInstanceOf(UnknownAccountError);
      });
    });

    describe('tokens', () => {
      it('lists tokens by id and label, never the token or its hash, with their revocation', async () => {
        await ledger.createAccount({ id: 'one' });
        await ledger.createAccount({ id: 'two' });
        const a = await ledger.createToken('one', 'ci');
        const b = await ledger.createToken('two');
        await ledger.revokeToken(b.tokenId);
        const all = await ledger.listTokens();
        expect(all.map((t) => t.id).sort()).toEqual([a.tokenId, b.tokenId].sort());
        expect(await ledger.listTokens('one')).toEqual([{ id: a.tokenId, accountId: 'one', label: 'ci', createdAt: expect.any(String) }]);
        const [revoked] = await ledger.listTokens('two');
        expect(Number.isNaN(Date.parse(revoked!.revokedAt!))).toBe(false);
        expect(JSON.stringify(all)).not.toContain(a.token.slice(3));
        expect(await ledger.listTokens('nobody')).toEqual([]);
      });

      it('creates a ca_ token of 32 random bytes in base64url', async () => {
        const { id } = await ledger.createAccount();
        const { token, tokenId } = await ledger.createToken(id, 'ci');
        expect(token).toMatch(/^ca_[A-Za-z0-9_-]{43}$/);
        expect(Buffer.from(token.slice(3), 'base64url')).toHaveLength(32);
        expect(tokenId).toMatch(/^tok_/);
      });

      it('resolves a token to its account', async () => {
        const { id } = await ledger.createAccount();
        const { token, tokenId } = await ledger.createToken(id);
        expect(await ledger.authenticate(token)).toEqual({ accountId: id, tokenId });
      });

      it('gives each token its own value and id', async () => {
        const { id } = await ledger.createAccount();
        const first = await ledger.createToken(id);
        const second = await ledger.createToken(id);
        expect(first.token).not.toBe(second.token);
        expect(first.tokenId).not.toBe(second.tokenId);
        expect(await ledger.authenticate(second.token)).toEqual({ accountId: id, tokenId: second.tokenId });
      });

      it('returns undefined for a wrong or malformed token', async () => {
        const { id } = await ledger.createAccount();
        const { token } = await ledger.createToken(id);
        const wrong = token.slice(0, -1) + (token.endsWith('A') ? 'B' : 'A');
        expect(await ledger.authenticate(wrong)).toBeUndefined();
        expect(await ledger.authenticate('')).toBeUndefined();
        expect(await ledger.authenticate(token.slice(3))).toBeUndefined();
        expect(await ledger.authenticate(`${token} `)).toBeUndefined();
      });

      it('returns undefined for a revoked token', async () => {
        const { id } = await ledger.createAccount();
        const { token, tokenId } = await ledger.createToken(id);
        expect(await ledger.revokeToken(tokenId)).toBe(true);
        expect(await ledger.authenticate(token)).toBeUndefined();
      });

      it('reports false when revoking an unknown or already revoked token', async () => {
        const { id } = await ledger.createAccount();
        const { tokenId } = await ledger.createToken(id);
        await ledger.revokeToken(tokenId);
        expect(await ledger.revokeToken(tokenId)).toBe(false);
        expect(await ledger.revokeToken('tok_unknown')).toBe(false);
      });

      it('throws UnknownAccountError when creating a token for an unknown account', async () => {
        await expect(ledger.createToken('nobody')).rejects.toBeInstanceOf(UnknownAccountError);
      });
    });

    describe('concurrency', () => {
      it('settles 200 concurrent charges exactly and never below zero', async () => {
        const initial = 5000;
        const { id } = await ledger.createAccount({ credits: initial });
        const random = seededRandom(42);
        const amounts = Array.from({ length: 200 }, () => randomInt(random, 1, 60));
        expect(amounts.reduce((a, b) => a + b, 0)).toBeGreaterThan(initial);
        const outcomes = await Promise.all(amounts.map((amount) => ledger.charge(id, amount)));
        const accepted = amounts.filter((_, i) => outcomes[i]!.ok).reduce((a, b) => a + b, 0);
        const final = await ledger.balance(id);
        expect(outcomes.some((o) => !o.ok)).toBe(true);
        expect(final).toBeGreaterThanOrEqual(0);
        expect(accepted).toBe(initial - final);
        expect(outcomes.every((o) => o.balance >= 0)).toBe(true);
        expect(outcomes.filter((o) => !o.ok).every((o) => !o.ok && o.shortBy > 0)).toBe(true);
        expect(balanceFromEntries(await ledger.history(id, 1000))).toBe(final);
      });
    });

    describe('close', () => {
      it('refuses calls after close, and closing twice is harmless', async () => {
        const { id } = await ledger.createAccount();
        await ledger.close();
        await ledger.close();
        await expect(ledger.balance(id)).rejects.toBeInstanceOf(LedgerClosedError);
        await expect(ledger.charge(id, 1)).rejects.toMatchObject({ code: 'ERR_LEDGER_CLOSED' });
      });
    });
  });
}
