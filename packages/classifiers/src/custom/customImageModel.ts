import { confidenceOf } from '../aiImage/classifier.js';
import { CustomModelError, InvalidInputError } from '../errors.js';
import { sharp } from '../runtime/lazySharp.js';
import { onnxRuntime } from '@content-analysis/onnx';
import { aiLogOdds, checkLogits, openSession, sigmoid } from './openSession.js';
import { preprocessImage, readPreprocessing } from './imagePreprocessor.js';
import type { ImagePreprocessing } from './imagePreprocessor.js';
import { readJson } from './readModelFolder.js';
import type { ModelFolder } from './readModelFolder.js';

/** Maps a plugged image model's P(aiLabel) to the calibrated AI probability. */
export type ImageCalibration = (aiProbability: number) => number;

/** What a plugged image model says about one image: the fields of the bundled classifier's answer. */
export interface CustomImageClassification {
  /** `custom:<name>`. */
  version: string;
  /** Probability of AI generation, 0..1, rounded to 4 decimals. */
  ai_probability: number;
  human_probability: number;
  /** Human score 0..100 (integer), `round(100 * human_probability)`, as the bundled classifier's. */
  score: number;
  /** As the bundled classifier's (`confidenceOf`): `low` within 0.1 of 0.5, `medium` within 0.3, `high` beyond. */
  confidence: 'low' | 'medium' | 'high';
}

/** A plugged AI-image classifier, loaded and checked. */
export interface CustomImageModel {
  readonly task: 'ai-image';
  readonly name: string;
  readonly version: string;
  readonly folder: string;
  readonly labels: readonly string[];
  readonly aiLabel: string;
  readonly preprocessing: ImagePreprocessing;
  /** The image's AI log-odds before any calibration (what calibration and evaluation read). */
  score(image: Uint8Array): Promise<number>;
  classify(image: Uint8Array): Promise<CustomImageClassification>;
  release(): Promise<void>;
}

export interface ImageModelOptions {
  threads: number;
  calibration?: ImageCalibration | undefined;
}

/** A probe image for the load-time check: a 256 x 256 grey gradient, encoded once. */
async function probeImage(): Promise<Uint8Array> {
  const pixels = Buffer.alloc(256 * 256 * 3);
  for (let i = 0; i < pixels.length; i++) pixels[i] = (i * 7) % 256;
  return sharp(pixels, { raw: { width: 256, height: 256, channels: 3 } }).png().toBuffer();
}

/** Creates an image model from a checked folder: preprocessing from `preprocessor_config.json`, session, probe run. */
export async function loadImageModel(model: ModelFolder, options: ImageModelOptions): Promise<CustomImageModel> {
  const refuse = (reason: string, cause?: unknown): never => {
    throw new CustomModelError(model.name, model.folder, reason, cause === undefined ? undefined : { cause });
  };
  const preprocessing = readPreprocessing(readJson(model.folder, 'preprocessor_config.json', refuse), refuse);
  const { session, output } = await openSession(model, { required: ['pixel_values'], optional: [] }, options.threads);
  const release = () => session.release();
  const calibration = options.calibration ?? ((p: number) => p);

  async function score(image: Uint8Array): Promise<number> {
    if (!(image instanceof Uint8Array) || image.byteLength === 0) throw new InvalidInputError('image', 'the bytes of an encoded image', image);
    const { data, width, height } = await preprocessImage(image, preprocessing);
    const result = await session.run({ pixel_values: new (onnxRuntime().Tensor)('float32', data, [1, 3, height, width]) });
    return aiLogOdds(checkLogits(model, result[output], 1), 0, model.labels.length, model.aiIndex);
  }

  try {
    await score(await probeImage());
  } catch (error) {
    await release();
    if (error instanceof CustomModelError) throw error;
    refuse(`the probe image could not be classified: ${(error as Error).message}`, error);
  }

  return {
    task: 'ai-image',
    name: model.name,
    version: `custom:${model.name}`,
    folder: model.folder,
    labels: model.labels,
    aiLabel: model.declaration.aiLabel,
    preprocessing,
    score,
    async classify(image) {
      const p = Math.min(1, Math.max(0, calibration(sigmoid(await score(image)))));
      // Rounded as the bundled classifier's answer: probabilities to 4 decimals (summing to 1), the score an integer.
      const ai = Math.round(p * 1e4) / 1e4;
      const human = Math.round((1 - ai) * 1e4) / 1e4;
      return {
        version: `custom:${model.name}`, ai_probability: ai, human_probability: human, score: Math.round(human * 100), confidence: confidenceOf(ai),
      };
    },
    release,
  };
}
