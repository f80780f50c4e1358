// A reader for Python pickles that hold a plain list of strings (the OUTFOX data files). It interprets only the
// opcodes such a pickle uses and throws on any other, so no code in a pickle is ever run.

const decoder = new TextDecoder('utf-8', { fatal: true });

/** The list of strings pickled in `bytes` (protocols 2 to 5); throws on anything that is not a list of str. */
export function readStringListPickle(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const stack = [];
  const marks = [];
  const memo = [];
  let p = 0;
  const text = (length) => {
    const s = decoder.decode(bytes.subarray(p, p + length));
    p += length;
    return s;
  };
  while (p < bytes.length) {
    const op = bytes[p++];
    switch (op) {
      case 0x80: p += 1; break; // PROTO
      case 0x95: p += 8; break; // FRAME
      case 0x5d: stack.push([]); break; // EMPTY_LIST
      case 0x28: marks.push(stack.length); break; // MARK
      case 0x94: memo.push(stack[stack.length - 1]); break; // MEMOIZE
      case 0x71: memo[bytes[p++]] = stack[stack.length - 1]; break; // BINPUT
      case 0x72: memo[view.getUint32(p, true)] = stack[stack.length - 1]; p += 4; break; // LONG_BINPUT
      case 0x8c: { const n = bytes[p++]; stack.push(text(n)); break; } // SHORT_BINUNICODE
      case 0x58: { const n = view.getUint32(p, true); p += 4; stack.push(text(n)); break; } // BINUNICODE
      case 0x8d: { const n = Number(view.getBigUint64(p, true)); p += 8; stack.push(text(n)); break; } // BINUNICODE8
      case 0x61: { const item = stack.pop(); stack[stack.length - 1].push(item); break; } // APPEND
      case 0x65: { // APPENDS
        const at = marks.pop();
        const items = stack.splice(at);
        stack[stack.length - 1].push(...items);
        break;
      }
      case 0x2e: { // STOP
        const result = stack.pop();
        if (!Array.isArray(result) || !result.every((s) => typeof s === 'string')) throw new TypeError('not a list of strings');
        return result;
      }
      default: throw new TypeError(`unsupported pickle opcode 0x${op.toString(16)} at ${p - 1}`);
    }
  }
  throw new TypeError('pickle without STOP');
}
