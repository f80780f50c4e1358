import { describe, expect, it } from 'vitest';
import { detectLanguage } from '../src/detectLanguage.js';

describe('detectLanguage', () => {
  it.each([
    ['The committee said that the report was published in March and it is available online.', 'en'],
    ['Le gouvernement a annoncé que les prix de l’énergie sont en hausse pour la deuxième année.', 'fr'],
    ['Die Regierung hat angekündigt, dass die Preise für Energie im zweiten Jahr steigen und nicht sinken.', 'de'],
    ['El gobierno anunció que los precios de la energía subirán por segundo año en el país.', 'es'],
    ['Правительство объявило, что цены на энергию вырастут второй год подряд, это было ожидаемо.', 'ru'],
    ['Уряд оголосив, що ціни на енергію зростуть другий рік поспіль і це очікувано.', 'uk'],
    ['政府宣布能源价格将连续第二年上涨。', 'zh'],
    ['政府はエネルギー価格が二年連続で上昇すると発表した。', 'ja'],
    ['Η κυβέρνηση ανακοίνωσε ότι οι τιμές της ενέργειας θα αυξηθούν.', 'el'],
  ])('detects %s as %s', (text, code) => {
    expect(detectLanguage(text)).toBe(code);
  });

  it('falls back when nothing matches', () => {
    expect(detectLanguage('12345 67890', 'de')).toBe('de');
  });
});
