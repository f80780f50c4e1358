import { describe, expect, it } from 'vitest';
import { negatedTokens, scopedNegationMismatches } from '../src/negationScope.js';
import { tokenize } from '../src/tokenize.js';

describe('negationScope', () => {
  it('limits a negation to its clause', () => {
    const text = 'The sun is not the cause, but carbon dioxide is.';
    const negated = negatedTokens(text, tokenize(text));
    expect(negated).toEqual([true, true, true, true, true, true, false, false, false, false]);
  });

  it('reports the claim words negated on one side only', () => {
    const claim = 'Warming is not caused by the sun.';
    const evidence = 'Warming is caused by carbon dioxide, not by the sun.';
    expect(scopedNegationMismatches(claim, tokenize(claim), evidence, tokenize(evidence))).toEqual(['warming', 'caused']);
  });
});
