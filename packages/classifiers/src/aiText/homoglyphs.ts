/**
 * Letters that Unicode's confusables data (UTS #39, confusables.txt) lists as visually confusable with a Latin
 * letter, restricted to the Cyrillic, Greek, Armenian and Cherokee letters used in practice to evade detectors.
 * Full-width and mathematical alphanumeric forms need no table: NFKC folds them.
 */
const PAIRS: ReadonlyArray<readonly [string, string]> = [
  // Cyrillic
  ['а', 'a'], ['в', 'b'], ['с', 'c'], ['ԁ', 'd'], ['е', 'e'], ['һ', 'h'], ['і', 'i'], ['ј', 'j'], ['к', 'k'],
  ['ӏ', 'l'], ['м', 'm'], ['п', 'n'], ['о', 'o'], ['р', 'p'], ['ԛ', 'q'], ['г', 'r'], ['ѕ', 's'], ['т', 't'],
  ['ц', 'u'], ['ѵ', 'v'], ['ԝ', 'w'], ['х', 'x'], ['у', 'y'], ['ʐ', 'z'], ['ё', 'ë'], ['ї', 'ï'],
  ['А', 'A'], ['В', 'B'], ['С', 'C'], ['Е', 'E'], ['Н', 'H'], ['І', 'I'], ['Ј', 'J'], ['К', 'K'], ['М', 'M'],
  ['О', 'O'], ['Р', 'P'], ['Ѕ', 'S'], ['Т', 'T'], ['Х', 'X'], ['У', 'Y'], ['Ԝ', 'W'], ['Ԛ', 'Q'], ['Ү', 'Y'],
  // Greek
  ['α', 'a'], ['β', 'b'], ['ε', 'e'], ['ι', 'i'], ['κ', 'k'], ['ν', 'v'], ['ο', 'o'], ['ρ', 'p'], ['τ', 't'],
  ['υ', 'u'], ['χ', 'x'], ['γ', 'y'], ['Α', 'A'], ['Β', 'B'], ['Ε', 'E'], ['Ζ', 'Z'], ['Η', 'H'], ['Ι', 'I'],
  ['Κ', 'K'], ['Μ', 'M'], ['Ν', 'N'], ['Ο', 'O'], ['Ρ', 'P'], ['Τ', 'T'], ['Υ', 'Y'], ['Χ', 'X'],
  // Armenian, Cherokee, Latin small capitals and dotless forms
  ['օ', 'o'], ['ս', 'u'], ['հ', 'h'], ['ո', 'n'], ['Ꭺ', 'A'], ['Ᏼ', 'B'], ['Ꮯ', 'C'], ['Ꭼ', 'E'], ['Ꮋ', 'H'],
  ['Ꭻ', 'J'], ['Ꮶ', 'K'], ['Ꮇ', 'M'], ['Ꮲ', 'P'], ['Ꭲ', 'T'], ['ı', 'i'], ['ȷ', 'j'], ['ɡ', 'g'], ['ɑ', 'a'],
];

/** Confusable code point -> the Latin letter it imitates. */
export const HOMOGLYPHS: ReadonlyMap<number, string> = new Map(PAIRS.map(([from, to]) => [from.codePointAt(0)!, to]));
