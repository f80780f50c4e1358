import { windowMedian } from './convolve.js';
import { medianInPlace } from './stats.js';
import { align16, wasmModule, type WasmModule } from './wasm.js';

/**
 * `windowMedian` for the 5x5 window (r = 2, CFA1's default pooling): the float32 values are mapped to int32 keys that
 * order like them (negative values with their magnitude bits flipped; -0 sorts just below +0, which are equal
 * values: either may be returned, as there), each column of 5 keys is sorted once per row by a 9-comparator network
 * and each full window's median is selected from its 5 sorted columns by a pruned merging network (`median25`), all
 * branch-free integer operations: the selection's data-dependent branches mispredicted about every other time.
 * Windows clipped by a border are selected as `windowMedian` does; any other radius, a map with NaN or one too small
 * for a full window goes to `windowMedian` itself. The values are those of the selection: a median depends on the
 * multiset only.
 */
export function windowMedian5x5(map: Float32Array, width: number, height: number, r: number): Float32Array {
  if (r !== 2 || width < 5 || height < 5 || hasNaN(map)) return windowMedian(map, width, height, r);
  const module = wasmModule('cfaBlockFeatures');
  if (module) return windowMedian5x5Wasm(module, map, width, height);
  const out = new Float32Array(width * height);
  const keys = orderKeys(map), outKeys = new Int32Array(out.buffer);
  const columns = new Int32Array(width * 5);
  for (let y = 2; y < height - 2; y++) {
    sortedColumns(keys, width, y - 2, columns);
    for (let x = 2, row = y * width; x < width - 2; x++) outKeys[row + x] = fromKey(median25(columns, (x - 2) * 5));
  }
  clippedWindows(map, width, height, 2, out);
  return out;
}

/** How often the WebAssembly median ran in this thread (tests check it did). */
export let wasmMedianCalls = 0;

/**
 * The full windows in WebAssembly (`median5x5` in `assembly/cfaBlockFeatures.ts`: the same keys, column sort and
 * merging network, four windows per vector, so the same bits), the clipped ones here. The map is copied into the
 * module's memory and the medians out (0.8 MB each way for CFA1 at 12 MP).
 */
function windowMedian5x5Wasm(module: WasmModule, map: Float32Array, width: number, height: number): Float32Array {
  const n = width * height, pitch = width + 8;
  const keys = module.heapBase(), outArea = align16(keys + 4 * n + 16), columns = align16(outArea + 4 * n + 16);
  module.reserve(columns + 4 * 5 * pitch + 16);
  const floats = new Float32Array(module.memory.buffer);
  floats.set(map, keys >> 2);
  module.function<(p: number, n: number) => void>('orderKeys')(keys, n);
  module.function<(keys: number, width: number, height: number, out: number, columns: number, pitch: number) => void>('median5x5')(keys, width, height, outArea, columns, pitch);
  wasmMedianCalls++;
  const out = floats.slice(outArea >> 2, (outArea >> 2) + n);
  clippedWindows(map, width, height, 2, out);
  return out;
}

function hasNaN(map: Float32Array): boolean {
  for (let i = 0; i < map.length; i++) if (map[i] !== map[i]) return true;
  return false;
}

/** int32 keys ordering like the float32 values: the bits, with the 31 magnitude bits flipped for negative values. */
function orderKeys(map: Float32Array): Int32Array {
  const keys = Int32Array.from(new Int32Array(map.buffer, map.byteOffset, map.length));
  for (let i = 0; i < keys.length; i++) keys[i] = fromKey(keys[i]!);
  return keys;
}

/** The inverse of the key mapping (the mapping is its own inverse): float32 bits from a key. */
function fromKey(k: number): number {
  return k ^ ((k >> 31) & 0x7fffffff);
}

/** columns[5 x ..]: the keys of column x in rows top..top+4, sorted ascending by a 9-comparator network. */
function sortedColumns(keys: Int32Array, width: number, top: number, columns: Int32Array): void {
  for (let x = 0, p = top * width; x < width; x++, p++) {
    let a = keys[p]!, b = keys[p + width]!, c = keys[p + 2 * width]!, d = keys[p + 3 * width]!, e = keys[p + 4 * width]!;
    let m: number;
    // Compare-exchange (u, v): m = u ^ v when v < u, else 0; then min = u ^ m, max = v ^ m.
    m = -Number(b < a) & (a ^ b); a ^= m; b ^= m;
    m = -Number(e < d) & (d ^ e); d ^= m; e ^= m;
    m = -Number(e < c) & (c ^ e); c ^= m; e ^= m;
    m = -Number(d < c) & (c ^ d); c ^= m; d ^= m;
    m = -Number(d < a) & (a ^ d); a ^= m; d ^= m;
    m = -Number(c < a) & (a ^ c); a ^= m; c ^= m;
    m = -Number(e < b) & (b ^ e); b ^= m; e ^= m;
    m = -Number(d < b) & (b ^ d); b ^= m; d ^= m;
    m = -Number(c < b) & (b ^ c); b ^= m; c ^= m;
    const o = 5 * x;
    columns[o] = a; columns[o + 1] = b; columns[o + 2] = c; columns[o + 3] = d; columns[o + 4] = e;
  }
}

/**
 * The 13th smallest of the 25 keys s[b..b+24], five sorted columns of five. Batcher's odd-even merges of the columns
 * (each padded to 8 with +infinity, 64 wires), with the comparators on padding resolved and those that cannot reach
 * the median's wire dropped: 88 compare-exchanges (24 of them keep only the min or the max). Each is
 * m = (a < b ? a ^ b : 0), min = b ^ m, max = a ^ m. Correct for all inputs: the test runs every input of 0s and 1s
 * (0-1 principle).
 */
export function median25(s: Int32Array, b: number): number {
  let m: number;
  const s0 = s[b + 0]!, s1 = s[b + 1]!, s2 = s[b + 2]!, s3 = s[b + 3]!, s4 = s[b + 4]!;
  const s5 = s[b + 5]!, s6 = s[b + 6]!, s7 = s[b + 7]!, s8 = s[b + 8]!, s9 = s[b + 9]!;
  const s10 = s[b + 10]!, s11 = s[b + 11]!, s12 = s[b + 12]!, s13 = s[b + 13]!, s14 = s[b + 14]!;
  const s15 = s[b + 15]!, s16 = s[b + 16]!, s17 = s[b + 17]!, s18 = s[b + 18]!, s19 = s[b + 19]!;
  const s20 = s[b + 20]!, s21 = s[b + 21]!, s22 = s[b + 22]!, s23 = s[b + 23]!, s24 = s[b + 24]!;
  m = -Number(s0 < s5) & (s0 ^ s5); const t1 = s5 ^ m, t2 = s0 ^ m;
  m = -Number(s4 < s9) & (s4 ^ s9); const t3 = s9 ^ m, t4 = s4 ^ m;
  m = -Number(t3 < t2) & (t3 ^ t2); const t5 = t2 ^ m, t6 = t3 ^ m;
  m = -Number(s2 < s7) & (s2 ^ s7); const t7 = s7 ^ m, t8 = s2 ^ m;
  m = -Number(t7 < t5) & (t7 ^ t5); const t9 = t5 ^ m, t10 = t7 ^ m;
  m = -Number(t8 < t6) & (t8 ^ t6); const t11 = t6 ^ m, t12 = t8 ^ m;
  m = -Number(s1 < s6) & (s1 ^ s6); const t13 = s6 ^ m, t14 = s1 ^ m;
  m = -Number(s3 < s8) & (s3 ^ s8); const t15 = s8 ^ m, t16 = s3 ^ m;
  m = -Number(t15 < t14) & (t15 ^ t14); const t17 = t14 ^ m, t18 = t15 ^ m;
  m = -Number(t13 < t9) & (t13 ^ t9); const t19 = t9 ^ m, t20 = t13 ^ m;
  m = -Number(t17 < t10) & (t17 ^ t10); const t21 = t10 ^ m, t22 = t17 ^ m;
  m = -Number(t18 < t11) & (t18 ^ t11); const t23 = t11 ^ m, t24 = t18 ^ m;
  m = -Number(t16 < t12) & (t16 ^ t12); const t25 = t12 ^ m, t26 = t16 ^ m;
  m = -Number(s10 < s15) & (s10 ^ s15); const t27 = s15 ^ m, t28 = s10 ^ m;
  m = -Number(s14 < s19) & (s14 ^ s19); const t29 = s19 ^ m, t30 = s14 ^ m;
  m = -Number(t29 < t28) & (t29 ^ t28); const t31 = t28 ^ m, t32 = t29 ^ m;
  m = -Number(s12 < s17) & (s12 ^ s17); const t33 = s17 ^ m, t34 = s12 ^ m;
  m = -Number(t33 < t31) & (t33 ^ t31); const t35 = t31 ^ m, t36 = t33 ^ m;
  m = -Number(t34 < t32) & (t34 ^ t32); const t37 = t32 ^ m, t38 = t34 ^ m;
  m = -Number(s11 < s16) & (s11 ^ s16); const t39 = s16 ^ m, t40 = s11 ^ m;
  m = -Number(s13 < s18) & (s13 ^ s18); const t41 = s18 ^ m, t42 = s13 ^ m;
  m = -Number(t41 < t40) & (t41 ^ t40); const t43 = t40 ^ m, t44 = t41 ^ m;
  m = -Number(t39 < t35) & (t39 ^ t35); const t45 = t35 ^ m, t46 = t39 ^ m;
  m = -Number(t43 < t36) & (t43 ^ t36); const t47 = t36 ^ m, t48 = t43 ^ m;
  m = -Number(t44 < t37) & (t44 ^ t37); const t49 = t37 ^ m, t50 = t44 ^ m;
  m = -Number(t42 < t38) & (t42 ^ t38); const t51 = t38 ^ m, t52 = t42 ^ m;
  m = -Number(s22 < s24) & (s22 ^ s24); const t53 = s24 ^ m, t54 = s22 ^ m;
  m = -Number(s21 < t53) & (s21 ^ t53); const t55 = t53 ^ m, t56 = s21 ^ m;
  m = -Number(s23 < t54) & (s23 ^ t54); const t57 = t54 ^ m, t58 = s23 ^ m;
  m = -Number(t1 < t27) & (t1 ^ t27); const t59 = t27 ^ m, t60 = t1 ^ m;
  m = -Number(t26 < t52) & (t26 ^ t52); const t61 = t52 ^ m, t62 = t26 ^ m;
  m = -Number(t61 < t60) & (t61 ^ t60); const t63 = t60 ^ m, t64 = t61 ^ m;
  m = -Number(t22 < t48) & (t22 ^ t48); const t65 = t48 ^ m, t66 = t22 ^ m;
  m = -Number(t65 < t63) & (t65 ^ t63); const t67 = t63 ^ m, t68 = t65 ^ m;
  m = -Number(t66 < t64) & (t66 ^ t64); const t69 = t64 ^ m, t70 = t66 ^ m;
  m = -Number(t20 < t46) & (t20 ^ t46); const t71 = t46 ^ m, t72 = t20 ^ m;
  m = -Number(t24 < t50) & (t24 ^ t50); const t73 = t50 ^ m, t74 = t24 ^ m;
  m = -Number(t73 < t72) & (t73 ^ t72); const t75 = t72 ^ m, t76 = t73 ^ m;
  m = -Number(t71 < t67) & (t71 ^ t67); const t77 = t67 ^ m, t78 = t71 ^ m;
  m = -Number(t75 < t68) & (t75 ^ t68); const t79 = t68 ^ m, t80 = t75 ^ m;
  m = -Number(t76 < t69) & (t76 ^ t69); const t81 = t69 ^ m, t82 = t76 ^ m;
  m = -Number(t74 < t70) & (t74 ^ t70); const t83 = t70 ^ m, t84 = t74 ^ m;
  m = -Number(t19 < t45) & (t19 ^ t45); const t85 = t45 ^ m, t86 = t19 ^ m;
  m = -Number(t4 < t30) & (t4 ^ t30); const t87 = t30 ^ m, t88 = t4 ^ m;
  m = -Number(t87 < t86) & (t87 ^ t86); const t89 = t86 ^ m, t90 = t87 ^ m;
  m = -Number(t23 < t49) & (t23 ^ t49); const t91 = t49 ^ m, t92 = t23 ^ m;
  m = -Number(t91 < t89) & (t91 ^ t89); const t93 = t89 ^ m, t94 = t91 ^ m;
  m = -Number(t92 < t90) & (t92 ^ t90); const t95 = t90 ^ m, t96 = t92 ^ m;
  m = -Number(t21 < t47) & (t21 ^ t47); const t97 = t47 ^ m, t98 = t21 ^ m;
  m = -Number(t25 < t51) & (t25 ^ t51); const t99 = t51 ^ m, t100 = t25 ^ m;
  m = -Number(t99 < t98) & (t99 ^ t98); const t101 = t98 ^ m, t102 = t99 ^ m;
  m = -Number(t97 < t93) & (t97 ^ t93); const t103 = t93 ^ m, t104 = t97 ^ m;
  m = -Number(t101 < t94) & (t101 ^ t94); const t105 = t94 ^ m, t106 = t101 ^ m;
  m = -Number(t102 < t95) & (t102 ^ t95); const t107 = t95 ^ m, t108 = t102 ^ m;
  m = -Number(t100 < t96) & (t100 ^ t96); const t109 = t96 ^ m, t110 = t100 ^ m;
  m = -Number(t85 < t77) & (t85 ^ t77); const t111 = t77 ^ m, t112 = t85 ^ m;
  m = -Number(t103 < t78) & (t103 ^ t78); const t113 = t78 ^ m, t114 = t103 ^ m;
  m = -Number(t104 < t79) & (t104 ^ t79); const t116 = t104 ^ m;
  m = -Number(t105 < t80) & (t105 ^ t80); const t117 = t80 ^ m, t118 = t105 ^ m;
  m = -Number(t106 < t81) & (t106 ^ t81); const t119 = t81 ^ m, t120 = t106 ^ m;
  m = -Number(t107 < t82) & (t107 ^ t82); const t121 = t82 ^ m, t122 = t107 ^ m;
  m = -Number(t108 < t83) & (t108 ^ t83); const t123 = t83 ^ m;
  m = -Number(t109 < t84) & (t109 ^ t84); const t126 = t109 ^ m;
  m = -Number(t110 < t62) & (t110 ^ t62); const t127 = t62 ^ m, t128 = t110 ^ m;
  m = -Number(t56 < t58) & (t56 ^ t58); const t129 = t58 ^ m, t130 = t56 ^ m;
  m = -Number(t55 < t129) & (t55 ^ t129); const t131 = t129 ^ m, t132 = t55 ^ m;
  m = -Number(t57 < t130) & (t57 ^ t130); const t133 = t130 ^ m, t134 = t57 ^ m;
  m = -Number(t59 < s20) & (t59 ^ s20); const t136 = t59 ^ m;
  m = -Number(t126 < t136) & (t126 ^ t136); const t137 = t136 ^ m;
  m = -Number(t118 < t137) & (t118 ^ t137); const t140 = t118 ^ m;
  m = -Number(t114 < t134) & (t114 ^ t134); const t142 = t114 ^ m;
  m = -Number(t122 < t142) & (t122 ^ t142); const t143 = t142 ^ m;
  m = -Number(t143 < t140) & (t143 ^ t140); const t147 = t140 ^ m;
  m = -Number(t112 < t132) & (t112 ^ t132); const t152 = t112 ^ m;
  m = -Number(t128 < t152) & (t128 ^ t152); const t153 = t152 ^ m;
  m = -Number(t120 < t153) & (t120 ^ t153); const t155 = t153 ^ m;
  m = -Number(t116 < t155) & (t116 ^ t155); const t158 = t116 ^ m;
  m = -Number(t158 < t147) & (t158 ^ t147); const t166 = t158 ^ m;
  m = -Number(t111 < t131) & (t111 ^ t131); const t174 = t111 ^ m;
  m = -Number(t127 < t174) & (t127 ^ t174); const t175 = t174 ^ m;
  m = -Number(t119 < t175) & (t119 ^ t175); const t178 = t119 ^ m;
  m = -Number(t123 < t178) & (t123 ^ t178); const t181 = t178 ^ m;
  m = -Number(t113 < t133) & (t113 ^ t133); const t184 = t113 ^ m;
  m = -Number(t88 < t184) & (t88 ^ t184); const t185 = t184 ^ m;
  m = -Number(t121 < t185) & (t121 ^ t185); const t187 = t185 ^ m;
  m = -Number(t117 < t187) & (t117 ^ t187); const t190 = t117 ^ m;
  m = -Number(t190 < t181) & (t190 ^ t181); const t197 = t181 ^ m;
  m = -Number(t197 < t166) & (t197 ^ t166); const t214 = t197 ^ m;
  return t214;
}

/** The cells whose window is clipped by a border: the median of the clipped window, as `windowMedian` selects it. */
function clippedWindows(map: Float32Array, width: number, height: number, r: number, out: Float32Array): void {
  const scratch = new Float64Array((2 * r + 1) * (2 * r + 1));
  for (let y = 0; y < height; y++) {
    const inside = y >= r && y < height - r;
    for (let x = 0; x < width; x++) {
      if (inside && x === r) x = width - r;
      if (x >= width) break;
      let n = 0;
      for (let v = Math.max(0, y - r); v <= Math.min(height - 1, y + r); v++) {
        for (let u = Math.max(0, x - r); u <= Math.min(width - 1, x + r); u++) scratch[n++] = map[v * width + u]!;
      }
      out[y * width + x] = medianInPlace(scratch, n);
    }
  }
}
