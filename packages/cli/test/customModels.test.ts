import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countWords } from '@content-analysis/credits';
import { writeImageModel, writeTextModel } from '../../../scripts/custom-model/testModels.mjs';
import type { ImageWeights, TextWeights } from '../../../scripts/custom-model/testModels.mjs';
import { humanScore, referenceLogOdds, referenceTokens } from '../../classifiers/test/customReference.js';
import { main } from '../src/index.js';
import { buildWorkspace } from './build.js';
import { captureIo } from './io.js';
import { killAll, spawnCli, startServe, storeFreeEnvironment } from './processes.js';

// A test model folder plugged in through the command line and through `serve`: the scores must be the test model's
// own computation (classifiers/test/customReference.ts), rounded as the API rounds.

const dir = mkdtempSync(join(tmpdir(), 'ca-custom-'));
const textFolder = join(dir, 'text');
const imageFolder = join(dir, 'image');
const brokenFolder = join(dir, 'broken');
let textWeights: TextWeights;
let imageWeights: ImageWeights;
const TEXT = [
  'The cat kept the house.', 'My grandmother kept bees every summer.', 'However, it is important to ensure various things.',
  'The dog was in the world of work.', 'We had honey and the smell of it was in the house.', 'Overall, they would delve into crucial text.',
  'I kept one dog and she kept the cat.', 'There was more time for people that year.',
].join(' ');
const textFile = join(dir, 'essay.txt');
const imageFile = join(dir, 'image.png');
let rgb: Uint8Array;

beforeAll(async () => {
  buildWorkspace();
  textWeights = writeTextModel(textFolder);
  // 256 x 256 in, 256 x 256 out: no resampling, so the reference reads the file's pixels.
  imageWeights = writeImageModel(imageFolder, { preprocessor: { size: { height: 256, width: 256 } }, onnx: { height: 256, width: 256 } });
  writeTextModel(brokenFolder, { onnx: { inputs: ['ids', 'attention_mask'] } });
  writeFileSync(textFile, TEXT);
  rgb = new Uint8Array(256 * 256 * 3).map((_, i) => (i * 37 + (i % 3) * 90) % 256);
  writeFileSync(imageFile, await sharp(rgb, { raw: { width: 256, height: 256, channels: 3 } }).png().toBuffer());
}, 180_000);
afterAll(async () => {
  await killAll();
  rmSync(dir, { recursive: true, force: true });
});

const round2 = (v: number) => Math.round(v * 100) / 100;
const expectedText = () => round2(humanScore(referenceLogOdds(textWeights, referenceTokens(TEXT))));
function expectedImage(): { ai_probability: number; score: number } {
  const means = [0, 1, 2].map((c) => {
    let s = 0;
    for (let i = 0; i < 256 * 256; i++) s += (rgb[i * 3 + c]! / 255 - 0.5) / 0.5;
    return s / (256 * 256);
  });
  const logit = (j: number) => means.reduce((s, m, c) => s + m * imageWeights.w[c * 2 + j]!, 0) + imageWeights.bias[j]!;
  const ai = Math.round(1e4 / (1 + Math.exp(logit(0) - logit(1)))) / 1e4;
  return { ai_probability: ai, score: Math.round((1 - ai) * 100) };
}

describe('--model on the feature commands', () => {
  it('ai-text --version custom:NAME answers with the plugged model\'s score', async () => {
    const io = captureIo();
    expect(await main(['ai-text', textFile, '--model', `essay=${textFolder}`, '--version', 'custom:essay', '--compact'], io)).toBe(0);
    const result = JSON.parse(io.out());
    expect(result).toMatchObject({ status: 200, version: 'custom:essay', language: 'en', input: 'text' });
    expect(result.score).toBe(expectedText());
    expect(result.sentences).toHaveLength(8);
  });

  it('image --version custom:NAME answers with the plugged model\'s probabilities', async () => {
    const io = captureIo();
    expect(await main(['image', imageFile, '--model', `pixels=${imageFolder}`, '--model', `essay=${textFolder}`, '--version', 'custom:pixels', '--compact'], io)).toBe(0);
    expect(JSON.parse(io.out())).toMatchObject({ version: 'custom:pixels', ...expectedImage() });
  });

  it('the default detector still answers without a version', async () => {
    const io = captureIo();
    expect(await main(['ai-text', textFile, '--model', `essay=${textFolder}`, '--compact'], io)).toBe(0);
    expect(JSON.parse(io.out()).version).toBe('2.0.0');
  });

  it('refuses a broken folder with the reason, and an unknown custom version', async () => {
    const io = captureIo();
    expect(await main(['ai-text', textFile, '--model', `bad=${brokenFolder}`], io)).toBe(1);
    expect(io.err()).toMatch(/^content-analysis: Custom model "bad" \(.*broken\) refused: the graph's inputs are ids, attention_mask; .*missing input_ids/);
    const unknown = captureIo();
    expect(await main(['ai-text', textFile, '--model', `essay=${textFolder}`, '--version', 'custom:other'], unknown)).toBe(1);
    expect(JSON.parse(unknown.out())).toEqual({
      status: 400, error: 'BAD_REQUEST', description: 'version "custom:other" names no ai-text model of this deployment (plugged ai-text models: custom:essay)',
    });
    const usage = captureIo();
    expect(await main(['ai-text', textFile, '--model', 'no-folder'], usage)).toBe(2);
    expect(usage.err()).toMatch(/--model: Expected NAME=DIR/);
  });
});

describe('--default-model', () => {
  it('makes a plugged model the answer to requests that name no version', async () => {
    const io = captureIo();
    expect(await main(['ai-text', textFile, '--model', `essay=${textFolder}`, '--default-model', 'essay', '--compact'], io)).toBe(0);
    expect(JSON.parse(io.out())).toMatchObject({ version: 'custom:essay', score: expectedText() });
    const wrong = captureIo();
    expect(await main(['ai-text', textFile, '--model', `essay=${textFolder}`, '--default-model', 'other'], wrong)).toBe(2);
    expect(wrong.err()).toMatch(/--default-model other: no --model other=DIR was given/);
  });
});

describe('calibrate ai-text --model and --model-calibration', () => {
  it('calibrates a plugged model on human texts, applies the profile, and refuses it for other model files', async () => {
    // 80 human texts of 300+ characters, the test sentences in rotating orders (deterministic).
    const sentences = TEXT.split(/(?<=\.) /);
    const texts = Array.from({ length: 80 }, (_, k) => {
      const rotated = [...sentences.slice(k % 8), ...sentences.slice(0, k % 8)];
      return [...rotated, ...rotated].join(' ').slice(0, 300 + 3 * k);
    });
    const human = join(dir, 'human.jsonl');
    writeFileSync(human, texts.map((t) => JSON.stringify({ text: t })).join('\n'));
    const profilePath = join(dir, 'profile.json');
    const io = captureIo();
    expect(await main(['calibrate', 'ai-text', '--human', human, '--target-fpr', '0.05', '--model', `essay=${textFolder}`, '--out', profilePath], io), io.err()).toBe(0);
    const profile = JSON.parse((await import('node:fs')).readFileSync(profilePath, 'utf8'));
    expect(profile.detector).toMatchObject({ model: 'custom:essay', fingerprint: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(io.err()).toMatch(/^Calibrated custom:essay [0-9a-f]{12} on \d+ of 80 texts/);
    // Applied: the human score is the bucket's mapping of the model's AI log-odds, 100 x sigmoid(2 (threshold - raw) / scale).
    const applied = captureIo();
    expect(await main(['ai-text', textFile, '--model', `essay=${textFolder}`, '--model-calibration', profilePath, '--version', 'custom:essay', '--compact'], applied)).toBe(0);
    const bucket = [...profile.buckets].reverse().find((b: { min_chars: number }) => TEXT.length >= b.min_chars);
    const raw = referenceLogOdds(textWeights, referenceTokens(TEXT));
    expect(JSON.parse(applied.out()).score).toBe(round2(100 / (1 + Math.exp((-2 * (bucket.threshold - raw)) / bucket.scale))));
    // Other model files (another token window): another scale, refused.
    const other = join(dir, 'other-text');
    writeTextModel(other, { maxTokens: 64 });
    const refused = captureIo();
    expect(await main(['ai-text', textFile, '--model', `essay=${other}`, '--model-calibration', profilePath, '--version', 'custom:essay'], refused)).toBe(1);
    expect(refused.err()).toMatch(/--model-calibration: The calibration profile in use was made for custom:essay [0-9a-f]{12}; it cannot calibrate custom:essay [0-9a-f]{12}/);
  });
});

describe('serve --model', () => {
  it('serves the plugged models on the HTTP API, charged as the bundled ones', async () => {
    const env = storeFreeEnvironment();
    const node = await startServe(['--db', join(dir, 'ledger.sqlite'), '--model', `essay=${textFolder}`, '--model', `pixels=${imageFolder}`], env);
    expect(node.started).toMatch(/plugged model custom:essay \(ai-text\) loaded in \d+\.\d\d s/);
    const post = async (path: string, body: unknown) => {
      const response = await fetch(`${node.url}${path}`, {
        method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${node.token}` }, body: JSON.stringify(body),
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
    const text = await post('/v2/ai-content-detection', { text: TEXT, version: 'custom:essay' });
    expect(text.status).toBe(200);
    expect(text.body).toMatchObject({ version: 'custom:essay', score: expectedText(), credits_used: countWords(TEXT) });
    const image = await post('/v2/image-detection', { image: (await import('node:fs')).readFileSync(imageFile).toString('base64'), version: 'custom:pixels' });
    expect(image.status).toBe(200);
    expect(image.body).toMatchObject({ version: 'custom:pixels', ...expectedImage(), credits_used: 300 });
    const wrong = await post('/v2/image-detection', { image: 'aGVsbG8=', version: 'custom:essay' });
    expect(wrong).toMatchObject({ status: 400, body: { description: 'version "custom:essay" names no ai-image model of this deployment (it is an ai-text model; plugged ai-image models: custom:pixels)' } });
  });

  it('refuses to start with a broken folder, saying why', async () => {
    const child = spawnCli(['serve', '--port', '0', '--db', join(dir, 'other.sqlite'), '--model', `bad=${brokenFolder}`], storeFreeEnvironment());
    let err = '';
    child.stderr.on('data', (chunk) => (err += chunk));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(1);
    expect(err).toMatch(/Custom model "bad" .* refused: the graph's inputs are ids, attention_mask/);
  });
});
