export { countWords, wordSpans } from './words.js';
