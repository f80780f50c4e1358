import { afterAll, describe, expect, it, vi } from 'vitest';

// The fact checker's three models give the same probabilities on onnxruntime-node and on onnxruntime-web (the
// runtime where the native package, an optional peer, is not installed): this package's sources are loaded afresh under each runtime
// (CONTENT_ANALYSIS_ONNX_RUNTIME, read when the first model loads) and their outputs compared.
const PAIRS = [
  ['The Eiffel Tower was completed in 1889.', 'The Eiffel Tower in Paris was completed in 1889 and is 330 metres tall.'],
  ['The Eiffel Tower is 250 metres tall.', 'The Eiffel Tower in Paris was completed in 1889 and is 330 metres tall.'],
  ['Apollo 11 landed on the Moon in 1969.', 'Apollo 11 was the first crewed mission to land on the Moon, on 20 July 1969.'],
  ['Bananas are rich in potassium.', 'The Great Wall of China is visible from low orbit only under ideal conditions.'],
] as const;
const TEXT =
  'Germany has a population of about 83 million people. Honestly, the food there is a bit boring. The vaccine was ' +
  'approved by the FDA in December 2020. The river floods every spring, and in 2013 it rose 9 metres above its normal level.';

interface Outputs {
  runtime: string;
  neural: number[][];
  entailment: number[][];
  checkWorthiness: number[];
}

async function outputsUnder(runtime: 'node' | 'web'): Promise<Outputs> {
  vi.stubEnv('CONTENT_ANALYSIS_ONNX_RUNTIME', runtime);
  vi.resetModules();
  const { onnxRuntimeName } = await import('@content-analysis/onnx');
  const { alignPair } = await import('../src/alignPair.js');
  const { entailmentFeatures, ENTAILMENT_FEATURE_COUNT } = await import('../src/entailmentFeatures.js');
  const { entailmentTokens } = await import('../src/entailmentTokens.js');
  const { extractClaims } = await import('../src/extractClaims.js');
  const { loadNeuralEntailment } = await import('../src/neuralEntailment.js');
  const { loadModel } = await import('../src/onnxModel.js');
  const { segmentSentences } = await import('../src/segmentSentences.js');
  const { loadWordVectors } = await import('../src/wordVectors.js');
  const vectors = loadWordVectors();
  const pairs = PAIRS.map(([claim, evidence]) => ({
    claimTokens: entailmentTokens(claim, vectors),
    evidenceTokens: entailmentTokens(evidence, vectors),
    features: entailmentFeatures(alignPair(claim, evidence, vectors)),
  }));
  const neural = await (await loadNeuralEntailment()).run(pairs, vectors);
  const entailment = await (await loadModel('entailment')).run(pairs.map((p) => p.features), ENTAILMENT_FEATURE_COUNT);
  const claims = await extractClaims(segmentSentences(TEXT), vectors, { minCheckWorthiness: 0 });
  return {
    runtime: onnxRuntimeName(),
    neural: neural.map((p) => Array.from(p)),
    entailment: entailment.map((p) => Array.from(p)),
    checkWorthiness: claims.sort((a, b) => a.sentenceId - b.sentenceId).map((c) => c.checkWorthiness),
  };
}

afterAll(() => {
  vi.unstubAllEnvs();
  vi.resetModules();
});

describe('onnxruntime-node and onnxruntime-web', () => {
  it('give the same entailment (2.0 and 1.x) and check-worthiness probabilities, within 1e-5', async () => {
    const native = await outputsUnder('node');
    const web = await outputsUnder('web');
    expect([native.runtime, web.runtime]).toEqual(['node', 'web']);
    const close = (a: number[], b: number[]) => {
      expect(b.length).toBe(a.length);
      a.forEach((value, i) => expect(Math.abs(b[i]! - value)).toBeLessThanOrEqual(1e-5));
    };
    expect(native.neural.length).toBe(PAIRS.length);
    native.neural.forEach((p, i) => close(p, web.neural[i]!));
    native.entailment.forEach((p, i) => close(p, web.entailment[i]!));
    expect(native.checkWorthiness.length).toBeGreaterThanOrEqual(3);
    close(native.checkWorthiness, web.checkWorthiness);
    // Not bit-identical (measured differences up to 1e-7): the web run computed its own.
    expect(JSON.stringify(web.neural)).not.toBe(JSON.stringify(native.neural));
  }, 120_000);
});
