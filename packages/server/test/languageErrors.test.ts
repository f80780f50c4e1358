import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aiContentDetectionFeature } from '@content-analysis/engine';
import { json, startHarness } from './harness.js';
import type { Harness } from './harness.js';

const GERMAN =
  'Meine Großmutter hielt fast vierzig Jahre lang Bienen hinter dem Schuppen, und jeden August roch das ganze Haus ' +
  'nach Wachs. Sie trug nie Handschuhe. Als ich sie fragte, warum, sagte sie, die Bienen kennten ihre Hände besser ' +
  'als sie selbst, was mir mit neun Jahren keinen Sinn ergab und heute nur wenig mehr. Der Honig war dunkel.';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ features: [aiContentDetectionFeature] });
});
afterAll(async () => h.stop());

describe('POST /v2/ai-content-detection: language errors', () => {
  it('answers 400 naming the detected language of a German text sent without a language, and charges nothing', async () => {
    const response = await h.post('/v2/ai-content-detection', { text: GERMAN });
    expect(response.status).toBe(400);
    expect(await json(response)).toEqual({
      status: 400,
      error: 'BAD_REQUEST',
      description: 'The text was detected to be in German (de), which is not supported (supported: English (en))',
    });
    expect(await h.ledger.balance(h.accountId)).toBe(2000);
  });

  it('answers 400 saying the request sent the unsupported language', async () => {
    const body = await json(await h.post('/v2/ai-content-detection', { text: GERMAN, language: 'de' }));
    expect(body.description).toBe('The request sent language German (de), which is not supported (supported: English (en), or auto)');
  });

  it('answers 400 saying no language could be identified in a text of NUL characters', async () => {
    const body = await json(await h.post('/v2/ai-content-detection', { text: '\0'.repeat(400) }));
    expect(body.error).toBe('BAD_REQUEST');
    expect(body.description).toMatch(/^No language could be identified in the text /);
  });
});
