import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryLedger } from '@content-analysis/credits';
import { writeImageModel, writeTextModel } from '../../../scripts/custom-model/testModels.mjs';
import type { TextWeights } from '../../../scripts/custom-model/testModels.mjs';
import { humanScore, referenceLogOdds, referenceTokens } from '../../classifiers/test/customReference.js';
import { CustomModels, Engine, IMAGE_MODEL_VERSIONS } from '../src/index.js';

// The engine's side of plugged models: `version: "custom:NAME"` reaches the model, a name it does not serve is
// BAD_REQUEST before anything is charged, and a request without it is the bundled detector's as before.

const dir = mkdtempSync(join(tmpdir(), 'engine-custom-'));
let weights: TextWeights;
let models: CustomModels;
const TEXT = [
  'The cat kept the house.', 'My grandmother kept bees every summer.', 'However, it is important to ensure various things.',
  'The dog was in the world of work.', 'We had honey and the smell of it was in the house.', 'Overall, they would delve into crucial text.',
  'I kept one dog and she kept the cat.', 'There was more time for people that year.',
].join(' ');

beforeAll(async () => {
  weights = writeTextModel(join(dir, 'text'));
  writeImageModel(join(dir, 'image'));
  models = await CustomModels.load({ essay: join(dir, 'text'), pixels: join(dir, 'image') });
});
afterAll(async () => {
  await models.release();
  rmSync(dir, { recursive: true, force: true });
});

async function setup(): Promise<{ engine: Engine; ledger: MemoryLedger; token: string; account: string }> {
  const ledger = new MemoryLedger();
  const { id } = await ledger.createAccount({ credits: 1000 });
  const { token } = await ledger.createToken(id);
  return { engine: new Engine({ ledger, customModels: models, analysis: { mode: 'thread' } }), ledger, token, account: id };
}

describe('version custom:NAME', () => {
  it('runs the plugged text model and charges the words, as the bundled detector', async () => {
    const { engine, ledger, token, account } = await setup();
    const { result, creditsUsed } = await engine.execute('ai-content-detection', { text: TEXT, version: 'custom:essay', sentences: false }, { token });
    expect(result).toMatchObject({ status: 200, version: 'custom:essay', input: 'text', language: 'en' });
    expect(result.score).toBe(Math.round(humanScore(referenceLogOdds(weights, referenceTokens(TEXT))) * 100) / 100);
    expect(result.sentences).toBeUndefined();
    expect(await ledger.balance(account)).toBe(1000 - creditsUsed);
  });

  it('refuses a name it does not serve, or a model of the other task, before charging', async () => {
    const { engine, ledger, token, account } = await setup();
    for (const [feature, body] of [
      ['ai-content-detection', { text: TEXT, version: 'custom:nobody' }],
      ['ai-content-detection', { text: TEXT, version: 'custom:pixels' }],
      ['image-detection', { image: 'aGVsbG8=', version: 'custom:essay' }],
    ] as const) {
      const error = await engine.execute(feature, body, { token }).then(() => undefined, (e: unknown) => e);
      expect(error).toMatchObject({ code: 'BAD_REQUEST' });
      expect((error as Error).message).toMatch(/^version "custom:\w+" names no ai-(text|image) model of this deployment/);
    }
    expect(await ledger.balance(account)).toBe(1000);
  });

  it('takes a malformed custom image version as any other bad version', async () => {
    const { engine } = await setup();
    const error = await engine.run('image-detection', { image: 'aGVsbG8=', version: 'custom:' }).then(() => undefined, (e: unknown) => e);
    expect(error).toMatchObject({ code: 'BAD_REQUEST', message: `version must be one of ${IMAGE_MODEL_VERSIONS.map((v) => `"${v}"`).join(', ')}` });
  });
});

describe('defaultModels', () => {
  it('answers requests that name no version with the deployment\'s plugged model, and named versions as named', async () => {
    const engine = new Engine({ customModels: models, defaultModels: ['custom:essay'], analysis: { mode: 'thread' } });
    expect((await engine.run('ai-content-detection', { text: TEXT, sentences: false })).result.version).toBe('custom:essay');
    const png = await (await import('sharp')).default({ create: { width: 256, height: 256, channels: 3, background: '#808080' } }).png().toBuffer();
    // Image detection keeps its bundled default: no ai-image default was named.
    const classify = async (engine: Engine, body: Record<string, unknown>) => (await engine.run('image-detection', { image: png.toString('base64'), ...body })).result.version;
    const both = new Engine({ customModels: models, defaultModels: ['custom:essay', 'custom:pixels'], analysis: { mode: 'thread' } });
    expect(await classify(both, {})).toBe('custom:pixels');
    expect(await classify(both, { version: '5' })).toBe('5');
  });

  it('refuses a default that is not a plugged model, or two of one task', () => {
    expect(() => new Engine({ customModels: models, defaultModels: ['custom:nobody'] })).toThrow(/Expected a plugged model .* but received custom:nobody/);
    expect(() => new Engine({ defaultModels: ['custom:essay'] })).toThrow(RangeError);
    expect(() => new Engine({ customModels: models, defaultModels: ['custom:essay', 'custom:essay'] })).toThrow(/two ai-text models/);
  });
});
