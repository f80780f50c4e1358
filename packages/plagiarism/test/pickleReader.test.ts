import { describe, expect, it } from 'vitest';
// The pickle reader of the evaluation harness (scripts/plagiarism), on bytes written by Python's pickle module.
// @ts-expect-error plain ESM script without declarations
import { readStringListPickle } from '../../../scripts/plagiarism/pickle.mjs';

describe('readStringListPickle', () => {
  it('reads a protocol 4 list of strings (MARK, APPENDS, UTF-8)', () => {
    // pickle.dumps(['ab', 'ééé'], protocol=4)
    const bytes = new Uint8Array([128, 4, 149, 19, 0, 0, 0, 0, 0, 0, 0, 93, 148, 40, 140, 2, 97, 98, 148, 140, 6, 195, 169, 195, 169, 195, 169, 148, 101, 46]);
    expect(readStringListPickle(bytes)).toEqual(['ab', 'ééé']);
  });

  it('reads a protocol 2 list (BINPUT, BINUNICODE, APPEND)', () => {
    // pickle.dumps(['x' * 300], protocol=2)
    const bytes = new Uint8Array([128, 2, 93, 113, 0, 88, 44, 1, 0, 0, ...Array.from({ length: 300 }, () => 120), 113, 1, 97, 46]);
    expect(readStringListPickle(bytes)).toEqual(['x'.repeat(300)]);
  });

  it('refuses any other opcode instead of running it', () => {
    // pickle.dumps({'a': 1}, protocol=4): a dict, EMPTY_DICT then SETITEM
    const bytes = new Uint8Array([128, 4, 149, 10, 0, 0, 0, 0, 0, 0, 0, 125, 148, 140, 1, 97, 148, 75, 1, 115, 46]);
    expect(() => readStringListPickle(bytes)).toThrow(/unsupported pickle opcode 0x7d/);
    // GLOBAL 'os system' would import code: refused too.
    expect(() => readStringListPickle(new TextEncoder().encode('cos\nsystem\n'))).toThrow(/unsupported pickle opcode 0x63/);
  });
});
