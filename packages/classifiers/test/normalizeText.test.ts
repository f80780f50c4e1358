import { describe, expect, it } from 'vitest';
import { normalizeText } from '../src/index.js';

describe('normalizeText', () => {
  it('removes zero-width characters and reports them', () => {
    const result = normalizeText('hid\u200Bden te\u200Dxt\uFEFF');
    expect(result.text).toBe('hidden text');
    expect(result.zeroWidthCount).toBe(3);
    expect(result.attack).toEqual({ zero_width_space: true, homoglyph_attack: false });
  });

  it('replaces Cyrillic and Greek look-alikes inside Latin words', () => {
    const result = normalizeText('Thе quick brοwn fox');
    expect(result.text).toBe('The quick brown fox');
    expect(result.homoglyphCount).toBe(2);
    expect(result.attack.homoglyph_attack).toBe(true);
  });

  it('leaves genuine Russian text alone', () => {
    const text = 'Ракета стартовала утром с космодрома.';
    const result = normalizeText(text);
    expect(result.text).toBe(text);
    expect(result.attack).toEqual({ zero_width_space: false, homoglyph_attack: false });
  });

  it('folds full-width letters with NFKC', () => {
    expect(normalizeText('ｆｕｌｌ width').text).toBe('full width');
  });
});
