import { describe, expect, it } from 'vitest';
import { extractClaims } from '../src/extractClaims.js';
import { resolveClaim } from '../src/resolveClaim.js';
import { segmentSentences } from '../src/segmentSentences.js';
import { loadWordVectors } from '../src/wordVectors.js';

const vectors = loadWordVectors();

// Hand-written paragraphs: facts (numbers, dates, names, comparisons, causes) mixed with opinions, questions and hedges.
const PARAGRAPHS = [
  {
    text:
      'The Eiffel Tower was completed in 1889 in Paris. It is 330 metres tall. I think it is the most beautiful ' +
      'building in the world. Have you ever visited it? What a view!',
    claims: ['The Eiffel Tower was completed in 1889 in Paris.', 'The Eiffel Tower is 330 metres tall.'],
  },
  {
    text:
      'Unemployment fell to 3.5 percent in 2019. We love our wonderful supporters. Why would anyone vote against ' +
      'this? The company reported revenue of $4.2 billion last year. Maybe things will get better soon.',
    claims: ['Unemployment fell to 3.5 percent in 2019.', 'The company reported revenue of $4.2 billion last year.'],
  },
  {
    text:
      'Germany has a population of about 83 million people. Honestly, the food there is a bit boring. The vaccine ' +
      'was approved by the FDA in December 2020. Thank you all for coming tonight. Is that not amazing?',
    claims: ['Germany has a population of about 83 million people.', 'The vaccine was approved by the FDA in December 2020.'],
  },
];

describe('extractClaims', () => {
  it.each(PARAGRAPHS)('keeps the facts and drops opinions, questions and hedges: $claims', async ({ text, claims }) => {
    const sentences = segmentSentences(text);
    const extracted = await extractClaims(sentences, vectors);
    expect(extracted.map((c) => c.claim).sort()).toEqual([...claims].sort());
    for (const claim of extracted) {
      expect(sentences.find((s) => s.id === claim.sentenceId)?.text).toBe(claim.sentence);
      expect(claim.checkWorthiness).toBeGreaterThanOrEqual(0.4);
    }
  });

  it('orders claims best first and stops at maxClaims', async () => {
    const sentences = segmentSentences(PARAGRAPHS.map((p) => p.text).join(' '));
    const all = await extractClaims(sentences, vectors);
    expect(all.length).toBe(6);
    for (let i = 1; i < all.length; i++) expect(all[i - 1]!.checkWorthiness).toBeGreaterThanOrEqual(all[i]!.checkWorthiness);
    const two = await extractClaims(sentences, vectors, { maxClaims: 2 });
    expect(two).toEqual(all.slice(0, 2));
  });
});

describe('resolveClaim', () => {
  const context = segmentSentences('Marie Curie was born in Warsaw in 1867. She won the Nobel Prize twice. Her daughter also won it.');

  it('returns a repeated claim once, at its first sentence', async () => {
    const text =
      'The Eiffel Tower was completed in 1889 in Paris. It is 330 metres tall. Many tourists come every summer. ' +
      'The Eiffel Tower was completed in 1889 in Paris. The Eiffel Tower is 330 metres tall.';
    const sentences = segmentSentences(text);
    const extracted = await extractClaims(sentences, vectors);
    const claims = extracted.map((c) => c.claim);
    expect(claims.filter((c) => c === 'The Eiffel Tower was completed in 1889 in Paris.')).toHaveLength(1);
    expect(claims.filter((c) => c === 'The Eiffel Tower is 330 metres tall.')).toHaveLength(1);
    expect(extracted.find((c) => c.claim === 'The Eiffel Tower was completed in 1889 in Paris.')?.sentenceId).toBe(sentences[0]!.id);
    expect(extracted.find((c) => c.claim === 'The Eiffel Tower is 330 metres tall.')?.sentenceId).toBe(sentences[1]!.id);
  });

  it('replaces a subject pronoun by the last name before it', () => {
    expect(resolveClaim(context[1]!, context.slice(0, 1))).toBe('Marie Curie won the Nobel Prize twice.');
  });

  it('replaces a possessive by the name and keeps the rest', () => {
    // The nearest sentence with a name is sentence 2, whose first name is "Nobel Prize": the heuristic's limit.
    expect(resolveClaim(context[2]!, context.slice(0, 1))).toBe("Marie Curie's daughter also won it.");
  });

  it('keeps a sentence without an antecedent as written, minus a leading connective', () => {
    const [only] = segmentSentences('But it rained all week.');
    expect(resolveClaim(only!, [])).toBe('It rained all week.');
  });
});
