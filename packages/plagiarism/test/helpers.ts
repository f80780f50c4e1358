import { expect } from 'vitest';
import type { PlagiarismV2Result } from '../src/index.js';

/** Every sequence of a v2 result equals the input between its offsets. */
export function expectExactOffsets(result: PlagiarismV2Result): void {
  const all = [...result.indexes, ...result.sources.flatMap((s) => s.plagiarismFound)];
  for (const s of all) {
    expect(s.sequence).toBe(result.text.slice(s.startIndex, s.endIndex));
    expect(s.startIndex).toBeLessThan(s.endIndex);
  }
  for (const w of result.similarWords) expect(result.text.slice(w.index, w.index + w.word.length)).toBe(w.word);
}

/** Source texts written for these tests. */
export const PRESS = 'The history of the printing press begins in the fifteenth century. Johannes Gutenberg developed a movable type system that changed how books were produced across Europe. Before his invention, scribes copied manuscripts by hand, a slow and expensive process. The new technology spread rapidly to dozens of cities within a few decades. Literacy rates rose as printed books became cheaper and more widely available to ordinary people.';
export const VOLCANO = 'Volcanoes form where molten rock rises through the crust of the planet. Many of them are found along the edges of tectonic plates, where plates collide or pull apart. Eruptions can bury whole towns under ash, yet the soil they leave behind is among the most fertile on earth. Scientists watch the gases and small earthquakes that often come before an eruption.';
export const BEES = 'Honey bees live in colonies ruled by a single queen who lays thousands of eggs each day. Worker bees gather nectar and pollen from flowers and turn the nectar into honey inside the hive. They communicate the location of food through a waggle dance performed on the comb. Without bees, many crops that people depend on would produce far less fruit.';
export const FILLER = 'I spent the weekend thinking about what to write for this assignment, and my notes were a mess. ';
