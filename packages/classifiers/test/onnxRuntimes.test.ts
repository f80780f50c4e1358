import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';

// The models give the same numbers on onnxruntime-node and on onnxruntime-web (what runs where the native
// package, an optional peer, is not installed): this package's sources are loaded afresh under each runtime (CONTENT_ANALYSIS_ONNX_RUNTIME, read
// when the first model loads) and their scores compared.
const DEMO = join(import.meta.dirname, '..', '..', '..', 'fixtures', 'demo');
const TEXTS = [readFileSync(join(DEMO, 'assistant-answer.txt'), 'utf8'), readFileSync(join(DEMO, 'personal-note.txt'), 'utf8')];
const PHOTO = readFileSync(join(DEMO, 'evening-harbour.jpg'));
const TEXT_VERSIONS = ['2.0.0', '2.1.0', '1.1.0'];
const IMAGE_VERSIONS = ['5', '4', 'legacy-5'];

interface Scores {
  runtime: string;
  /** Per text version, per text: the document's human score, then each sentence's (0..100). */
  text: Record<string, number[][]>;
  image: Record<string, unknown>;
  /** The MobileNetV2 and InceptionV3 feature blocks of the photo (the image versions 1 to 4 and legacy-5 read). */
  features: Float32Array[];
}

async function scoresUnder(runtime: 'node' | 'web'): Promise<Scores> {
  vi.stubEnv('CONTENT_ANALYSIS_ONNX_RUNTIME', runtime);
  vi.resetModules();
  const { onnxRuntimeName } = await import('@content-analysis/onnx');
  const classifiers = await import('../src/index.js');
  const text: Scores['text'] = {};
  for (const version of TEXT_VERSIONS) {
    const detector = await classifiers.createAiTextDetector({ version });
    text[version] = [];
    for (const t of TEXTS) {
      const result = await detector.detect(t, { language: 'en' });
      text[version].push([result.score, ...result.sentences!.map((s) => s.score)]);
    }
  }
  const classifier = classifiers.createAiImageClassifier();
  const image: Scores['image'] = {};
  for (const version of IMAGE_VERSIONS) image[version] = await classifier.classify(PHOTO, { version });
  const [blocks] = await new classifiers.FeatureExtractor(1).extract(PHOTO, ['mobilenet_v2', 'inception_v3']);
  return { runtime: onnxRuntimeName(), text, image, features: [blocks!.mobilenet_v2, blocks!.inception_v3] };
}

afterAll(() => {
  vi.unstubAllEnvs();
  vi.resetModules();
});

describe('onnxruntime-node and onnxruntime-web', () => {
  it('give the same AI-text scores (document and sentences, three model versions) and AI-image results', async () => {
    const native = await scoresUnder('node');
    const web = await scoresUnder('web');
    expect([native.runtime, web.runtime]).toEqual(['node', 'web']);
    for (const version of TEXT_VERSIONS) {
      native.text[version]!.forEach((scores, t) => {
        expect(web.text[version]![t]!.length).toBe(scores.length);
        // Scores are 0..100: within 1e-5 of each other as probabilities.
        scores.forEach((score, i) => expect(Math.abs(web.text[version]![t]![i]! - score) / 100).toBeLessThanOrEqual(1e-5));
      });
    }
    // Probabilities rounded to 4 decimals: equal.
    expect(web.image).toEqual(native.image);
    // The convolutional backbones' features (intermediate values, summed over thousands of products in another
    // order): within 1e-4 of the block's largest value (measured 8e-7 for MobileNetV2, 6e-6 for InceptionV3). They
    // are not bit-identical, which shows that the web run computed its own.
    native.features.forEach((block, b) => {
      const scale = Math.max(...Array.from(block, Math.abs));
      const worst = Math.max(...Array.from(block, (value, i) => Math.abs(value - web.features[b]![i]!)));
      expect(worst / scale).toBeLessThanOrEqual(1e-4);
      expect(worst).toBeGreaterThan(0);
    });
  }, 300_000);
});
