/**
 * Character classes of the word scanners (`wordSpans`, `scanWords`): the classes of UAX #29 word breaking
 * restricted to ASCII, and the white space at which text is cut into pieces.
 */

// Character classes of UAX #29 restricted to ASCII.
export const OTHER = 0;
export const LETTER = 1; // ALetter
export const DIGIT = 2; // Numeric
export const UNDERSCORE = 3; // ExtendNumLet
export const MID_LETTER = 4; // ':' joins letters only
export const MID_NUM_LET = 5; // '.' and "'" join letters and digits
export const MID_NUM = 6; // ',' and ';' join digits only
export const SPACE = 7;

export const ASCII_CLASS = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const ch = String.fromCharCode(c);
  if (/[A-Za-z]/.test(ch)) ASCII_CLASS[c] = LETTER;
  else if (/[0-9]/.test(ch)) ASCII_CLASS[c] = DIGIT;
  else if (ch === '_') ASCII_CLASS[c] = UNDERSCORE;
  else if (ch === ':') ASCII_CLASS[c] = MID_LETTER;
  else if (ch === '.' || ch === "'") ASCII_CLASS[c] = MID_NUM_LET;
  else if (ch === ',' || ch === ';') ASCII_CLASS[c] = MID_NUM;
  else if (/\s/.test(ch)) ASCII_CLASS[c] = SPACE;
}

export function joinsAcross(prev: number, mid: number, next: number): boolean {
  if (prev === LETTER && next === LETTER) return mid === MID_LETTER || mid === MID_NUM_LET;
  if (prev === DIGIT && next === DIGIT) return mid === MID_NUM || mid === MID_NUM_LET;
  return false;
}

export function isWordChar(cls: number): boolean {
  return cls === LETTER || cls === DIGIT || cls === UNDERSCORE;
}

/** Whether the UTF-16 code unit `code` is white space for the word scanners. */
export function isSpaceCode(code: number): boolean {
  if (code < 128) return ASCII_CLASS[code] === SPACE;
  return code === 0x85 || code === 0xa0 || code === 0x1680 || (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 || code === 0x2029 || code === 0x202f || code === 0x205f || code === 0x3000;
}
