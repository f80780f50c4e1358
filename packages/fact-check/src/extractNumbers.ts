import type { Token } from './tokenize.js';

/** A quantity stated in a text. */
export interface Quantity {
  /** Numeric value with scale words applied (`3.5 million` = 3_500_000). */
  value: number;
  /** Whether it looks like a year (an integer 1000..2100 written without separators). */
  isYear: boolean;
  /** Index of the token it starts at. */
  token: number;
}

const SCALES: Readonly<Record<string, number>> = {
  hundred: 1e2, thousand: 1e3, million: 1e6, millions: 1e6, billion: 1e9, billions: 1e9, trillion: 1e12,
};

const NUMBER_WORDS: Readonly<Record<string, number>> = {
  zero: 0, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11,
  twelve: 12, thirteen: 13, fifteen: 15, twenty: 20, thirty: 30, forty: 40, fifty: 50, sixty: 60, seventy: 70,
  eighty: 80, ninety: 90, hundred: 100, dozen: 12, half: 0.5, twice: 2, double: 2, triple: 3,
  first: 1, second: 2, third: 3, fourth: 4, fifth: 5,
};

/** Numbers written with digits or as common number words, in token order. */
export function extractNumbers(tokens: readonly Token[]): Quantity[] {
  const quantities: Quantity[] = [];
  tokens.forEach((token, i) => {
    let value: number | undefined;
    let isYear = false;
    if (/^\p{N}/u.test(token.lower)) {
      const digits = token.lower.replace(/(st|nd|rd|th|%)$/, '');
      // "3,000" is three thousand, "3,5" a European decimal.
      const normalized = /^\d{1,3}(,\d{3})+(\.\d+)?$/.test(digits) ? digits.replace(/,/g, '') : digits.replace(',', '.');
      value = Number(normalized);
      isYear = /^\d{4}$/.test(digits) && value >= 1000 && value <= 2100;
    } else if (token.lower in NUMBER_WORDS && !(i > 0 && tokens[i - 1]?.lower.match(/^\d/))) {
      // "one" is too often a pronoun; only count it before a noun-like word.
      if (token.lower === 'one' || token.lower === 'second') return;
      value = NUMBER_WORDS[token.lower];
    }
    if (value === undefined || Number.isNaN(value)) return;
    const scale = SCALES[tokens[i + 1]?.lower ?? ''];
    if (scale !== undefined && !isYear) value *= scale;
    quantities.push({ value, isYear, token: i });
  });
  return quantities;
}

/** Whether two quantities agree within `tolerance` (relative), so that `3.5 million` matches `3,500,000`. */
export function sameQuantity(a: number, b: number, tolerance = 0.01): boolean {
  if (a === b) return true;
  return Math.abs(a - b) <= tolerance * Math.max(Math.abs(a), Math.abs(b));
}
