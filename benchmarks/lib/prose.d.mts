// Types of the prose loader (plain ESM, so that the benchmarks run it without a build), as the test suite uses it.

/** The paragraph of made-up prose that `proseOf` repeats. */
export const PROSE: string;
/** About `chars` characters of PROSE in numbered parts. */
export function proseOf(chars: number): string;
/** The shared datasets folder (holding aitext/), or undefined when it is absent. */
export function proseDatasetsRoot(): string | undefined;
/** The distinct human-written English texts of the shared AI-text sets, interleaved set by set. */
export function humanDocuments(): Array<{ text: string; set: string }>;
/** `count` real texts of about `chars` characters each, from document `offset` on; `next` is the first unused one. */
export function realProse(chars: number, options?: { count?: number; offset?: number }): { texts: string[]; next: number };
/** mulberry32: a deterministic PRNG in [0, 1). */
export function mulberry32(seed: number): () => number;
/** A realistically edited copy of `text`, with sentences and words of `donor`. */
export function editProse(
  text: string, donor: string, options?: { seed?: number; rate?: number; moves?: number },
): { text: string; editedSentences: number; sentences: number };
