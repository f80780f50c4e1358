import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { entailmentFeatures } from '../src/entailmentFeatures.js';
import { alignPair } from '../src/alignPair.js';
import { encodeTokens, entailmentTokens, TOKEN_INPUT_WIDTH } from '../src/entailmentTokens.js';
import type { EvidencePassage } from '../src/evidenceStore.js';
import { judgeClaim } from '../src/judgeClaim.js';
import { loadNeuralEntailment } from '../src/neuralEntailment.js';
import { modelPath } from '../src/onnxModel.js';
import { loadWordVectors } from '../src/wordVectors.js';
import { onnxRuntime } from '@content-analysis/onnx';

const ort = onnxRuntime();

interface NeuralCard {
  version: string;
  inputs: Record<string, unknown>;
  fixedInputs: Record<string, unknown[]>;
  fixedOutputs: number[][];
  heldOutMetrics: Record<string, Record<string, number>>;
}

const vectors = loadWordVectors();
const card = JSON.parse(readFileSync(modelPath('entailment-neural', '.card.json'), 'utf8')) as NeuralCard;
const passage = (text: string, title: string): EvidencePassage => ({ url: `https://example.org/${title.replace(/ /g, '_')}`, title, text, score: 1 });
const EIFFEL = passage('The Eiffel Tower in Paris was completed in 1889 and is 330 metres tall.', 'Eiffel Tower');

function flat(values: unknown[]): Float32Array {
  return Float32Array.from((values as number[]).flat(3) as number[]);
}
function shape(values: unknown[]): number[] {
  const dims: number[] = [];
  let v: unknown = values;
  while (Array.isArray(v)) {
    dims.push(v.length);
    v = v[0];
  }
  return dims;
}

describe('entailmentTokens', () => {
  it('splits clitics and unknown hyphenated words as GloVe 6B spells them', () => {
    expect(entailmentTokens("The tower's lights don't work, said a well-known zzyzx-qqqq guide.", vectors))
      .toEqual(['the', 'tower', "'s", 'lights', 'do', "n't", 'work', 'said', 'a', 'well-known', 'zzyzx', 'qqqq', 'guide']);
  });
});

describe('encodeTokens', () => {
  it('writes the GloVe vector, the exact-match and unknown flags, and a mask over the real tokens', () => {
    const { values, mask } = encodeTokens(['paris', 'zzyzxq'], ['paris', 'is', 'big'], vectors, 4);
    expect(values.length).toBe(4 * TOKEN_INPUT_WIDTH);
    expect(Array.from(values.subarray(0, 100))).toEqual(Array.from(vectors.get('paris')!));
    expect([values[100], values[101]]).toEqual([1, 0]);
    expect(Array.from(values.subarray(TOKEN_INPUT_WIDTH, TOKEN_INPUT_WIDTH + 100)).every((x) => x === 0)).toBe(true);
    expect([values[TOKEN_INPUT_WIDTH + 100], values[TOKEN_INPUT_WIDTH + 101]]).toEqual([0, 1]);
    expect(Array.from(mask)).toEqual([1, 1, 0, 0]);
  });

  it('gives an empty text one masked-in zero token', () => {
    const { values, mask } = encodeTokens([], ['a'], vectors, 2);
    expect(Array.from(mask)).toEqual([1, 0]);
    expect(values.every((x) => x === 0)).toBe(true);
  });
});

describe('entailment 2.0 model', () => {
  it('gives the outputs the torch export recorded in its card for the fixed inputs', async () => {
    const model = await loadNeuralEntailment();
    const feeds: Record<string, InstanceType<typeof ort.Tensor>> = {};
    for (const [name, values] of Object.entries(card.fixedInputs)) feeds[name] = new ort.Tensor('float32', flat(values), shape(values));
    const output = await model.session.run(feeds);
    const data = output.probabilities!.data as Float32Array;
    expect(card.fixedOutputs.length).toBe(2);
    card.fixedOutputs.forEach((row, i) => row.forEach((value, j) => expect(data[i * 3 + j]).toBeCloseTo(value, 4)));
  });

  it('scores a pair the same alone and padded in a batch with a longer one', async () => {
    const model = await loadNeuralEntailment();
    const pair = (claim: string, evidence: string) => ({
      claimTokens: entailmentTokens(claim, vectors),
      evidenceTokens: entailmentTokens(evidence, vectors),
      features: entailmentFeatures(alignPair(claim, evidence, vectors)),
    });
    const short = pair('The tower is tall.', 'The Eiffel Tower is 330 metres tall.');
    const long = pair('Apollo 11 landed on the Moon in July 1969 with Neil Armstrong and Buzz Aldrin aboard.', `${'Apollo 11 was the first crewed landing on the Moon. '.repeat(6)}`);
    const [alone] = await model.run([short], vectors);
    const [batched] = await model.run([long, short], vectors).then((r) => [r[1]]);
    Array.from(alone!).forEach((value, j) => expect(batched![j]).toBeCloseTo(value, 5));
  });

  it('supports a claim the evidence states and refutes one whose number differs', async () => {
    const supported = await judgeClaim('The Eiffel Tower was completed in 1889.', [EIFFEL], vectors, { entailmentModel: '2.0' });
    expect(supported.verdict).toBe('SUPPORTED');
    expect(supported.probabilities![0]).toBeGreaterThan(0.5);
    const refuted = await judgeClaim('The Eiffel Tower is 250 metres tall.', [EIFFEL], vectors, { entailmentModel: '2.0' });
    expect(refuted.verdict).toBe('REFUTED');
    expect(refuted.probabilities![2]).toBeGreaterThan(0.5);
  });

  it('answers NOT_ENOUGH_EVIDENCE, without links, when no passage is relevant', async () => {
    const judgement = await judgeClaim('Bananas are rich in potassium and magnesium.', [EIFFEL], vectors, { entailmentModel: '2.0' });
    expect(judgement).toMatchObject({ verdict: 'NOT_ENOUGH_EVIDENCE', score: 50, links: [] });
    expect(judgement.probabilities).toBeUndefined();
  });
});
