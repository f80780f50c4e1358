export { compareTexts } from './compareTexts.js';
export { InvalidArgumentError, TextTooLongError } from './errors.js';
export type { TextName } from './errors.js';
export { DEFAULT_TEXT_COMPARE_OPTIONS } from './options.js';
export type { TextCompareOptions } from './options.js';
export type { MatchItem, MatchType, TextCompareResult, TextCompareSide } from './types.js';
