import { describe, expect, it } from 'vitest';
import { alignPair } from '../src/alignPair.js';
import { entailmentFeatures, ENTAILMENT_FEATURE_COUNT } from '../src/entailmentFeatures.js';
import { loadModel } from '../src/onnxModel.js';
import type { EvidencePassage } from '../src/evidenceStore.js';
import { judgeClaim } from '../src/judgeClaim.js';
import { loadWordVectors } from '../src/wordVectors.js';

const vectors = loadWordVectors();
const passage = (text: string, title = 'Source'): EvidencePassage => ({ url: `https://example.org/${title.replace(/ /g, '_')}`, title, text, score: 1 });

const EIFFEL = passage('The Eiffel Tower in Paris was completed in 1889 and is 330 metres tall.', 'Eiffel Tower');
const MOON = passage('Apollo 11 landed on the Moon on 20 July 1969. Neil Armstrong was the first person to walk on the Moon.', 'Moon landing');

describe('judgeClaim', () => {
  it('supports a claim the evidence states', async () => {
    const judgement = await judgeClaim('The Eiffel Tower is 330 metres tall.', [EIFFEL], vectors);
    expect(judgement.verdict).toBe('SUPPORTED');
    expect(judgement.score).toBeGreaterThan(70);
    expect(judgement.links).toEqual([{ url: EIFFEL.url, title: 'Eiffel Tower' }]);
    expect(judgement.explanation).toMatch(/Supported by "Eiffel Tower"/);
    expect(judgement.explanation).toMatch(/330/);
  });

  it('refutes a claim whose number differs from the evidence', async () => {
    const judgement = await judgeClaim('The Eiffel Tower is 250 metres tall.', [EIFFEL], vectors);
    expect(judgement.verdict).toBe('REFUTED');
    expect(judgement.score).toBeLessThan(30);
    expect(judgement.explanation).toMatch(/the claim says 250 where the source gives .*330/);
  });

  it('refutes a claim whose year differs from the evidence', async () => {
    const judgement = await judgeClaim('Apollo 11 landed on the Moon in 1972.', [MOON], vectors);
    expect(judgement.verdict).toBe('REFUTED');
    expect(judgement.explanation).toMatch(/1972/);
  });

  it('refutes a claim that negates the evidence', async () => {
    const judgement = await judgeClaim('Neil Armstrong was not the first person to walk on the Moon.', [MOON], vectors);
    expect(judgement.verdict).toBe('REFUTED');
    expect(judgement.explanation).toMatch(/negates/);
  });

  it('gives NOT_ENOUGH_EVIDENCE, score 50 and no links without evidence', async () => {
    const judgement = await judgeClaim('The population of Tokyo grew by 4 percent between 2010 and 2020.', [], vectors);
    expect(judgement).toMatchObject({ verdict: 'NOT_ENOUGH_EVIDENCE', score: 50, links: [] });
    expect(judgement.explanation).toMatch(/No passage/);
  });

  it('gives NOT_ENOUGH_EVIDENCE when the passages are about something else', async () => {
    const judgement = await judgeClaim('The population of Tokyo grew by 4 percent between 2010 and 2020.', [EIFFEL, MOON], vectors);
    expect(judgement).toMatchObject({ verdict: 'NOT_ENOUGH_EVIDENCE', score: 50, links: [] });
  });
});

describe('judgeClaim verdict rules', () => {
  it('supports a claim the passage restates word for word', async () => {
    const claim = 'The population of Tokyo grew by 4 percent between 2010 and 2020.';
    const judgement = await judgeClaim(claim, [passage(claim, 'Tokyo')], vectors);
    expect(judgement.verdict).toBe('SUPPORTED');
    expect(judgement.probabilities![0]).toBeGreaterThan(0.5);
  });

  it('needs two relevant passages before a non-decisive vote counts', async () => {
    const claim = 'Sea levels along the Atlantic coast rose faster in the last decade.';
    const related = passage('Tide gauges along the Atlantic coast have recorded sea levels for more than a century.', 'Tide gauges');
    const judgement = await judgeClaim(claim, [related], vectors, { verdictRule: 'thresholds', decisiveProbability: 1.01 });
    expect(judgement.verdict).toBe('NOT_ENOUGH_EVIDENCE');
    expect(judgement.score).toBe(50);
  });
});

describe('alignPair relations (entailment features 1.2.0)', () => {
  it('aligns antonyms, hypernyms, quantifiers, hedges and approximate numbers', async () => {
    const { alignPair } = await import('../src/alignPair.js');
    const a = alignPair('All glaciers in the Alps are increasing, by 10 percent.', 'Some glaciers in the Alps may be decreasing, by 10.5 percent.', vectors);
    expect(a.antonyms).toEqual([['increasing', 'decreasing']]);
    expect(a.quantifierMismatch).toBe(true);
    expect(a.evidenceHedged).toBe(true);
    expect(a.claimHedged).toBe(false);
    expect(a.approximateNumbers).toEqual([10]);
    expect(alignPair('An oak fell on the road.', 'A tree fell on the road.', vectors).specialisedWords).toEqual(['oak']);
    expect(alignPair('A tree fell on the road.', 'An oak fell on the road.', vectors).generalisedWords).toEqual(['tree']);
  });

  it('flags the same number in a different unit', async () => {
    const { alignPair } = await import('../src/alignPair.js');
    expect(alignPair('Emissions rose by 3 percent.', 'Emissions rose by 3 tonnes.', vectors).unitMismatches).toEqual([3]);
    expect(alignPair('Emissions rose by 3 percent.', 'Emissions rose by 3%.', vectors).unitMismatches).toEqual([]);
  });
});

describe('judgeClaim entailment models', () => {
  it('keeps 1.x selectable: its probabilities are the 1.x MLP on the pair\'s alignment features', async () => {
    const claim = 'The Eiffel Tower is 250 metres tall.';
    const judgement = await judgeClaim(claim, [EIFFEL], vectors, { entailmentModel: '1.x' });
    const [expected] = await (await loadModel('entailment')).run([entailmentFeatures(alignPair(claim, EIFFEL.text, vectors))], ENTAILMENT_FEATURE_COUNT);
    judgement.probabilities!.forEach((p, i) => expect(p).toBeCloseTo(expected![i]!, 6));
    const neural = await judgeClaim(claim, [EIFFEL], vectors, { entailmentModel: '2.0' });
    expect(Math.abs(neural.probabilities![2] - judgement.probabilities![2])).toBeGreaterThan(1e-3);
  });
});
