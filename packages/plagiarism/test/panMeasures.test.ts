import { describe, expect, it } from 'vitest';
// The PAN measures of the evaluation harness (scripts/plagiarism), checked on cases small enough to compute by hand.
// @ts-expect-error plain ESM script without declarations
import { panMeasures } from '../../../scripts/plagiarism/measures.mjs';

const c = (suspStart: number, suspEnd: number, srcStart: number, srcEnd: number, src = 's') => ({ susp: 'd', src, suspStart, suspEnd, srcStart, srcEnd });

describe('panMeasures (Potthast et al. 2010)', () => {
  it('scores an exact detection 1 everywhere', () => {
    expect(panMeasures([c(0, 100, 0, 100)], [c(0, 100, 0, 100)])).toMatchObject({ precision: 1, recall: 1, granularity: 1, plagdet: 1 });
  });

  it('penalises a case found in two pieces through granularity', () => {
    const m = panMeasures([c(0, 100, 0, 100)], [c(0, 50, 0, 50), c(50, 100, 50, 100)]);
    expect(m.precision).toBe(1);
    expect(m.recall).toBe(1);
    expect(m.granularity).toBe(2);
    expect(m.plagdet).toBeCloseTo(1 / Math.log2(3), 10);
  });

  it('counts characters of both documents and ignores detections of the wrong source', () => {
    // Detection covers half of the suspicious side and all of the source side: recall (50 + 100) / 200.
    const m = panMeasures([c(0, 100, 0, 100)], [c(0, 50, 0, 100), c(0, 100, 0, 100, 'other')]);
    expect(m.recall).toBeCloseTo(0.75, 10);
    expect(m.precision).toBeCloseTo(0.5, 10);
    expect(m.granularity).toBe(1);
  });
});
