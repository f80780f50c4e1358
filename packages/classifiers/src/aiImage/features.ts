import type * as ort from 'onnxruntime-common';
import { onnxRuntime } from '@content-analysis/onnx';
import { ModelLoadError } from '../errors.js';
import { cachedPromise } from '../runtime/promiseCache.js';
import { BACKBONES, backboneOnnx } from './backbones.js';
import type { BackboneName, BackboneTap } from './backbones.js';
import { ARTEFACT_FEATURE_NAMES, artefactFeatures } from './artefactFeatures.js';
import { prepareArtefactView } from './artefactView.js';
import { HANDCRAFTED_FEATURE_NAMES, handcraftedFeatures } from './handcrafted.js';
import { prepareViews, toPlanar, VIEW } from './prepare.js';
import type { CropPosition, PreparedView } from './prepare.js';

/**
 * The feature blocks the AI-image probes read. Each backbone is tapped at the end of several stages, early ones
 * still carrying their ImageNet weights and late ones fine-tuned by nsfwjs; every tap gives the channel means and
 * standard deviations over space. Intermediate layers are used because low-level statistics transfer across
 * generators better than the last layer alone (Ojha et al., "Towards Universal Fake Image Detectors", CVPR 2023,
 * probe a frozen pretrained network; Corvi et al. 2023 show the value of low-level, early features).
 */
export const FEATURE_BLOCKS = {
  handcrafted: { names: HANDCRAFTED_FEATURE_NAMES },
  /** Versions 6 and 7: generation artefacts on the luma view of artefactView.ts (its own view, the centre only). */
  artefacts: { names: ARTEFACT_FEATURE_NAMES },
  mobilenet_v2: {
    taps: [
      { layer: 'block_2_add', stats: ['mean', 'std'] },
      { layer: 'block_5_add', stats: ['mean', 'std'] },
      { layer: 'block_9_add', stats: ['mean', 'std'] },
      { layer: 'block_12_add', stats: ['mean', 'std'] },
      { layer: 'block_15_add', stats: ['mean', 'std'] },
      { layer: 'out_relu', stats: ['mean', 'std'] },
    ],
    channels: [24, 32, 64, 96, 160, 1280],
  },
  inception_v3: {
    taps: [
      { layer: 'mixed0', stats: ['mean', 'std'] },
      { layer: 'mixed2', stats: ['mean', 'std'] },
      { layer: 'mixed4', stats: ['mean', 'std'] },
      { layer: 'mixed7', stats: ['mean', 'std'] },
      { layer: 'mixed10', stats: ['mean', 'std'] },
    ],
    channels: [256, 288, 768, 768, 2048],
  },
} as const satisfies {
  handcrafted: { names: readonly string[] };
  artefacts: { names: readonly string[] };
  mobilenet_v2: { taps: readonly BackboneTap[]; channels: readonly number[] };
  inception_v3: { taps: readonly BackboneTap[]; channels: readonly number[] };
};

export type FeatureBlock = keyof typeof FEATURE_BLOCKS;

/** Column names of a feature block, in output order (`<layer>/<stat>/<channel>` for the backbones). */
export function featureNames(block: FeatureBlock): string[] {
  if (block === 'handcrafted' || block === 'artefacts') return [...FEATURE_BLOCKS[block].names];
  const spec = FEATURE_BLOCKS[block];
  return spec.taps.flatMap((tap, i) =>
    tap.stats.flatMap((stat) => Array.from({ length: spec.channels[i]! }, (_, c) => `${tap.layer}/${stat}/${c}`)),
  );
}

/** Computes feature blocks of images with ONNX sessions created once (per backbone) and reused. */
export class FeatureExtractor {
  private readonly sessions = new Map<BackboneName, Promise<ort.InferenceSession>>();

  constructor(private readonly threads = 1) {}

  /** The requested blocks of one image, for each crop position (the centre alone in inference). */
  async extract(
    image: Uint8Array,
    blocks: readonly FeatureBlock[],
    positions: readonly CropPosition[] = ['centre'],
  ): Promise<Record<FeatureBlock, Float32Array>[]> {
    const results: Record<FeatureBlock, Float32Array>[] = positions.map(() => ({}) as Record<FeatureBlock, Float32Array>);
    if (blocks.includes('artefacts')) {
      if (positions.length !== 1 || positions[0] !== 'centre') throw new RangeError('the artefacts block has the centre view only');
      results[0]!.artefacts = artefactFeatures(await prepareArtefactView(image));
    }
    const others = blocks.filter((b) => b !== 'artefacts');
    if (others.length === 0) return results;
    const views = await prepareViews(image, VIEW, positions);
    for (const block of others) {
      if (block === 'handcrafted') {
        views.forEach((view, i) => (results[i]![block] = handcraftedFeatures(view)));
      } else {
        const outputs = await this.runBackbone(block, views);
        outputs.forEach((features, i) => (results[i]![block] = features));
      }
    }
    return results;
  }

  private async runBackbone(name: BackboneName, views: readonly PreparedView[]): Promise<Float32Array[]> {
    const session = await this.session(name);
    const size = BACKBONES[name].inputSize;
    const plane = 3 * size * size;
    const batch = new Float32Array(views.length * plane);
    views.forEach((view, i) => batch.set(toPlanar(view, size), i * plane));
    const result = await session.run({ image: new (onnxRuntime().Tensor)('float32', batch, [views.length, 3, size, size]) });
    const data = result['features']!.data as Float32Array;
    const width = data.length / views.length;
    return views.map((_, i) => data.slice(i * width, (i + 1) * width));
  }

  private session(name: BackboneName): Promise<ort.InferenceSession> {
    return cachedPromise(this.sessions, name, async () => {
      try {
        return await onnxRuntime().InferenceSession.create(backboneOnnx(name, FEATURE_BLOCKS[name].taps), {
          intraOpNumThreads: this.threads,
          interOpNumThreads: 1,
          executionMode: 'sequential',
          graphOptimizationLevel: 'all',
        });
      } catch (error) {
        throw new ModelLoadError(`nsfwjs/${name}`, error instanceof Error ? error.message : String(error), { cause: error });
      }
    });
  }
}
