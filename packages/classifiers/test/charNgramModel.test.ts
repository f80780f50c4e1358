import { describe, expect, it } from 'vitest';
import { CharNgramModel } from '../src/index.js';

describe('CharNgramModel', () => {
  const model = new CharNgramModel({ order: 4, tableBits: 14 });
  for (let i = 0; i < 50; i++) model.add('the cat sat on the mat and the dog sat on the log ');

  it('finds seen text more predictable than unseen text', () => {
    const mean = (v: Float32Array) => v.reduce((a, b) => a + b, 0) / v.length;
    const seen = model.surprisal('the cat sat on the mat').high;
    const unseen = model.surprisal('zebras quickly vexed').high;
    expect(mean(seen)).toBeLessThan(0.5);
    expect(mean(unseen)).toBeGreaterThan(3);
  });

  it('gives every character a positive finite surprisal, context helping at the high order', () => {
    const s = model.surprisal('the dog sat');
    expect(s.high.length).toBe(11);
    for (const v of s.high) expect(Number.isFinite(v) && v > 0).toBe(true);
    expect(s.high.reduce((a, b) => a + b)).toBeLessThan(s.low.reduce((a, b) => a + b));
  });

  it('survives serialisation with quantised counts', () => {
    const copy = CharNgramModel.deserialize(model.serialize());
    expect(copy.order).toBe(4);
    const a = model.surprisal('the cat sat on the log').high;
    const b = copy.surprisal('the cat sat on the log').high;
    for (let i = 0; i < a.length; i++) expect(b[i]).toBeCloseTo(a[i]!, 2);
  });

  it('rejects an out-of-range order', () => {
    expect(() => new CharNgramModel({ order: 1 })).toThrow(/order/);
  });
});
