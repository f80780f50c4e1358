import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { ModelLoadError } from '../errors.js';
import { extraModelsDir, MODELS_EXTRA_PACKAGE } from '../runtime/extraModels.js';
import { decodeKerasWeights, kerasToOnnx } from './kerasOnnx.js';
import type { KerasLayer, KerasWeightSpec, TapStatistic } from './kerasOnnx.js';
import { encodeOnnxModel } from './onnxWriter.js';

/**
 * The pretrained convolutional networks the AI-image probes sit on. Their weights are not copied into this
 * repository: they ship inside the npm package `nsfwjs` (MIT, pinned), as Keras models in TensorFlow.js layers
 * format with 8-bit quantized weights. Their early layers keep ImageNet weights (`trainable: false` in the
 * saved configs); the later ones were fine-tuned by the nsfwjs authors. `backboneOnnx` reads those files and
 * assembles an ONNX graph in memory; every probe's card records the SHA-256 of the files it was trained on
 * (`backboneDigest`), and the classifier refuses to run a probe on files that differ.
 */
export const BACKBONES = {
  'mobilenet_v2': {
    description: 'Keras MobileNetV2 (alpha 1.0), ImageNet-initialised, as shipped in nsfwjs 4.4.0',
    inputSize: 224,
    files: [
      'model.min.js',
      'group1-shard1of1.min.js',
    ],
  },
  'inception_v3': {
    description: 'Keras InceptionV3, ImageNet-initialised, as shipped in nsfwjs 4.4.0 (trained at 299 px; run here on 256 px views)',
    inputSize: 256,
    files: [
      'model.min.js',
      'group1-shard1of6.min.js',
      'group1-shard2of6.min.js',
      'group1-shard3of6.min.js',
      'group1-shard4of6.min.js',
      'group1-shard5of6.min.js',
      'group1-shard6of6.min.js',
    ],
  },
} as const satisfies Record<string, { description: string; inputSize: number; files: readonly string[] }>;

export type BackboneName = keyof typeof BACKBONES;

export interface BackboneTap {
  layer: string;
  stats: readonly TapStatistic[];
}

/**
 * Folder of the nsfwjs model files: the copy the packed `@content-analysis/models-extra` carries (vendor/nsfwjs, made
 * by its scripts/vendor-nsfwjs.mjs at `prepack`; only the versions in that package read backbones), else the nsfwjs
 * devDependency of the workspace. ModelLoadError naming the package when neither is installed.
 */
export function nsfwjsModelsDir(): string {
  const extra = extraModelsDir();
  const vendored = extra === undefined ? undefined : join(extra, '..', 'vendor', 'nsfwjs', 'models');
  if (vendored !== undefined && existsSync(vendored)) return vendored;
  const require = createRequire(import.meta.url);
  try {
    // dist/cjs/models/mobilenet_v2.js → dist/models/
    return join(dirname(require.resolve('nsfwjs/models/mobilenet_v2')), '..', '..', 'models');
  } catch (error) {
    throw new ModelLoadError(vendored ?? MODELS_EXTRA_PACKAGE,
      `the MobileNetV2 and InceptionV3 backbones ship in ${MODELS_EXTRA_PACKAGE}: npm install ${MODELS_EXTRA_PACKAGE}`, { cause: error });
  }
}

/** A backbone as nsfwjs ships it (TensorFlow.js layers format): topology, weight manifest and the weights' bytes. */
export interface TfjsLayersModel {
  modelTopology: { model_config: { config: { layers: KerasLayer[] } } };
  weightSpecs: KerasWeightSpec[];
  /** The weight shards, concatenated in manifest order. */
  weightData: Uint8Array;
}

/** Reads a backbone's files from the installed nsfwjs package. */
export function readTfjsModel(name: BackboneName): TfjsLayersModel {
  const dir = join(nsfwjsModelsDir(), name);
  const require = createRequire(import.meta.url);
  const load = (file: string): unknown => {
    const path = join(dir, file);
    try {
      return require(path) as unknown;
    } catch (error) {
      throw new ModelLoadError(path, 'cannot read the nsfwjs model file', { cause: error });
    }
  };
  const model = load('model.min.js') as {
    modelTopology: TfjsLayersModel['modelTopology'];
    weightsManifest: { paths: string[]; weights: KerasWeightSpec[] }[];
  };
  const shards: Uint8Array[] = [];
  const weightSpecs: KerasWeightSpec[] = [];
  for (const group of model.weightsManifest) {
    for (const path of group.paths) shards.push(Buffer.from(load(`${path}.min.js`) as string, 'base64'));
    weightSpecs.push(...group.weights);
  }
  return { modelTopology: model.modelTopology, weightSpecs, weightData: Buffer.concat(shards) };
}

/** The Keras layers and float weights of a backbone, read from the nsfwjs package. */
export function readBackbone(name: BackboneName): { layers: KerasLayer[]; weights: ReturnType<typeof decodeKerasWeights> } {
  const { modelTopology, weightSpecs, weightData } = readTfjsModel(name);
  return { layers: modelTopology.model_config.config.layers, weights: decodeKerasWeights(weightSpecs, weightData) };
}

/** SHA-256 of a backbone's files (for the model cards, so a changed package is detected). */
export function backboneDigest(name: BackboneName): string {
  const known = digests.get(name);
  if (known !== undefined) return known;
  const dir = join(nsfwjsModelsDir(), name);
  const hash = createHash('sha256');
  const require = createRequire(import.meta.url);
  for (const file of BACKBONES[name].files) {
    const content = require(join(dir, file)) as unknown;
    hash.update(typeof content === 'string' ? content : JSON.stringify(content));
  }
  const digest = hash.digest('hex');
  digests.set(name, digest);
  return digest;
}

const digests = new Map<BackboneName, string>();

/**
 * The ONNX bytes of a backbone cut at `taps` (pooled features) or, without taps, of the whole nsfwjs classifier
 * (which needs the input size it was trained at: 224 for MobileNetV2, 299 for InceptionV3).
 */
export function backboneOnnx(name: BackboneName, taps?: readonly BackboneTap[], inputSize: number = BACKBONES[name].inputSize): Uint8Array {
  const { layers, weights } = readBackbone(name);
  return encodeOnnxModel(kerasToOnnx(layers, weights, { name, inputSize, ...(taps ? { taps } : {}) }));
}
