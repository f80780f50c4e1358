import type { AnalyzedText } from './analyzeText.js';

/** How many documents of a collection use each content-word stem: the background rate of words. */
export class StemFrequencies {
  private readonly counts = new Map<string, number>();
  private total = 0;

  /** Number of documents counted. */
  get documents(): number {
    return this.total;
  }

  /** Number of documents that use `stem` (0 when none). */
  count(stem: string): number {
    return this.counts.get(stem) ?? 0;
  }

  add(text: AnalyzedText): void {
    this.total++;
    for (const stem of contentStems(text)) this.counts.set(stem, (this.counts.get(stem) ?? 0) + 1);
  }

  remove(text: AnalyzedText): void {
    this.total--;
    for (const stem of contentStems(text)) {
      const left = (this.counts.get(stem) ?? 0) - 1;
      if (left > 0) this.counts.set(stem, left);
      else this.counts.delete(stem);
    }
  }
}

function contentStems(text: AnalyzedText): Set<string> {
  const stems = new Set<string>();
  for (let i = 0; i < text.stems.length; i++) if (text.content[i] === 1) stems.add(text.stems[i]!);
  return stems;
}
