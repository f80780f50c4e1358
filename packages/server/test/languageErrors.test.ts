import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aiContentDetectionFeature } from '@content-analysis/engine';
import { json, startHarness } from './harness.js';
import type { Harness } from './harness.js';

const ITALIAN =
  'Mia nonna ha tenuto le api dietro il capanno per quasi quarant\'anni, e ogni agosto tutta la casa profumava di cera. ' +
  'Non portava mai i guanti. Quando le chiesi perché, mi disse che le api conoscevano le sue mani meglio di lei, ' +
  'cosa che a nove anni per me non aveva alcun senso e che oggi ne ha solo un poco di più. Il miele era scuro.';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ features: [aiContentDetectionFeature] });
});
afterAll(async () => h.stop());

describe('POST /v2/ai-content-detection: language errors', () => {
  it('answers 400 naming the detected language of an Italian text sent without a language, and charges nothing', async () => {
    const response = await h.post('/v2/ai-content-detection', { text: ITALIAN });
    expect(response.status).toBe(400);
    expect(await json(response)).toEqual({
      status: 400,
      error: 'BAD_REQUEST',
      description: 'The text was detected to be in Italian (it), which is not supported (supported: English (en), French (fr), German (de), Spanish (es))',
    });
    expect(await h.ledger.balance(h.accountId)).toBe(2000);
  });

  it('answers 400 saying the request sent the unsupported language', async () => {
    const body = await json(await h.post('/v2/ai-content-detection', { text: ITALIAN, language: 'it' }));
    expect(body.description).toBe('The request sent language Italian (it), which is not supported (supported: English (en), French (fr), German (de), Spanish (es), or auto)');
  });

  it('answers 400 saying no language could be identified in a text of NUL characters', async () => {
    const body = await json(await h.post('/v2/ai-content-detection', { text: '\0'.repeat(400) }));
    expect(body.error).toBe('BAD_REQUEST');
    expect(body.description).toMatch(/^No language could be identified in the text /);
  });
});
