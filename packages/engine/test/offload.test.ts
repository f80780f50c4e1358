import { describe, expect, it } from 'vitest';
import { MemoryLedger } from '@content-analysis/credits';
import { ApiError, Engine, textCompareFeature } from '../src/index.js';
import type { AnalysisOffload } from '../src/index.js';
import { rejection } from './helpers.js';

const BODY = { first_text: 'one two three', second_text: 'one two three four' }; // 4 credits

/** An offload double: runs the analysis on a second engine (as a worker process would) and records each call. */
function recordingOffload(answer?: () => Promise<Record<string, unknown>>) {
  const calls: { featureId: string; requestId: string | undefined }[] = [];
  const worker = new Engine({ features: [textCompareFeature] });
  const offload: AnalysisOffload = {
    accepts: (featureId) => featureId === 'text-compare',
    async analyse(featureId, body, options) {
      calls.push({ featureId, requestId: options.requestId });
      return answer ? answer() : worker.analyse(featureId, body);
    },
  };
  return { offload, calls };
}

async function setup(offload: AnalysisOffload) {
  const ledger = new MemoryLedger();
  const engine = new Engine({ ledger, features: [textCompareFeature], offload });
  const account = await ledger.createAccount({ credits: 100 });
  const { token } = await ledger.createToken(account.id);
  return { ledger, engine, accountId: account.id, token };
}

describe('Engine with an analysis offload', () => {
  it('analyses through the offload and charges once, after the result', async () => {
    const { offload, calls } = recordingOffload();
    const { ledger, engine, accountId, token } = await setup(offload);
    const outcome = await engine.execute('text-compare', BODY, { token, requestId: 'req-1' });
    expect(calls).toEqual([{ featureId: 'text-compare', requestId: 'req-1' }]);
    expect(outcome.result).toMatchObject({ status: 200, similarity_score: expect.any(Number), credits_used: 4, credits_remaining: 96 });
    expect(await ledger.balance(accountId)).toBe(96);
  });

  it('charges nothing when the offload fails, and passes its error on', async () => {
    const { offload } = recordingOffload(() => Promise.reject(new ApiError('SERVICE_UNAVAILABLE', 'No worker answered.')));
    const { ledger, engine, accountId, token } = await setup(offload);
    const error = await rejection(engine.execute('text-compare', BODY, { token }));
    expect(error.code).toBe('SERVICE_UNAVAILABLE');
    expect(error.description).toBe('No worker answered.');
    expect(await ledger.balance(accountId)).toBe(100);
  });

  it('does not offload a request refused before analysis (bad request, insufficient credits)', async () => {
    const { offload, calls } = recordingOffload();
    const { engine, token } = await setup(offload);
    expect((await rejection(engine.execute('text-compare', { first_text: 'x' }, { token }))).code).toBe('BAD_REQUEST');
    const long = Array.from({ length: 300 }, (_, i) => `w${i}`).join(' ');
    expect((await rejection(engine.execute('text-compare', { first_text: long, second_text: long }, { token }))).code).toBe('PAYMENT_REQUIRED');
    expect(calls).toEqual([]);
  });
});

describe('Engine.analyse', () => {
  it('returns the analysis without the credit fields', async () => {
    const result = await new Engine({ features: [textCompareFeature] }).analyse('text-compare', BODY);
    expect(result).toHaveProperty('similarity_score');
    expect(result).not.toHaveProperty('credits_used');
  });
});
