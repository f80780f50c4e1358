import type { PixelBuffer } from '../types.js';

/**
 * Blockwise 8x8 DCT coefficients of a luma plane: block (bx, by) covers pixels [offsetX + 8 bx, +8) x
 * [offsetY + 8 by, +8); its 64 coefficients are at `coefficients[(by * blocksX + bx) * 64 + 8 u + v]`, u the
 * vertical and v the horizontal frequency. The scale is JPEG's (ITU-T T.81 A.3.3: orthonormal, samples level-shifted
 * by 128), so a JPEG's quantised coefficient k times its table entry is the value here up to rounding.
 */
export interface DctPlane {
  coefficients: Float32Array;
  blocksX: number;
  blocksY: number;
  offsetX: number;
  offsetY: number;
  /** The quantisation steps per frequency (8 u + v) when known (read from a JPEG file), else undefined. */
  table?: Uint16Array;
  /**
   * Set when only these blocks were transformed (`blockDct`'s `only`): `coefficients` then holds them compactly,
   * the i-th listed block at i * 64.
   */
  sampled?: Int32Array;
}

/** cos table of the orthonormal 8-point DCT-II: BASIS[8 u + x] = a(u) cos((2x + 1) u pi / 16). */
export const DCT_BASIS: Float64Array = (() => {
  const t = new Float64Array(64);
  for (let u = 0; u < 8; u++) for (let x = 0; x < 8; x++) t[u * 8 + x] = (u === 0 ? Math.SQRT1_2 : 1) * 0.5 * Math.cos(((2 * x + 1) * u * Math.PI) / 16);
  return t;
})();

/** JPEG zig-zag order: ZIGZAG[i] = 8 u + v of the i-th coefficient (ITU-T T.81 figure A.6). */
export const ZIGZAG: readonly number[] = [
  0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5, 12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6, 7, 14, 21,
  28, 35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51, 58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61,
  54, 47, 55, 62, 63,
];

/**
 * JPEG (JFIF) full-range luma Y = 0.299 R + 0.587 G + 0.114 B, level-shifted by -128, the plane a JPEG encoder
 * transforms; grey images pass through shifted.
 */
export function jpegLuma(image: PixelBuffer): Float32Array {
  const { data, width, height, channels } = image;
  const n = width * height;
  const out = new Float32Array(n);
  if (channels >= 3) for (let i = 0, p = 0; i < n; i++, p += channels) out[i] = 0.299 * data[p]! + 0.587 * data[p + 1]! + 0.114 * data[p + 2]! - 128;
  else for (let i = 0, p = 0; i < n; i++, p += channels) out[i] = data[p]! - 128;
  return out;
}

/**
 * `jpegLuma` of just the listed 8x8 blocks of the grid at (offsetX, offsetY) (blocksX per row), packed one block after
 * another (64 values each, rows of 8): the same float32 values as the full plane holds there, for a few blocks of a
 * large image without its whole plane.
 */
export function jpegLumaBlocks(image: PixelBuffer, offsetX: number, offsetY: number, blocksX: number, only: Int32Array): Float32Array {
  const { data, width, channels } = image;
  const out = new Float32Array(only.length * 64);
  // Listed blocks of one block row are read a pixel row at a time (forwards through memory, as the prefetcher likes),
  // each value into its own place: the same values as block by block.
  for (let start = 0; start < only.length;) {
    const row = Math.floor(only[start]! / blocksX);
    let end = start + 1;
    while (end < only.length && Math.floor(only[end]! / blocksX) === row) end++;
    for (let y = 0; y < 8; y++) {
      const line = (offsetY + row * 8 + y) * width + offsetX;
      for (let i = start; i < end; i++) {
        let p = (line + (only[i]! - row * blocksX) * 8) * channels, o = i * 64 + y * 8;
        for (let x = 0; x < 8; x++, o++, p += channels) out[o] = channels >= 3 ? 0.299 * data[p]! + 0.587 * data[p + 1]! + 0.114 * data[p + 2]! - 128 : data[p]! - 128;
      }
    }
    start = end;
  }
  return out;
}

/**
 * The DCT of every whole 8x8 block of `luma` (width x height) on the grid starting at (offsetX, offsetY), or of the
 * blocks listed by index in `only`, stored compactly in that order (`sampled`). Separable: rows then columns.
 */
export function blockDct(luma: Float32Array, width: number, height: number, offsetX = 0, offsetY = 0, only?: Int32Array): DctPlane {
  const blocksX = Math.max(0, Math.floor((width - offsetX) / 8));
  const blocksY = Math.max(0, Math.floor((height - offsetY) / 8));
  const coefficients = new Float32Array((only ? only.length : blocksX * blocksY) * 64);
  const tmp = new Float64Array(64);
  if (only) {
    for (let i = 0; i < only.length; i++) {
      const b = only[i]!, bx = b % blocksX, by = (b - bx) / blocksX;
      dctBlock(luma, width, offsetX + bx * 8, offsetY + by * 8, coefficients, i * 64, tmp);
    }
    return { coefficients, blocksX, blocksY, offsetX, offsetY, sampled: only };
  } else {
    for (let by = 0, b = 0; by < blocksY; by++) for (let bx = 0; bx < blocksX; bx++, b++) dctBlock(luma, width, offsetX + bx * 8, offsetY + by * 8, coefficients, b * 64, tmp);
  }
  return { coefficients, blocksX, blocksY, offsetX, offsetY };
}

/**
 * One block's DCT into out[o..o+64): rows into `tmp`, then columns, each 8-point transform split into its even and
 * odd halves (even frequencies see f_j + f_(7-j), odd ones f_j - f_(7-j): 32 multiplications instead of 64). A plain
 * function: V8 optimises it better than a closure.
 */
function dctBlock(luma: Float32Array, width: number, x0: number, y0: number, out: Float32Array, o: number, tmp: Float64Array): void {
  const B = DCT_BASIS;
  for (let y = 0; y < 8; y++) {
    const r = (y0 + y) * width + x0;
    const s0 = luma[r]! + luma[r + 7]!, s1 = luma[r + 1]! + luma[r + 6]!, s2 = luma[r + 2]! + luma[r + 5]!, s3 = luma[r + 3]! + luma[r + 4]!;
    const d0 = luma[r]! - luma[r + 7]!, d1 = luma[r + 1]! - luma[r + 6]!, d2 = luma[r + 2]! - luma[r + 5]!, d3 = luma[r + 3]! - luma[r + 4]!;
    const t = y * 8;
    for (let v = 0; v < 8; v += 2) {
      const k = v * 8;
      tmp[t + v] = B[k]! * s0 + B[k + 1]! * s1 + B[k + 2]! * s2 + B[k + 3]! * s3;
      tmp[t + v + 1] = B[k + 8]! * d0 + B[k + 9]! * d1 + B[k + 10]! * d2 + B[k + 11]! * d3;
    }
  }
  for (let v = 0; v < 8; v++) {
    const s0 = tmp[v]! + tmp[56 + v]!, s1 = tmp[8 + v]! + tmp[48 + v]!, s2 = tmp[16 + v]! + tmp[40 + v]!, s3 = tmp[24 + v]! + tmp[32 + v]!;
    const d0 = tmp[v]! - tmp[56 + v]!, d1 = tmp[8 + v]! - tmp[48 + v]!, d2 = tmp[16 + v]! - tmp[40 + v]!, d3 = tmp[24 + v]! - tmp[32 + v]!;
    for (let u = 0; u < 8; u += 2) {
      const k = u * 8;
      out[o + k + v] = B[k]! * s0 + B[k + 1]! * s1 + B[k + 2]! * s2 + B[k + 3]! * s3;
      out[o + k + 8 + v] = B[k + 8]! * d0 + B[k + 9]! * d1 + B[k + 10]! * d2 + B[k + 11]! * d3;
    }
  }
}

/** The IJG luminance table (ITU-T T.81 K.1) scaled to `quality` 1..100 as libjpeg's jpeg_quality_scaling does. */
export function standardLumaTable(quality: number): Uint16Array {
  const base = [
    16, 11, 10, 16, 24, 40, 51, 61, 12, 12, 14, 19, 26, 58, 60, 55, 14, 13, 16, 24, 40, 57, 69, 56, 14, 17, 22, 29, 51, 87, 80, 62,
    18, 22, 37, 56, 68, 109, 103, 77, 24, 35, 55, 64, 81, 104, 113, 92, 49, 64, 78, 87, 103, 121, 120, 101, 72, 92, 95, 98, 112, 100, 103, 99,
  ];
  const scale = quality < 50 ? Math.floor(5000 / quality) : 200 - quality * 2;
  return Uint16Array.from(base, (q) => Math.min(255, Math.max(1, Math.floor((q * scale + 50) / 100))));
}

/**
 * Maps a per-block map (blocksX x blocksY on the plane's grid) to cells of 8x8 pixels from the image origin, each
 * cell taking the block that covers most of it; cells no block covers are NaN.
 */
export function blocksToCells(values: Float32Array, plane: Pick<DctPlane, 'blocksX' | 'blocksY' | 'offsetX' | 'offsetY'>, width: number, height: number): { data: Float32Array; width: number; height: number } {
  const cw = Math.ceil(width / 8), ch = Math.ceil(height / 8);
  const data = new Float32Array(cw * ch).fill(Number.NaN);
  const sx = plane.offsetX > 4 ? 1 : 0, sy = plane.offsetY > 4 ? 1 : 0;
  for (let cy = 0; cy < ch; cy++) {
    const by = cy - sy;
    if (by < 0 || by >= plane.blocksY) continue;
    for (let cx = 0; cx < cw; cx++) {
      const bx = cx - sx;
      if (bx < 0 || bx >= plane.blocksX) continue;
      data[cy * cw + cx] = values[by * plane.blocksX + bx]!;
    }
  }
  return { data, width: cw, height: ch };
}
