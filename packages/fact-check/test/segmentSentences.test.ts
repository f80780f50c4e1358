import { describe, expect, it } from 'vitest';
import { segmentSentences } from '../src/segmentSentences.js';

describe('segmentSentences', () => {
  it('keeps offsets into the source text', () => {
    const text = '  First one here.  Second one?\nThird!  ';
    const sentences = segmentSentences(text);
    expect(sentences.map((s) => s.text)).toEqual(['First one here.', 'Second one?', 'Third!']);
    for (const s of sentences) expect(text.slice(s.start, s.end)).toBe(s.text);
    expect(sentences.map((s) => s.id)).toEqual([1, 2, 3]);
  });

  it('does not split at abbreviations, initials or decimals', () => {
    const text = 'Dr. Smith said U.S. output grew 3.5% in 2019. J. K. Rowling agreed.';
    expect(segmentSentences(text).map((s) => s.text)).toEqual([
      'Dr. Smith said U.S. output grew 3.5% in 2019.',
      'J. K. Rowling agreed.',
    ]);
  });

  it('splits at blank lines without a stop', () => {
    expect(segmentSentences('A heading\n\nThe body text.').map((s) => s.text)).toEqual(['A heading', 'The body text.']);
  });
});

describe('segmentSentences per language', () => {
  const split = (text: string, language: string) => {
    const sentences = segmentSentences(text, language);
    for (const s of sentences) expect(text.slice(s.start, s.end)).toBe(s.text);
    return sentences.map((s) => s.text);
  };

  it('German: keeps ordinal dates, z. B., u. a. and Dr. inside the sentence', () => {
    const text = 'Die Berliner Mauer wurde am 13. August 1961 gebaut. Viele Orte, z. B. Potsdam, u. a. Kleinmachnow, lagen an ihr. '
      + 'Dr. Müller forscht seit dem 1. Januar 2001 dazu. Im 20. Jahrhundert teilte sie die Stadt. Sie fiel im Jahr 1989. Danach kam die Einheit.';
    expect(split(text, 'de')).toEqual([
      'Die Berliner Mauer wurde am 13. August 1961 gebaut.',
      'Viele Orte, z. B. Potsdam, u. a. Kleinmachnow, lagen an ihr.',
      'Dr. Müller forscht seit dem 1. Januar 2001 dazu.',
      'Im 20. Jahrhundert teilte sie die Stadt.',
      'Sie fiel im Jahr 1989.',
      'Danach kam die Einheit.',
    ]);
  });

  it('French: keeps M., Mme, p. ex. and janv. inside, ends after a closing etc.', () => {
    const text = 'Le traité fut signé le 25 mars 1957 par M. Spaak et Mme Martin, etc. Il est entré en vigueur le 1er janv. 1958, p. ex. en France. Je pense que c\'est bien.';
    expect(split(text, 'fr')).toEqual([
      'Le traité fut signé le 25 mars 1957 par M. Spaak et Mme Martin, etc.',
      'Il est entré en vigueur le 1er janv. 1958, p. ex. en France.',
      'Je pense que c\'est bien.',
    ]);
  });

  it('Spanish: keeps Sra., EE. UU., feb. and Dr. inside the sentence', () => {
    const text = 'La Sra. García llegó a EE. UU. el 3 de feb. de 1990. El Dr. Pérez lo confirmó ante la prensa. Creo que es verdad.';
    expect(split(text, 'es')).toEqual([
      'La Sra. García llegó a EE. UU. el 3 de feb. de 1990.',
      'El Dr. Pérez lo confirmó ante la prensa.',
      'Creo que es verdad.',
    ]);
  });

  it('Russian and Chinese: keeps г. and т. е. inside, splits at the full-width stop', () => {
    expect(split('Стена была построена в 1961 г. в Берлине. Т. е. она стояла 28 лет. Мы думаем, что это важно.', 'ru')).toEqual([
      'Стена была построена в 1961 г. в Берлине.',
      'Т. е. она стояла 28 лет.',
      'Мы думаем, что это важно.',
    ]);
    expect(split('柏林墙建于1961年8月13日。它在1989年倒塌。我认为这很重要。', 'zh')).toEqual(['柏林墙建于1961年8月13日。', '它在1989年倒塌。', '我认为这很重要。']);
  });

  it('Hungarian: a year written as an ordinal before the month does not end the sentence', () => {
    expect(split('A falat 1961. augusztus 13-án kezdték építeni. Dr. Kovács szerint ez fontos.', 'hu')).toEqual([
      'A falat 1961. augusztus 13-án kezdték építeni.',
      'Dr. Kovács szerint ez fontos.',
    ]);
  });
});
