import { describe, expect, it } from 'vitest';
import { alignPassages, analyzeText, DEFAULT_ALIGNMENT_OPTIONS, measurePassage, wordFeatures } from '../src/index.js';

/** Written for this test: a sentence, a rewording of it, and a sentence on the same matter written apart. */
const INPUT = 'The harbour committee approved a new ferry budget after a long debate about bridges, tolls and the winter timetable of the island boats.';
const REWORDED = 'After a long debate about bridges, the harbour committee approved the ferry budget, though tolls for island boats and the summer timetable stayed open.';
const APART = 'The ferry committee of the harbour met again in spring; bridges were hardly mentioned, and the winter timetable of the island boats was left as it was.';

/** The whole of `input` measured against the whole of `source`, every word weighing 1 in the background. */
function measureWhole(input: string, source: string, options = DEFAULT_ALIGNMENT_OPTIONS) {
  const vocabulary = new Map<string, number>();
  const a = wordFeatures(analyzeText(input, 'en', false), vocabulary);
  const b = wordFeatures(analyzeText(source, 'en', false), vocabulary);
  const weights = new Float32Array(vocabulary.size).fill(1);
  return measurePassage(a, b, 0, a.text.tokens.length, 0, b.text.tokens.length, options, weights);
}

describe('measurePassage with a background', () => {
  it('keeps a reworded copy (weighted similarity 0.86)', () => {
    expect(measureWhole(INPUT, REWORDED)?.similarity).toBeCloseTo(0.857, 3);
  });

  it('drops a passage below minWeightedPassageSimilarity (0.62 < 0.65) that passes the other bounds', () => {
    expect(measureWhole(INPUT, APART)).toBeUndefined();
    expect(measureWhole(INPUT, APART, { ...DEFAULT_ALIGNMENT_OPTIONS, minWeightedPassageSimilarity: 0.3 })?.similarity).toBeCloseTo(0.615, 3);
  });
});

describe('alignPassages', () => {
  it('does not stretch a passage to a later sentence where the source repeats a 6-word run of it', () => {
    const source = 'Deep narrow Boltzmann machines are universal approximators of distributions on their visible units. '
      + 'The proof counts hidden layers one at a time. Bounds on width follow from the same counting. '
      + 'Hence deep narrow Boltzmann machines are universal in a weaker sense as well.';
    const copied = 'Deep narrow Boltzmann machines are universal approximators of distributions on their visible units';
    const input = `Our reading group met on Tuesday. ${copied}. Lunch was late again.`;
    const vocabulary = new Map<string, number>();
    const a = wordFeatures(analyzeText(input, 'en', false), vocabulary);
    const b = wordFeatures(analyzeText(source, 'en', false), vocabulary);
    const passages = alignPassages(a, b, DEFAULT_ALIGNMENT_OPTIONS, new Float32Array(vocabulary.size).fill(1));
    const { starts, ends } = b.text.tokens;
    expect(passages.map((p) => source.slice(starts[p.sourceFrom]!, ends[p.sourceTo - 1]!))).toEqual([copied]);
  });
});
