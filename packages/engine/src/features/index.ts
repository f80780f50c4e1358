import type { Feature } from '../feature.js';
import { aiContentDetectionFeature } from './aiContentDetection.js';
import { textCompareFeature } from './textCompare.js';

export { aiContentDetectionFeature } from './aiContentDetection.js';
export { textCompareFeature } from './textCompare.js';

/** The features that have landed. A path of a feature not listed here answers 404. */
export function builtinFeatures(): Feature<any, any>[] {
  return [aiContentDetectionFeature, textCompareFeature];
}
