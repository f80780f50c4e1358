import { describe, expect, it } from 'vitest';
import { extractClaims, notAClaim } from '../src/extractClaims.js';
import { FACT_CHECK_LANGUAGES } from '../src/languages.js';
import { LANGUAGE_CUES } from '../src/languageCues.js';
import { segmentSentences } from '../src/segmentSentences.js';
import { loadWordVectors } from '../src/wordVectors.js';

const vectors = loadWordVectors();

// Hand-written paragraphs: dated facts with ordinals and abbreviations, beside first-person sentences and opinions.
const PARAGRAPHS = [
  {
    language: 'de',
    text: 'Die Berliner Mauer wurde am 13. August 1961 gebaut. Wir besuchen jedes Jahr die Gedenkstätte. '
      + 'Viele Orte, z. B. Potsdam, lagen direkt an der Grenze. Ich finde, das sollte jeder einmal sehen. '
      + 'Die Mauer fiel am 9. November 1989 nach 28 Jahren.',
    facts: ['Die Berliner Mauer wurde am 13. August 1961 gebaut.', 'Die Mauer fiel am 9. November 1989 nach 28 Jahren.'],
    notClaims: ['Wir besuchen jedes Jahr die Gedenkstätte.', 'Ich finde, das sollte jeder einmal sehen.'],
  },
  {
    language: 'fr',
    text: 'La tour Eiffel a été achevée le 31 mars 1889 à Paris. Nous aimons beaucoup nous promener sur le Champ-de-Mars. '
      + 'Elle mesure 330 mètres, p. ex. plus que la tour Montparnasse. À mon avis, c\'est le plus beau monument du monde.',
    facts: ['La tour Eiffel a été achevée le 31 mars 1889 à Paris.'],
    notClaims: ['Nous aimons beaucoup nous promener sur le Champ-de-Mars.', 'À mon avis, c\'est le plus beau monument du monde.'],
  },
  {
    language: 'es',
    text: 'La Constitución española fue aprobada el 6 de dic. de 1978 en referéndum. Mi familia siempre vota en nuestro pueblo. '
      + 'El Sr. Suárez era entonces presidente del Gobierno. Creo que fue un momento muy emocionante para todos.',
    facts: ['La Constitución española fue aprobada el 6 de dic. de 1978 en referéndum.'],
    notClaims: ['Mi familia siempre vota en nuestro pueblo.', 'Creo que fue un momento muy emocionante para todos.'],
  },
  {
    language: 'ru',
    text: 'Берлинская стена была построена в 1961 г. в Берлине. Мы каждый год ездим туда с друзьями. '
      + 'Она разделяла город 28 лет, т. е. до 1989 года. Мне кажется, это очень грустная история.',
    facts: ['Берлинская стена была построена в 1961 г. в Берлине.'],
    notClaims: ['Мы каждый год ездим туда с друзьями.', 'Мне кажется, это очень грустная история.'],
  },
];

describe('extractClaims per language', () => {
  it.each(PARAGRAPHS)('$language: whole sentences only, the dated fact kept, first person and opinions dropped', async ({ language, text, facts, notClaims }) => {
    const sentences = segmentSentences(text, language);
    const extracted = await extractClaims(sentences, vectors, { language });
    const claims = extracted.map((c) => c.sentence);
    for (const claim of claims) {
      // No fragment: every claim is one whole sentence of the text, from a capital letter to its final stop.
      expect(sentences.some((s) => s.text === claim)).toBe(true);
      expect(claim).toMatch(/^\p{Lu}.*[.!]$/u);
    }
    for (const fact of facts) expect(claims).toContain(fact);
    for (const sentence of notClaims) {
      expect(sentences.map((s) => s.text)).toContain(sentence);
      expect(claims).not.toContain(sentence);
    }
  });

  it('names why a sentence is not a claim, in a non-Latin script too', () => {
    expect(notAClaim('Wir besuchen jedes Jahr die Gedenkstätte.', 'de')).toBe('first-person');
    // English leaves first person to the check-worthiness model (debate claims often speak as "we").
    expect(notAClaim('We built the largest army in the world.', 'en')).toBeUndefined();
    expect(notAClaim('I think we built the largest army in the world.', 'en')).toBe('opinion');
    expect(notAClaim('Wir haben 2019 über 4 Millionen Euro investiert.', 'de')).toBeUndefined();
    expect(notAClaim('Vielleicht wurde die Mauer später gebaut.', 'de')).toBe('opinion');
    expect(notAClaim('Je pense que la tour mesure 330 mètres.', 'fr')).toBe('opinion');
    expect(notAClaim("J'habite à Paris depuis longtemps.", 'fr')).toBe('first-person');
    expect(notAClaim('Quizás la ley se aprobó en otro año.', 'es')).toBe('opinion');
    expect(notAClaim('Мы каждый год ездим туда с друзьями.', 'ru')).toBe('first-person');
    expect(notAClaim('我认为柏林墙是在1961年建造的。', 'zh')).toBe('opinion');
    expect(notAClaim('我们每年都去柏林参观纪念馆。', 'zh')).toBe('first-person');
    expect(notAClaim('柏林墙是在1961年8月13日开始建造的。', 'zh')).toBeUndefined();
    expect(notAClaim('Πιστεύω ότι το τείχος χτίστηκε το 1961.', 'el')).toBe('opinion');
    expect(notAClaim('Πότε χτίστηκε το τείχος του Βερολίνου;', 'el')).toBe('question');
  });

  it('has first-person, opinion and negation cues for each of the 39 languages', () => {
    for (const language of FACT_CHECK_LANGUAGES) {
      const cues = LANGUAGE_CUES[language];
      expect(cues.firstPerson.length, language).toBeGreaterThan(0);
      expect(cues.opinion.length, language).toBeGreaterThan(0);
      expect(cues.negations.length, language).toBeGreaterThan(0);
    }
  });
});
