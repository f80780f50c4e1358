import { describe, expect, it } from 'vitest';
import { decideVerdict, type ScoredPassage, type VerdictThresholds } from '../src/decideVerdict.js';

const T: VerdictThresholds = { decisive: 0.5, partial: 0.5, minVotes: 2, refuteBelow: -0.45, supportFrom: -0.15 };
const passage = (e: number, c: number, overlap = 0.5): ScoredPassage => ({ p: [e, 1 - e - c, c], overlap });

describe('decideVerdict', () => {
  it('gives NOT_ENOUGH_EVIDENCE, score 50, without passages', () => {
    expect(decideVerdict([], T)).toEqual({ verdict: 'NOT_ENOUGH_EVIDENCE', decisive: -1, score: 50 });
  });

  it('lets one decisive contradiction refute, scored from that passage', () => {
    expect(decideVerdict([passage(0.1, 0.2), passage(0.1, 0.8)], T)).toEqual({ verdict: 'REFUTED', decisive: 1, score: 15 });
  });

  it('makes a decisive support partial when another passage decisively contradicts less strongly', () => {
    expect(decideVerdict([passage(0.9, 0.05), passage(0.2, 0.6)], T).verdict).toBe('PARTIALLY_SUPPORTED');
  });

  it('gives NOT_ENOUGH_EVIDENCE for a single non-decisive passage', () => {
    expect(decideVerdict([passage(0.3, 0.3)], T)).toMatchObject({ verdict: 'NOT_ENOUGH_EVIDENCE', score: 50 });
  });

  it('lets non-decisive passages vote, weighted by overlap', () => {
    // vote = (0.8 * 0 + 0.2 * -0.35) / 1 = -0.07 >= -0.15: supported; score 50 + 50 (-0.07 + 0.3) = 61.5.
    const supported = decideVerdict([passage(0.2, 0.2, 0.8), passage(0.1, 0.45, 0.2)], T);
    expect(supported).toMatchObject({ verdict: 'SUPPORTED', decisive: 0 });
    expect(supported.score).toBeGreaterThanOrEqual(61);
    expect(supported.score).toBeLessThanOrEqual(62);
    // The same passages with the weights swapped: vote -0.28, between the thresholds.
    expect(decideVerdict([passage(0.2, 0.2, 0.2), passage(0.1, 0.45, 0.8)], T).verdict).toBe('PARTIALLY_SUPPORTED');
    // Both passages leaning to contradiction: vote -0.46 refutes, scored below 50, explained by the most contradicting.
    expect(decideVerdict([passage(0.02, 0.48), passage(0.01, 0.47)], T)).toMatchObject({ verdict: 'REFUTED', decisive: 0 });
    expect(decideVerdict([passage(0.02, 0.48), passage(0.01, 0.47)], T).score).toBeLessThan(50);
  });
});

describe('decideVerdict vote weights', () => {
  it('lets a passage that takes a side outweigh an equally overlapping neutral one', () => {
    // Margins +0.3 (p(neutral) 0.1) and -0.4 (p(neutral) 0.9): weights 0.45 and 0.05, vote 0.23 supports.
    const sided: ScoredPassage = { p: [0.6, 0.1, 0.3], overlap: 0.5 };
    const neutral: ScoredPassage = { p: [0.0, 0.9, 0.1], overlap: 0.5 };
    const decision = decideVerdict([sided, neutral], { ...T, decisive: 0.9 });
    expect(decision).toMatchObject({ verdict: 'SUPPORTED', decisive: 0 });
  });
});

describe('decideVerdict minStance', () => {
  it('gives NOT_ENOUGH_EVIDENCE when no passage entails or contradicts with minStance, and votes otherwise', () => {
    // Both passages mostly neutral (best stance p 0.25): below minStance 0.3 there is not enough evidence.
    const neutral = [passage(0.25, 0.05), passage(0.2, 0.1)];
    expect(decideVerdict(neutral, { ...T, minStance: 0.3 })).toMatchObject({ verdict: 'NOT_ENOUGH_EVIDENCE', score: 50 });
    // The same passages vote (0.15 >= -0.15: supported) when minStance is 0 or at most their best stance.
    expect(decideVerdict(neutral, T).verdict).toBe('SUPPORTED');
    expect(decideVerdict(neutral, { ...T, minStance: 0.25 }).verdict).toBe('SUPPORTED');
  });
});
