import { editProse, realProse } from '../../../benchmarks/lib/prose.mjs';

/** A pair of texts to compare, named. */
export interface NamedPair {
  name: string;
  first: string;
  second: string;
}

/** The string as a server holds it after JSON.parse: flat, not a slice of the corpus. */
const asReceived = (text: string): string => JSON.parse(JSON.stringify(text)) as string;

/**
 * The pairs of `benchmarks/text-compare/bench.mjs` (made the same way, from the same documents of the shared human
 * texts), then more pairs from the documents after them: other sizes and edit rates, CR LF line ends, curly quotes
 * (lines that are not ASCII) and unrelated texts. Throws when the shared datasets are absent.
 */
export function benchPairs(): NamedPair[] {
  const pairs: NamedPair[] = [];
  let offset = 0;
  const take = (chars: number, count: number): string[] => {
    const { texts, next } = realProse(chars, { count, offset });
    offset = next;
    return texts;
  };
  const edited = (name: string, chars: number, options: { seed: number; rate: number; moves: number }, change = (t: string) => t): void => {
    const [original, donor] = take(Math.round(chars * 0.96), 2);
    const copy = editProse(original!, donor!, options);
    pairs.push({ name, first: asReceived(change(original!)), second: asReceived(change(copy.text)) });
  };
  const unrelated = (name: string, chars: number): void => {
    const [first, second] = take(chars, 2);
    pairs.push({ name, first: asReceived(first!), second: asReceived(second!) });
  };
  // As in the bench.
  edited('edited 1k', 1_000, { seed: 1, rate: 0.1, moves: 0 });
  edited('edited 10k', 10_000, { seed: 2, rate: 0.1, moves: 1 });
  edited('edited 120k', 120_000, { seed: 3, rate: 0.1, moves: 2 });
  edited('lightly edited 120k', 120_000, { seed: 4, rate: 0.05, moves: 0 });
  unrelated('unrelated 120k', 119_000);
  // More.
  edited('edited 60k', 60_000, { seed: 5, rate: 0.2, moves: 3 });
  edited('lightly edited 30k', 30_000, { seed: 6, rate: 0.02, moves: 0 });
  edited('heavily edited 120k', 120_000, { seed: 7, rate: 0.3, moves: 4 });
  edited('edited 30k, CR LF', 30_000, { seed: 8, rate: 0.1, moves: 1 }, (t) => t.replace(/\n/g, '\r\n'));
  let flip = 0;
  edited('edited 30k, curly quotes in some lines', 30_000, { seed: 9, rate: 0.1, moves: 1 },
    (t) => t.split('\n').map((line) => (flip++ % 3 === 0 ? line.replace(/'/g, '\u2019').replace(/"/g, '\u201c') : line)).join('\n'));
  unrelated('unrelated 30k', 30_000);
  return pairs;
}
