import type { Feature } from '../feature.js';
import { advancedImageDetectionFeature } from './advancedImageDetection.js';
import { aiContentDetectionFeature } from './aiContentDetection.js';
import { factCheckerFeature } from './factChecker.js';
import { imageDetectionFeature } from './imageDetection.js';
import { plagiarismFeature, plagiarismV1Feature } from './plagiarism.js';
import { textCompareFeature } from './textCompare.js';

export { advancedImageDetectionFeature } from './advancedImageDetection.js';
export { aiContentDetectionFeature } from './aiContentDetection.js';
export { factCheckerFeature } from './factChecker.js';
export { imageDetectionFeature } from './imageDetection.js';
export { plagiarismFeature, plagiarismV1Feature } from './plagiarism.js';
export { textCompareFeature } from './textCompare.js';

/** The features that have landed. A path of a feature not listed here answers 404. */
export function builtinFeatures(): Feature<any, any>[] {
  return [
    advancedImageDetectionFeature, aiContentDetectionFeature, factCheckerFeature, imageDetectionFeature, plagiarismFeature, plagiarismV1Feature,
    textCompareFeature,
  ];
}
