import { describe, expect, it } from 'vitest';
import { alignPair } from '../src/alignPair.js';
import { chooseVerdict, VERDICT_FEATURES, verdictFeatures, type PassageConflicts } from '../src/calibratedVerdict.js';
import { loadWordVectors } from '../src/wordVectors.js';

const none: PassageConflicts = { years: [], numbers: [], negation: false, names: [], opposites: [], unstated: [] };
const decision = { minProbability: 0.3, decisionWeights: [1, 1.25, 0.75, 1], blockUnstated: false };

describe('chooseVerdict', () => {
  it('keeps a REFUTED under the minimum only when the supporting passage states another year and the evidence takes a side', () => {
    // REFUTED is the most probable class after the weights (0.28 x 1.25 = 0.35 > 0.44 x 0.75 = 0.33) but under 0.3.
    const p = [0.12, 0.28, 0.44, 0.16] as const;
    expect(chooseVerdict(p, none, decision)).toEqual({ verdict: 'NOT_ENOUGH_EVIDENCE', blocked: false });
    expect(chooseVerdict(p, { ...none, years: [1971] }, decision)).toEqual({ verdict: 'REFUTED', blocked: true });
    // A missing name is not on-point disagreement: no REFUTED from it.
    expect(chooseVerdict(p, { ...none, names: ['Berlin'] }, decision)).toEqual({ verdict: 'NOT_ENOUGH_EVIDENCE', blocked: false });
    // Without a side (P(SUPPORTED) + P(REFUTED) under the minimum) the year alone does not refute.
    expect(chooseVerdict([0.01, 0.2, 0.2, 0.59], { ...none, years: [1971] }, { ...decision, decisionWeights: [1, 4, 1, 1] }).verdict).toBe('NOT_ENOUGH_EVIDENCE');
  });

  it('never answers SUPPORTED against a figure the evidence states otherwise', () => {
    expect(chooseVerdict([0.7, 0.1, 0.15, 0.05], { ...none, numbers: [250] }, decision)).toEqual({ verdict: 'REFUTED', blocked: true });
    expect(chooseVerdict([0.7, 0.1, 0.15, 0.05], none, decision)).toEqual({ verdict: 'SUPPORTED', blocked: false });
  });

  it('answers PARTIALLY_SUPPORTED when one passage entails and another contradicts, only with the DISPUTED rule on', () => {
    const disputed = { ...decision, disputed: { minEntailment: 0.6, minContradiction: 0.7 } };
    const p = [0.7, 0.1, 0.15, 0.05] as const;
    expect(chooseVerdict(p, none, disputed, { maxEntailment: 0.9, maxContradiction: 0.75 })).toEqual({ verdict: 'PARTIALLY_SUPPORTED', blocked: false });
    // One side under its threshold: the calibrated decision stands.
    expect(chooseVerdict(p, none, disputed, { maxEntailment: 0.9, maxContradiction: 0.65 })).toEqual({ verdict: 'SUPPORTED', blocked: false });
    expect(chooseVerdict(p, none, disputed, { maxEntailment: 0.55, maxContradiction: 0.9 })).toEqual({ verdict: 'SUPPORTED', blocked: false });
    // Without the rule (null, as in calibration 1.1.0) both sides change nothing.
    expect(chooseVerdict(p, none, { ...decision, disputed: null }, { maxEntailment: 0.9, maxContradiction: 0.9 }).verdict).toBe('SUPPORTED');
  });
});

describe('verdictFeatures', () => {
  const vectors = loadWordVectors();
  const claim = 'The Eiffel Tower was completed in 1889.';
  const passage = (text: string, p: [number, number, number]) => {
    const alignment = alignPair(claim, text, vectors, 'en');
    return { p, overlap: alignment.matchedWords.length / alignment.claimWords.length, alignment };
  };

  it('counts the passages that take each side and flags evidence on both sides', () => {
    const support = passage('The Eiffel Tower was completed in 1889 for the World Fair.', [0.8, 0.1, 0.1]);
    const against = passage('The Eiffel Tower was completed in 1887.', [0.1, 0.2, 0.7]);
    const features = verdictFeatures([support, against]);
    expect(features.length).toBe(VERDICT_FEATURES.length);
    const f = (name: (typeof VERDICT_FEATURES)[number]) => features[VERDICT_FEATURES.indexOf(name)];
    expect(f('supportingShare')).toBe(0.5);
    expect(f('contradictingShare')).toBe(0.5);
    expect(f('bothSides')).toBe(1);
    expect(f('secondEntailment')).toBeCloseTo(0.1);
    expect(f('minMargin')).toBeCloseTo(-0.6);
    expect(f('conflictShare')).toBe(0.5);
    expect(verdictFeatures([support])[VERDICT_FEATURES.indexOf('bothSides')]).toBe(0);
  });
});
