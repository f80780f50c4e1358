import { describe, expect, it } from 'vitest';
import { JsonShapeScanner } from '../src/jsonShape.js';

const LIMITS = { maxDepth: 4, maxMembers: 5 };

/** The scanner's verdict on `text` sent in the chunks that cutting it at `cuts` makes. */
function scanInChunks(text: string, cuts: number[]): string | undefined {
  const bytes = Buffer.from(text, 'utf8');
  const scanner = new JsonShapeScanner(LIMITS);
  let from = 0;
  for (const cut of [...cuts, bytes.length]) {
    scanner.scan(bytes.subarray(from, cut));
    from = cut;
  }
  return scanner.problem;
}

describe('JsonShapeScanner', () => {
  it('counts members and nesting outside strings, whatever the strings hold', () => {
    // Five members; the strings hold colons, braces, escaped quotes and an escaped backslash before a quote.
    const text = '{"a":"x:{[","b":"say \\"{:}\\"","c":"\\\\","d":[1,{"e":"é😀:"}]}';
    expect(scanInChunks(text, [])).toBeUndefined();
    expect(scanInChunks(`{"f":0,${text.slice(1)}`, [])).toBe('has more than 5 object members');
    expect(scanInChunks('[[[[1]]]]', [])).toBe(undefined);
    expect(scanInChunks('[[[[[1]]]]]', [])).toBe('nests deeper than 4 levels');
  });

  it('gives the same verdict however the bytes are cut into chunks, an escape or a UTF-8 character split included', () => {
    const accepted = '{"a":"q\\":{","b":"é😀","c":[{"d":"\\\\"}]}';
    const refused = '{"a":"q\\":{","b":"é😀","c":[{"d":"\\\\"}],"e":1,"f":2}';
    const bytes = Buffer.byteLength(accepted);
    for (let cut = 0; cut <= bytes; cut++) {
      expect(scanInChunks(accepted, [cut])).toBeUndefined();
      for (let second = cut; second <= bytes; second += 3) expect(scanInChunks(accepted, [cut, second])).toBeUndefined();
    }
    for (let cut = 0; cut <= Buffer.byteLength(refused); cut++) expect(scanInChunks(refused, [cut])).toBe('has more than 5 object members');
  });

  it('stops at the member that crosses the bound and answers the same for every later chunk', () => {
    const scanner = new JsonShapeScanner({ maxDepth: 64, maxMembers: 3 });
    expect(scanner.scan(Buffer.from('{"a":1,"b":2,"c":3'))).toBeUndefined();
    expect(scanner.scan(Buffer.from(',"d":4'))).toBe('has more than 3 object members');
    // A later chunk is not looked at: even one that would close every brace.
    expect(scanner.scan(Buffer.from('}'))).toBe('has more than 3 object members');
    expect(scanner.problem).toBe('has more than 3 object members');
  });
});
