// The fuzzer's parts, for scripts/fuzz/fuzz.mjs and for the fixed-seed run of the test suite
// (packages/server/test/fuzz.test.ts), which hand it the packages under test (built, or their sources).
export { ADVANCED_ERROR_OF_STATUS, TOOL_PROTOCOL_ERRORS, UNEXPECTED_STATUSES, V2_ERROR_OF_STATUS, checkAnswer, checkToolAnswer, errorBodyProblems } from './contract.mjs';
export { applyMutations, mutatedBytesArbitrary, mutationArbitrary } from './mutate.mjs';
export { SERVED_URLS, commonArbitraries, endpointArbitraries, withCaller } from './requests.mjs';
export { collectGarbage, describeCase, fuzzEndpoint, memoryAfterGc, runCase } from './run.mjs';
export { loadSeeds } from './seeds.mjs';
export { inflatingPdf, joinedWords, manyParagraphDocx, pixelHeavyPng, vowellessToken } from './attacks.mjs';
export { startTarget } from './target.mjs';
