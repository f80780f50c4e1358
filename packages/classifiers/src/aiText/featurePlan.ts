import { ModelLoadError } from '../errors.js';
import { LM_FEATURE_NAMES } from './charLm.js';
import { DEFLATE_FEATURES, FEATURE_NAMES } from './featureNames.js';
import type { FeatureName } from './featureNames.js';
import type { FeatureResources, PreparedDocument } from './prepareDocument.js';
import { rangeFeatures } from './rangeFeatures.js';

/** How to fill a model's input row from `rangeFeatures` (every `FEATURE_NAMES` value) and the language model. */
export interface FeaturePlan {
  /** For each base input column, its index in `FEATURE_NAMES`. */
  columns: Int32Array;
  /** Index of the first language-model column (`LM_FEATURE_NAMES` in order), or -1 when the model reads none. */
  lmOffset: number;
  /** Whether the model uses a `deflate_*` feature (three deflate calls per range). */
  deflate: boolean;
  /** Whether the model uses an `lz_*` feature (compression profiles of the document). */
  compression: boolean;
}

/**
 * Maps a model card's input names to the features this package computes: base features (any subset of
 * `FEATURE_NAMES`, in any order), then optionally all of `LM_FEATURE_NAMES` in order. Work for features the model
 * does not use (`features_used`) is skipped. Throws ModelLoadError for names the package does not compute.
 */
export function featurePlan(folder: string, featureNames: readonly string[], featuresUsed: readonly string[]): FeaturePlan {
  const lmOffset = featureNames.indexOf(LM_FEATURE_NAMES[0]!);
  const base = lmOffset === -1 ? featureNames : featureNames.slice(0, lmOffset);
  if (lmOffset !== -1 && featureNames.slice(lmOffset).join() !== LM_FEATURE_NAMES.join()) {
    throw new ModelLoadError(folder, 'language-model features must come last, all of them, in LM_FEATURE_NAMES order');
  }
  const columns = new Int32Array(base.length);
  base.forEach((name, i) => {
    const index = (FEATURE_NAMES as readonly string[]).indexOf(name);
    if (index === -1) throw new ModelLoadError(folder, `card lists feature ${JSON.stringify(name)}, which this package does not compute`);
    columns[i] = index;
  });
  const used = new Set(featuresUsed);
  const uses = (names: readonly FeatureName[]) => names.some((n) => used.has(n) && base.includes(n));
  return {
    columns,
    lmOffset,
    deflate: uses(DEFLATE_FEATURES),
    compression: uses(FEATURE_NAMES.filter((n) => n.startsWith('lz_'))),
  };
}

/**
 * The base part of a model's input row for sentences `first` to `last` (inclusive): `rangeFeatures` in the card's
 * column order, written into `out` at `offset` (a new row of `plan.columns.length` values when absent).
 */
export function planFeatures(
  plan: FeaturePlan, doc: PreparedDocument, first: number, last: number, resources: FeatureResources,
  out: Float32Array = new Float32Array(plan.columns.length), offset = 0,
): Float32Array {
  const features = rangeFeatures(doc, first, last, resources, { deflate: plan.deflate });
  const { columns } = plan;
  for (let j = 0; j < columns.length; j++) out[offset + j] = features[columns[j]!]!;
  return out;
}
