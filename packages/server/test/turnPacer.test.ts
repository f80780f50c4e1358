import { describe, expect, it } from 'vitest';
import { TurnPacer } from '../src/turnPacer.js';

describe('TurnPacer', () => {
  it('lets the callers of a burst through a few per turn of the event loop, in the order they asked', async () => {
    // A ticker that counts turns: an immediate that sets the next one runs once per check phase.
    let turns = 0;
    let ticking = true;
    const tick = () => {
      turns++;
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    const pacer = new TurnPacer(3);
    const admitted: Array<{ caller: number; turn: number }> = [];
    await Promise.all(Array.from({ length: 20 }, (_, caller) => pacer.turn().then(() => void admitted.push({ caller, turn: turns }))));
    ticking = false;
    expect(admitted.map((a) => a.caller)).toEqual(Array.from({ length: 20 }, (_, i) => i));
    // Callers 0-2 in one turn, 3-5 in a later one, and so on.
    const seen = admitted.map((a) => a.turn);
    for (let i = 1; i < seen.length; i++) {
      if (i % 3 === 0) expect(seen[i]).toBeGreaterThan(seen[i - 1]!);
      else expect(seen[i]).toBe(seen[i - 1]);
    }
    expect(pacer.waiting).toBe(0);
  });

  it('refuses a per-turn count that is not a positive integer', () => {
    expect(() => new TurnPacer(0)).toThrow('Expected positive integer for perTurn but received 0 of type number');
    expect(new TurnPacer().perTurn).toBe(1);
  });
});
