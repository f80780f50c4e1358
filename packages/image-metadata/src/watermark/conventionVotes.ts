import { align16 } from '@content-analysis/wasm';
import { CHROMA_CONVENTIONS, type ChromaConvention } from './chromaPlane.js';
import { wasmModule, type WasmModule } from './wasm.js';

/**
 * The block votes of `dwtDctBlockBits(chromaPlane(pixels, ..., convention), scale)` for all four conventions in one
 * pass over the pixels, without the full-size chroma planes: each 8x8 pixel block is read once and its four 4x4 cA
 * blocks are built side by side. Same arithmetic in the same order (float32 chroma rounded as the plane stores it,
 * cA summed in float64), so the votes equal the two-step functions' bit for bit (`test/watermark.test.ts`); those
 * stay as the readable definition. About 4x faster at 12 MP (`benchmarks/image-metadata`) in JavaScript; the
 * WebAssembly module `wasm/watermark.wasm` (SIMD, same arithmetic, the same votes: `test/wasmWatermark.test.ts`) runs
 * it when on, in about half the time (`node benchmarks/image-metadata/bench.mjs`, with and without CONTENT_ANALYSIS_WASM=0).
 */
export function conventionVotes(
  pixels: Uint8Array,
  width: number,
  height: number,
  channels: number,
  scale: number,
): Record<ChromaConvention, Uint8Array> {
  // The planes are cropped to multiples of 4; their cA to whole 4x4 blocks: 8x8 pixel blocks.
  const bw = (width - (width % 4)) >> 3;
  const bh = (height - (height % 4)) >> 3;
  const out = {} as Record<ChromaConvention, Uint8Array>;
  for (const c of CHROMA_CONVENTIONS) out[c] = new Uint8Array(bw * bh);
  if (bw === 0 || bh === 0) return out;
  // The last byte read (blue of the last cell's last pixel): with 1 or 2 channels it lies past that pixel, and past
  // the end for some sizes, where the JavaScript reads undefined; the module does not mimic that.
  const lastRead = ((bh * 8 - 1) * width + bw * 8 - 1) * channels + 2;
  const module = lastRead < pixels.length ? wasmModule('watermark') : undefined;
  if (module) {
    wasmVotes(module, pixels, width, channels, bw, bh, scale, out);
    return out;
  }
  const ub = out.uint8_bgr, us = out.uint8_rgb_as_bgr, fb = out.float32_bgr, fs = out.float32_rgb_as_bgr;
  const half = scale / 2;
  const rowStride = width * channels;
  for (let by = 0; by < bh; by++) {
    for (let bx = 0; bx < bw; bx++) {
      let bestUb = -1, bestUs = -1, bestFb = -1, bestFs = -1;
      for (let k = 1; k < 16; k++) {
        // cA cell k of the block: the 2x2 pixels at (row, col), summed in the plane's order (o, o+1, o+w, o+w+1).
        const row = (by * 4 + (k >> 2)) * 2;
        const col = (bx * 4 + (k & 3)) * 2;
        const p = row * rowStride + col * channels;
        let sUb = 0, sUs = 0, sFb = 0, sFs = 0;
        for (let q = 0; q < 4; q++) {
          const o = p + (q >> 1) * rowStride + (q & 1) * channels;
          const r = pixels[o]!, g = pixels[o + 1]!, b = pixels[o + 2]!;
          sUb += integerU(r, g, b);
          sUs += integerU(b, g, r);
          sFb += Math.fround((b - (0.299 * r + 0.587 * g + 0.114 * b)) * 0.492 + 0.5);
          sFs += Math.fround((r - (0.299 * b + 0.587 * g + 0.114 * r)) * 0.492 + 0.5);
        }
        // Strictly greater: the first maximum wins, as in dwtDctBlockBits.
        const mUb = Math.abs(sUb / 2), mUs = Math.abs(sUs / 2), mFb = Math.abs(sFb / 2), mFs = Math.abs(sFs / 2);
        if (mUb > bestUb) bestUb = mUb;
        if (mUs > bestUs) bestUs = mUs;
        if (mFb > bestFb) bestFb = mFb;
        if (mFs > bestFs) bestFs = mFs;
      }
      const i = by * bw + bx;
      ub[i] = bestUb % scale > half ? 1 : 0;
      us[i] = bestUs % scale > half ? 1 : 0;
      fb[i] = bestFb % scale > half ? 1 : 0;
      fs[i] = bestFs % scale > half ? 1 : 0;
    }
  }
  return out;
}

/** Input bytes per call of the module: rows of blocks in chunks of about 1 MB keep its memory near 2 MB. */
const CHUNK_BYTES = 1 << 20;

/** conventionVotes in the WebAssembly module, a chunk of block rows per call (the pixels are known to be long enough). */
function wasmVotes(
  module: WasmModule,
  pixels: Uint8Array,
  width: number,
  channels: number,
  bw: number,
  bh: number,
  scale: number,
  out: Record<ChromaConvention, Uint8Array>,
): void {
  const rowStride = width * channels;
  const blockRows = Math.max(1, Math.min(bh, Math.floor(CHUNK_BYTES / (8 * rowStride))));
  // Memory: 8 rows of 16-byte records, the chunk's rows (+2 bytes the 1- and 2-channel reads run into, +16 for the
  // RGB loads' 4 bytes past a row), the votes.
  const records = module.heapBase();
  const src = records + bw * 1024;
  const votesAt = src + align16(blockRows * 8 * rowStride + 2 + 16);
  module.reserve(votesAt + 4 * blockRows * bw);
  const run = module.function<(src: number, rowStride: number, channels: number, blockRows: number, blocksWide: number, scale: number, records: number, out: number) => void>('votes');
  const memory = new Uint8Array(module.memory.buffer);
  const planes = CHROMA_CONVENTIONS.map((c) => out[c]);
  for (let by = 0; by < bh; by += blockRows) {
    const rows = Math.min(blockRows, bh - by);
    const from = by * 8 * rowStride;
    memory.set(pixels.subarray(from, Math.min(pixels.length, from + rows * 8 * rowStride + 2)), src);
    run(src, rowStride, channels, rows, bw, scale, records, votesAt);
    const n = rows * bw;
    for (let c = 0; c < 4; c++) planes[c]!.set(memory.subarray(votesAt + c * n, votesAt + (c + 1) * n), by * bw);
  }
}

// OpenCV's 8-bit U: 14-bit fixed point, luma rounded first, saturated (as chromaPlane's uint8 conventions).
function integerU(red: number, g: number, blue: number): number {
  const luma = (red * 4899 + g * 9617 + blue * 1868 + 8192) >> 14;
  const u = ((blue - luma) * 8061 + (128 << 14) + 8192) >> 14;
  return u < 0 ? 0 : u > 255 ? 255 : u;
}
