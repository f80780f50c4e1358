import { describe, expect, it } from 'vitest';
import { countSyllables, fleschReadingEase } from '../src/index.js';

describe('fleschReadingEase', () => {
  it('counts syllables with the vowel-group heuristic', () => {
    expect(countSyllables('cat')).toBe(1);
    expect(countSyllables('make')).toBe(1);
    expect(countSyllables('reading')).toBe(2);
    expect(countSyllables('table')).toBe(2);
  });

  it('gives simple prose a high score and dense prose a low one, within 0..100', () => {
    const simple = fleschReadingEase('The cat sat on the mat. The dog ran to the park. It was fun.');
    const dense = fleschReadingEase(
      'Institutional considerations notwithstanding, comprehensive organisational restructuring necessitates ' +
        'extraordinarily sophisticated interdepartmental communication methodologies.',
    );
    expect(simple).toBeGreaterThan(90);
    expect(simple).toBeLessThanOrEqual(100);
    expect(dense).toBe(0);
  });
});
