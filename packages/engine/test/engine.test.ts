import { beforeEach, describe, expect, it } from 'vitest';
import { MemoryLedger } from '@content-analysis/credits';
import { ApiError, Engine, textCompareFeature } from '../src/index.js';
import { probeFeature, rejection } from './helpers.js';
import type { Probe } from './helpers.js';

async function setup(credits = 2000) {
  const ledger = new MemoryLedger();
  const probe: Probe = { events: [] };
  const engine = new Engine({ ledger, features: [textCompareFeature, probeFeature(probe)] });
  const account = await ledger.createAccount({ credits });
  const { token } = await ledger.createToken(account.id);
  return { ledger, engine, probe, accountId: account.id, token };
}


describe('Engine.execute', () => {
  let ctx: Awaited<ReturnType<typeof setup>>;
  beforeEach(async () => {
    ctx = await setup();
  });

  it('charges half a credit per word over both texts, rounded up', async () => {
    // 3 + 4 = 7 words -> 3.5 credits -> 4
    const outcome = await ctx.engine.execute('text-compare', { first_text: 'one two three', second_text: 'one two three four' }, { token: ctx.token });
    expect(outcome.creditsUsed).toBe(4);
    expect(outcome.result.credits_used).toBe(4);
    expect(outcome.result.credits_remaining).toBe(1996);
    expect(await ctx.ledger.balance(ctx.accountId)).toBe(1996);
  });

  it('composes the documented text-compare result', async () => {
    const { result } = await ctx.engine.execute('text-compare', { first_text: 'a b c d', second_text: 'a b c d' }, { token: ctx.token });
    expect(Object.keys(result)).toEqual(['status', 'similarity_score', 'first_text', 'second_text', 'credits_used', 'credits_remaining']);
    expect(result.status).toBe(200);
    expect(result.similarity_score).toBe(100);
  });

  it('refuses a text-compare text of whitespace alone with BAD_REQUEST naming the field, and charges nothing', async () => {
    const error = await rejection(ctx.engine.execute('text-compare', { first_text: 'one two', second_text: ' \n\t\u00a0\u200b ' }, { token: ctx.token }));
    expect(error.code).toBe('BAD_REQUEST');
    expect(error.status).toBe(400);
    expect(error.description).toBe('second_text must not be only whitespace');
    expect(await ctx.ledger.balance(ctx.accountId)).toBe(2000);
  });

  it('refuses a missing or unknown token with UNAUTHORIZED and charges nothing', async () => {
    expect((await rejection(ctx.engine.execute('probe', {}, {}))).code).toBe('UNAUTHORIZED');
    expect((await rejection(ctx.engine.execute('probe', {}, { token: 'ca_nope' }))).code).toBe('UNAUTHORIZED');
    expect(ctx.probe.events).toEqual([]);
    expect(await ctx.ledger.balance(ctx.accountId)).toBe(2000);
  });

  it('validates before anything is planned or charged', async () => {
    const error = await rejection(ctx.engine.execute('probe', { fail: 'yes' }, { token: ctx.token }));
    expect(error.code).toBe('BAD_REQUEST');
    expect(error.description).toBe('fail must be of type boolean but received string');
    expect(ctx.probe.events).toEqual([]);
  });

  it('checks the balance before analysing: PAYMENT_REQUIRED runs no analysis', async () => {
    const poor = await setup(9);
    const error = await rejection(poor.engine.execute('probe', {}, { token: poor.token }));
    expect(error.code).toBe('PAYMENT_REQUIRED');
    expect(error.status).toBe(402);
    expect(error.description).toBe('Insufficient credits: this request costs 10 credits and the balance is 9.');
    expect(poor.probe.events).toEqual(['plan']);
    expect(await poor.ledger.balance(poor.accountId)).toBe(9);
  });

  it('charges exactly the balance when it is just enough', async () => {
    const exact = await setup(10);
    const outcome = await exact.engine.execute('probe', {}, { token: exact.token });
    expect(outcome.result.credits_remaining).toBe(0);
    expect(exact.probe.events).toEqual(['plan', 'analyse']);
  });

  it('charges nothing when the analysis fails (its reservation is released), and hides the failure behind INTERNAL_SERVER_ERROR', async () => {
    const error = await rejection(ctx.engine.execute('probe', { fail: true }, { token: ctx.token }));
    expect(error.code).toBe('INTERNAL_SERVER_ERROR');
    expect(error.status).toBe(500);
    expect(error.description).toBe('Unexpected error.');
    expect((error.cause as Error).message).toBe('analysis exploded');
    expect(await ctx.ledger.balance(ctx.accountId)).toBe(2000);
    const [refund, reservation, opening] = await ctx.ledger.history(ctx.accountId);
    expect(opening).toMatchObject({ kind: 'topup', amount: 2000 });
    expect(reservation).toMatchObject({ kind: 'charge', amount: 10, memo: 'probe', balanceAfter: 1990 });
    expect(refund).toMatchObject({ kind: 'refund', amount: 10, refundOf: reservation!.id, balanceAfter: 2000 });
  });

  it('reserves the cost before the work: 40 concurrent requests on a balance for 6 run 6 analyses, 34 are refused before any', async () => {
    const six = await setup(60);
    const outcomes = await Promise.allSettled(Array.from({ length: 40 }, () => six.engine.execute('probe', {}, { token: six.token })));
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(6);
    const refused = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
    expect(refused).toHaveLength(34);
    expect(refused.every((o) => o.reason.code === 'PAYMENT_REQUIRED')).toBe(true);
    expect(six.probe.events.filter((e) => e === 'analyse')).toHaveLength(6);
    expect(six.probe.events.filter((e) => e === 'plan')).toHaveLength(40);
    expect(await six.ledger.balance(six.accountId)).toBe(0);
  });

  it('never overdraws under 200 concurrent requests', async () => {
    // 2000 credits, 10 per request: exactly 200 may pass. Send 250.
    const outcomes = await Promise.allSettled(
      Array.from({ length: 250 }, () => ctx.engine.execute('probe', {}, { token: ctx.token })),
    );
    const ok = outcomes.filter((o) => o.status === 'fulfilled');
    const refused = outcomes.filter((o) => o.status === 'rejected');
    expect(ok).toHaveLength(200);
    expect(refused.every((o) => (o as PromiseRejectedResult).reason.code === 'PAYMENT_REQUIRED')).toBe(true);
    expect(await ctx.ledger.balance(ctx.accountId)).toBe(0);
  });
});

describe('Engine.execute with deliver', () => {
  const BODY = { first_text: 'one two three', second_text: 'one two three four' }; // 4 credits

  it('hands the outcome to deliver before returning it, and keeps the charge once deliver resolves', async () => {
    const { ledger, engine, accountId, token } = await setup();
    const delivered: unknown[] = [];
    const outcome = await engine.execute('text-compare', BODY, { token, deliver: async (o) => void delivered.push(o.result) });
    expect(delivered).toEqual([outcome.result]);
    expect(outcome.result).toMatchObject({ credits_used: 4, credits_remaining: 1996 });
    expect(await ledger.balance(accountId)).toBe(1996);
  });

  it('does not charge a request whose delivery fails, and rejects with the delivery\'s error', async () => {
    const { ledger, engine, accountId, token } = await setup();
    const error = await rejection(engine.execute('text-compare', BODY, {
      token,
      deliver: () => Promise.reject(new ApiError('SERVICE_UNAVAILABLE', 'The connection closed.')),
    }));
    expect(error.code).toBe('SERVICE_UNAVAILABLE');
    expect(await ledger.balance(accountId)).toBe(2000);
  });

  it('does not call deliver when the balance is short', async () => {
    const { engine, token } = await setup(3);
    let calls = 0;
    const error = await rejection(engine.execute('text-compare', BODY, { token, deliver: async () => void calls++ }));
    expect(error.code).toBe('PAYMENT_REQUIRED');
    expect(calls).toBe(0);
  });
});

describe('Engine.run', () => {
  it('runs without an account and reports the cost without a balance', async () => {
    const engine = new Engine();
    const { result, creditsUsed } = await engine.run('text-compare', { first_text: 'alpha beta', second_text: 'alpha beta gamma' });
    expect(creditsUsed).toBe(3); // 5 words -> 2.5 -> 3
    expect(result.credits_used).toBe(3);
    expect('credits_remaining' in result).toBe(false);
  });

  it('still validates', async () => {
    const error = await rejection(new Engine().run('text-compare', { first_text: '' , second_text: 'x' }));
    expect(error.description).toBe('first_text must not be empty');
  });
});
