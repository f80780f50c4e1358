/** FNV-1a, 32 bits, of the UTF-16 code units of `s`. */
export function hashString(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Order-sensitive hash of a k-gram of word hashes `hashes[from, from + k)`. */
export function hashGram(hashes: ArrayLike<number>, from: number, k: number): number {
  let h = 0x9747b28c;
  for (let i = from; i < from + k; i++) {
    h = Math.imul(h ^ hashes[i]!, 0x5bd1e995);
    h ^= h >>> 15;
  }
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}
