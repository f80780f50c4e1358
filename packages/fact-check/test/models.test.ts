import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CHECK_WORTHINESS_FEATURE_COUNT } from '../src/checkWorthinessFeatures.js';
import { ENTAILMENT_FEATURE_COUNT, ENTAILMENT_FEATURES } from '../src/entailmentFeatures.js';
import { loadModel, modelPath, type BundledModel } from '../src/onnxModel.js';

interface Card {
  version: string;
  input: { shape: [string, number] };
  fixedInputs: Record<string, number[]>;
  fixedOutputs: Record<string, number[]>;
  heldOutMetrics: Record<string, Record<string, number>>;
}

const widths: Record<BundledModel, number> = { entailment: ENTAILMENT_FEATURE_COUNT, checkworthiness: CHECK_WORTHINESS_FEATURE_COUNT };

describe.each(['entailment', 'checkworthiness'] as const)('bundled model %s', (name) => {
  const card = JSON.parse(readFileSync(modelPath(name, '.card.json'), 'utf8')) as Card;

  it('expects as many features as the TypeScript extractor makes', () => {
    expect(card.input.shape[1]).toBe(widths[name]);
  });

  it('gives the outputs recorded in its model card for the fixed inputs', async () => {
    const model = await loadModel(name);
    const keys = Object.keys(card.fixedInputs);
    expect(keys.length).toBeGreaterThanOrEqual(3);
    const outputs = await model.run(keys.map((k) => Float32Array.from(card.fixedInputs[k]!)), widths[name]);
    keys.forEach((key, i) => {
      const expected = card.fixedOutputs[key]!;
      expect(outputs[i]!.length).toBe(expected.length);
      expected.forEach((value, j) => expect(outputs[i]![j]).toBeCloseTo(value, 4));
    });
  });
});

describe('entailment feature list', () => {
  it('has unique names', () => {
    expect(new Set(ENTAILMENT_FEATURES).size).toBe(ENTAILMENT_FEATURE_COUNT);
  });
});
