import { describe, expect, it } from 'vitest';
import {
  aiTextCredits, CREDIT_COSTS, creditsForWords, factCheckCredits, NEW_ACCOUNT_CREDITS, plagiarismCredits,
  textCompareCredits,
} from '../src/index.js';

describe('CREDIT_COSTS', () => {
  it('holds the published costs', () => {
    expect(CREDIT_COSTS).toEqual({
      aiTextPerWord: 1, plagiarismPerWord: 2, factCheckPerWord: 2, imageDetection: 300, advancedImageDetection: 500,
      textComparePerWord: 0.5,
    });
  });

  it('is frozen', () => {
    expect(Object.isFrozen(CREDIT_COSTS)).toBe(true);
    expect(() => {
      (CREDIT_COSTS as { aiTextPerWord: number }).aiTextPerWord = 0;
    }).toThrow(TypeError);
  });

  it('gives a new account 2000 credits', () => {
    expect(NEW_ACCOUNT_CREDITS).toBe(2000);
  });
});

describe('per-word costs', () => {
  it('charges 1 credit per word for AI text detection', () => {
    expect(aiTextCredits(0)).toBe(0);
    expect(aiTextCredits(350)).toBe(350);
  });

  it('charges 2 credits per word for plagiarism', () => {
    expect(plagiarismCredits(350)).toBe(700);
  });

  it('charges 2 credits per word for fact checking', () => {
    expect(factCheckCredits(1)).toBe(2);
  });

  it('rounds a fractional cost up to a whole credit', () => {
    expect(creditsForWords(3, 0.5)).toBe(2);
    expect(creditsForWords(3, 0.25)).toBe(1);
    expect(creditsForWords(4, 0.25)).toBe(1);
  });
});

describe('textCompareCredits', () => {
  it('charges half a credit per word over both texts, rounded up', () => {
    expect(textCompareCredits(1, 2)).toBe(2);
    expect(textCompareCredits(2, 2)).toBe(2);
    expect(textCompareCredits(0, 1)).toBe(1);
    expect(textCompareCredits(1, 0)).toBe(1);
    expect(textCompareCredits(1000, 501)).toBe(751);
  });

  it('charges nothing for two empty texts', () => {
    expect(textCompareCredits(0, 0)).toBe(0);
  });

  it('rounds the sum, not each side', () => {
    expect(textCompareCredits(1, 1)).toBe(1);
  });
});

describe('argument checks', () => {
  it('rejects a negative word count with a precise message', () => {
    expect(() => aiTextCredits(-1)).toThrow(new RangeError('Expected non-negative integer for words but received -1 of type number'));
  });

  it('rejects fractional, non-finite, unsafe and non-number word counts', () => {
    for (const bad of [1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53, '3', null, undefined, 3n]) {
      expect(() => plagiarismCredits(bad as number), String(bad)).toThrow(RangeError);
    }
  });

  it('names the argument of textCompareCredits that is wrong', () => {
    expect(() => textCompareCredits(1, -2)).toThrow('Expected non-negative integer for secondWords but received -2 of type number');
    expect(() => textCompareCredits(0.5, 1)).toThrow('for firstWords');
  });

  it('rejects a negative or non-finite per-word cost', () => {
    expect(() => creditsForWords(1, -1)).toThrow(RangeError);
    expect(() => creditsForWords(1, Number.NaN)).toThrow(RangeError);
  });

  it('rejects a cost beyond safe integers', () => {
    expect(() => factCheckCredits(Number.MAX_SAFE_INTEGER)).toThrow(RangeError);
  });
});
