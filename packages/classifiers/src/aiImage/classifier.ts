import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type * as ort from 'onnxruntime-common';
import { onnxRuntime } from '@content-analysis/onnx';
import { InvalidInputError, ModelLoadError } from '../errors.js';
import { BUNDLED_MODELS_DIR } from '../runtime/modelRegistry.js';
import { checkThreads } from '../runtime/loadModel.js';
import { cachedPromise } from '../runtime/promiseCache.js';
import { backboneDigest } from './backbones.js';
import type { BackboneName } from './backbones.js';
import { FeatureExtractor } from './features.js';
import type { FeatureBlock } from './features.js';
import type { AiImageClassification, AiImageClassifier, AiImageClassifierOptions, ClassifyImageOptions } from './types.js';
import { aiImageModelDir, resolveAiImageVersion } from './versions.js';
import type { AiImageVersion } from './versions.js';

/** The card written next to each AI-image probe (`models/ai-image/<version>/card.json`), as far as the runtime reads it. */
export interface AiImageModelCard {
  id: 'ai-image';
  version: AiImageVersion;
  date: string;
  summary: string;
  file: string;
  input: string;
  output: string;
  /** Which columns of which feature blocks the probe reads, in order. */
  feature_blocks: { block: FeatureBlock; start: number; end: number }[];
  feature_count: number;
  backbones: Partial<Record<FeatureBlock, { source: string; sha256: string }>>;
  threshold: { ai_probability: number; human_score: number };
  calibration: { method: string; a: number; b: number };
  metrics: Record<string, unknown>;
  [key: string]: unknown;
}

/**
 * Folder of the AI-image probes shipped with this package (the default's and `latest`'s); the other versions' are in
 * `@content-analysis/models-extra` ({@link aiImageModelDir} finds either).
 */
export const AI_IMAGE_MODELS_DIR = join(BUNDLED_MODELS_DIR, 'ai-image');

/**
 * The model card of an AI-image version (`latest` and the default resolve as in requests): the card of the model
 * folder that answers for it (version 5's is the card of model 9, see versions.ts).
 */
export function aiImageModelCard(version?: string | number): AiImageModelCard {
  const resolved = resolveAiImageVersion(version);
  const path = join(aiImageModelDir(resolved), 'card.json');
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as AiImageModelCard;
  } catch (error) {
    throw new ModelLoadError(path, 'missing or not valid JSON', { cause: error });
  }
}

interface Probe {
  card: AiImageModelCard;
  session: ort.InferenceSession;
}

/**
 * Creates the AI-image classifier: for each version, the pretrained backbone features its card names (built once
 * from the nsfwjs weights and shared by the versions that read them) and its linear probe. A call prepares the
 * image as `prepare.ts` documents, computes the features and returns the calibrated probability.
 */
export function createAiImageClassifier(options: AiImageClassifierOptions = {}): AiImageClassifier {
  const threads = options.threads ?? 1;
  checkThreads(threads);
  const extractor = new FeatureExtractor(threads);
  const probes = new Map<AiImageVersion, Promise<Probe>>();

  const probe = (version: AiImageVersion): Promise<Probe> =>
    cachedPromise(probes, version, async () => {
      const card = aiImageModelCard(version);
      const path = join(aiImageModelDir(version), card.file);
      for (const [name, backbone] of Object.entries(card.backbones) as [BackboneName, { sha256: string }][]) {
        const digest = backboneDigest(name);
        if (digest !== backbone.sha256) {
          throw new ModelLoadError(path, `probe trained on ${name} files with SHA-256 ${backbone.sha256}, installed ${digest}`);
        }
      }
      try {
        const session = await onnxRuntime().InferenceSession.create(path, { intraOpNumThreads: 1, interOpNumThreads: 1 });
        return { card, session };
      } catch (error) {
        throw new ModelLoadError(path, error instanceof Error ? error.message : String(error), { cause: error });
      }
    });

  return {
    async classify(image: Uint8Array, request: ClassifyImageOptions = {}): Promise<AiImageClassification> {
      const version = resolveAiImageVersion(request.version);
      if (!(image instanceof Uint8Array) || image.byteLength === 0) {
        throw new InvalidInputError('image', 'the bytes of an encoded image', image);
      }
      const { card, session } = await probe(version);
      const blocks = [...new Set(card.feature_blocks.map((b) => b.block))];
      const [features] = await extractor.extract(image, blocks);
      const x = new Float32Array(card.feature_count);
      let at = 0;
      for (const { block, start, end } of card.feature_blocks) {
        x.set(features![block].subarray(start, end), at);
        at += end - start;
      }
      if (at !== card.feature_count) throw new ModelLoadError(card.file, `card lists ${at} of ${card.feature_count} features`);
      const result = await session.run({ [card.input]: new (onnxRuntime().Tensor)('float32', x, [1, card.feature_count]) });
      const p = (result[card.output]!.data as Float32Array)[0]!;
      return classification(version, p);
    },
  };
}

/**
 * How far a calibrated AI probability is from even: `low` within 0.1 of 0.5 (human score 41 to 59: the pixels do not
 * tell), `medium` within 0.3, else `high`. Versions 8 and 9 (and 5, which 9 answers for) map the logits of the images it
 * cannot tell apart (between the logit below which at most 5% of the AI images left out of its training fall and
 * its threshold) to probabilities from 0.4 to 0.5, so that they read `low`.
 */
export function confidenceOf(aiProbability: number): AiImageClassification['confidence'] {
  const distance = Math.abs(aiProbability - 0.5);
  return distance < 0.1 ? 'low' : distance < 0.3 ? 'medium' : 'high';
}

/** The documented numbers from a calibrated AI probability (rounded to 4 decimals; the two sum to 1). */
export function classification(version: AiImageVersion, aiProbability: number): AiImageClassification {
  const ai = Math.round(Math.min(1, Math.max(0, aiProbability)) * 1e4) / 1e4;
  const human = Math.round((1 - ai) * 1e4) / 1e4;
  return { version, ai_probability: ai, human_probability: human, score: Math.round(human * 100), confidence: confidenceOf(ai) };
}

let shared: AiImageClassifier | undefined;

/** Classifies one image with a classifier shared by every caller of this function (one thread). */
export function classifyImage(image: Uint8Array, options: ClassifyImageOptions = {}): Promise<AiImageClassification> {
  shared ??= createAiImageClassifier();
  return shared.classify(image, options);
}
