import type { PassageMatch, SourceMatch } from './analyzePlagiarism.js';
import { IDENTICAL, SIMILAR } from './classifyWords.js';

/**
 * A counted passage gives way to a passage of another source over the same input words when its matched words
 * there are fewer than this share of the other's.
 */
export const BEST_SOURCE_SHARE = 0.9;

/** Least part of a passage's input words that another source's passage must cover for the two to compete. */
export const MIN_COMPETING_OVERLAP = 0.5;

/** Share of a passage's input words inside a longer passage of another source for it to lie within it. */
export const CONTAINED = 0.9;

/** Matched words of a passage in input words `[from, to)`: an identical word counts 1, a similar one 0.5. */
function matchedIn(passage: PassageMatch, from: number, to: number): number {
  let sum = 0;
  for (let i = Math.max(from, passage.inputFrom); i < Math.min(to, passage.inputFrom + passage.kinds.length); i++) {
    const kind = passage.kinds[i - passage.inputFrom]!;
    sum += kind === IDENTICAL ? 1 : kind === SIMILAR ? 0.5 : 0;
  }
  return sum;
}

const counts = (match: SourceMatch): boolean => !match.excluded && !match.cited;

/**
 * Attributes each stretch of the input to the sources that explain it best. Where documents of one collection
 * take from a shared third text (essays quoting or paraphrasing the prompt's reading, abstracts restating a
 * well-known definition), a passage copied from one of them also aligns with the others, more loosely. A counted
 * passage (not quoted, of a source neither excluded nor cited) is dropped when a counted passage of another source
 * covers at least {@link MIN_COMPETING_OVERLAP} of its input words and matches them clearly better: its matched
 * words there are under {@link BEST_SOURCE_SHARE} of the other's, or when it lies within a longer one ({@link
 * CONTAINED} of its words) that matches them at least as well. Sources left without passages are dropped; sources
 * whose passages match about equally well over the same stretch all stay.
 */
export function keepBestSources(matches: readonly SourceMatch[]): SourceMatch[] {
  const competing = matches.flatMap((match, m) => (counts(match) ? match.passages.filter((p) => !p.quoted).map((passage) => ({ m, passage })) : []));
  const dropped = new Set<PassageMatch>();
  for (const { m, passage } of competing) {
    const from = passage.inputFrom;
    const to = passage.inputFrom + passage.kinds.length;
    for (const other of competing) {
      if (other.m === m) continue;
      const a = Math.max(from, other.passage.inputFrom);
      const b = Math.min(to, other.passage.inputFrom + other.passage.kinds.length);
      if (b - a < MIN_COMPETING_OVERLAP * (to - from)) continue;
      const mine = matchedIn(passage, a, b);
      const theirs = matchedIn(other.passage, a, b);
      // A tie goes to the passage that explains more of the input: one lying within the other adds nothing.
      const within = b - a >= CONTAINED * (to - from) && other.passage.kinds.length > to - from;
      if (mine < BEST_SOURCE_SHARE * theirs || (within && mine <= theirs)) {
        dropped.add(passage);
        break;
      }
    }
  }
  if (dropped.size === 0) return [...matches];
  return matches.map((match) => ({ ...match, passages: match.passages.filter((p) => !dropped.has(p)) })).filter((match) => match.passages.length > 0);
}
