import type { PixelBuffer } from '../types.js';
import { align16, wasmModule, type WasmModule } from './wasm.js';

/**
 * Luma as MATLAB's `rgb2ycbcr` computes it (ITU-R BT.601 studio swing, Y in 16..235 for 8-bit RGB):
 * Y = 16 + (65.481 R + 128.553 G + 24.966 B) / 255. Grey images map through the same 16 + 219 v / 255 scale.
 * `round` reproduces MATLAB's uint8 result, which the wavelet noise reference (NOI1) is computed on.
 * Rounding is floor(y + 0.5) for y >= 0.5, which equals Math.round there (y + 0.5 is exact from 0.5 up) and is
 * several times faster in V8.
 */
export function studioLuma(image: PixelBuffer, round: boolean): Float32Array {
  const { data, width, height, channels } = image;
  const out = new Float32Array(width * height);
  if (data instanceof Uint8Array) {
    if (round) lumaBytesRounded(data, channels, out, 0, 0, out.length);
    else lumaBytes(data, channels, out, 0, 0, out.length);
    return out;
  }
  const n = width * height;
  if (channels >= 3) {
    for (let i = 0, p = 0; i < n; i++, p += channels) {
      const y = 16 + (65.481 * data[p]! + 128.553 * data[p + 1]! + 24.966 * data[p + 2]!) / 255;
      out[i] = round ? (y >= 0.5 ? Math.floor(y + 0.5) : Math.round(y)) : y;
    }
  } else {
    for (let i = 0, p = 0; i < n; i++, p += channels) {
      const y = 16 + (219 * data[p]!) / 255;
      out[i] = round ? (y >= 0.5 ? Math.floor(y + 0.5) : Math.round(y)) : y;
    }
  }
  return out;
}

/**
 * 1 / 255 as a float64. For 8-bit pixels, x * INV_255 with x = 65.481 R + 128.553 G + 24.966 B (or 219 v) gives the
 * same float32 luma and the same rounded luma as x / 255 for every one of the 2^24 colours (checked exhaustively by
 * test/luma.test.ts), and a multiplication costs a fraction of a division. Float pixels keep the division.
 */
export const INV_255 = 1 / 255;

/** Unrounded luma of `count` 8-bit pixels from pixel `from` of `data` into `out` from `at` (monomorphic hot loop). */
export function lumaBytes(data: Uint8Array, channels: number, out: Float32Array, from: number, at: number, count: number): void {
  if (count >= WASM_MIN_PIXELS) {
    const module = wasmModule('luma');
    if (module) return lumaWasm(module, 'lumaFloats', data, channels, from, count, out, at);
  }
  const end = at + count;
  if (channels >= 3) {
    for (let i = at, p = from * channels; i < end; i++, p += channels) out[i] = 16 + (65.481 * data[p]! + 128.553 * data[p + 1]! + 24.966 * data[p + 2]!) * INV_255;
  } else {
    for (let i = at, p = from * channels; i < end; i++, p += channels) out[i] = 16 + 219 * data[p]! * INV_255;
  }
}

/** Rounded luma (floor(y + 0.5), y >= 16) of `count` 8-bit pixels, as `lumaBytes`. */
function lumaBytesRounded(data: Uint8Array, channels: number, out: Float32Array, from: number, at: number, count: number): void {
  if (count >= WASM_MIN_PIXELS) {
    const module = wasmModule('luma');
    if (module) return lumaWasm(module, 'roundedFloats', data, channels, from, count, out, at);
  }
  const end = at + count;
  if (channels >= 3) {
    for (let i = at, p = from * channels; i < end; i++, p += channels) out[i] = Math.floor(16 + (65.481 * data[p]! + 128.553 * data[p + 1]! + 24.966 * data[p + 2]!) * INV_255 + 0.5);
  } else {
    for (let i = at, p = from * channels; i < end; i++, p += channels) out[i] = Math.floor(16 + 219 * data[p]! * INV_255 + 0.5);
  }
}

/**
 * Runs of 8-bit pixels from this many on take the WebAssembly path (`assembly/luma.ts`): below it, copying in and out
 * and the call cost about what they save (a 4000-pixel row is several times faster there).
 */
const WASM_MIN_PIXELS = 256;

/** Pixels per call of the luma module: input, float32 and byte outputs of a chunk take about 300 KB of its memory. */
const LUMA_CHUNK_PIXELS = 1 << 15;

/** How often a luma run went through WebAssembly in this thread (tests check it did). */
export let wasmLumaCalls = 0;

type LumaExport = (src: number, channels: number, count: number, floats: number, bytes: number) => void;

/**
 * `lumaBytes` (`lumaFloats`), `lumaBytesRounded` (`roundedFloats`) or both planes of `studioLumaPlanesRows`
 * (`planes`) of `count` pixels from pixel `from` of `data`, into `floats` (and `bytes`) from `at`, in WebAssembly with
 * the same float64 arithmetic: chunks of pixels are copied into the module's memory and the results out.
 */
function lumaWasm(module: WasmModule, name: 'lumaFloats' | 'roundedFloats' | 'planes', data: Uint8Array, channels: number, from: number, count: number, floats: Float32Array, at: number, bytes?: Uint8Array): void {
  const chunk = Math.min(count, LUMA_CHUNK_PIXELS);
  const src = module.heapBase();
  const floatArea = align16(src + channels * chunk);
  const byteArea = floatArea + 4 * chunk;
  module.reserve(byteArea + chunk);
  const buffer = module.memory.buffer;
  const memoryBytes = new Uint8Array(buffer), memoryFloats = new Float32Array(buffer);
  const run = module.function<LumaExport>(name);
  wasmLumaCalls++;
  for (let done = 0; done < count; done += chunk) {
    const n = Math.min(chunk, count - done);
    memoryBytes.set(data.subarray((from + done) * channels, (from + done + n) * channels), src);
    run(src, channels, n, floatArea, byteArea);
    floats.set(memoryFloats.subarray(floatArea >> 2, (floatArea >> 2) + n), at + done);
    if (bytes) bytes.set(memoryBytes.subarray(byteArea, byteArea + n), at + done);
  }
}

/** Row `y` of `studioLuma(image, round)` into `out` (width samples), for kernels that stream rows. */
export function studioLumaRow(image: PixelBuffer, y: number, round: boolean, out: Float32Array): void {
  const { data, width, channels } = image;
  if (data instanceof Uint8Array) {
    if (round) lumaBytesRounded(data, channels, out, y * width, 0, width);
    else lumaBytes(data, channels, out, y * width, 0, width);
    return;
  }
  let p = y * width * channels;
  if (channels >= 3) {
    for (let x = 0; x < width; x++, p += channels) {
      const v = 16 + (65.481 * data[p]! + 128.553 * data[p + 1]! + 24.966 * data[p + 2]!) / 255;
      out[x] = round ? (v >= 0.5 ? Math.floor(v + 0.5) : Math.round(v)) : v;
    }
  } else {
    for (let x = 0; x < width; x++, p += channels) {
      const v = 16 + (219 * data[p]!) / 255;
      out[x] = round ? (v >= 0.5 ? Math.floor(v + 0.5) : Math.round(v)) : v;
    }
  }
}

/** One channel as Float32 (channel index clamped to what the image has, so grey images give their only channel). */
export function channelPlane(image: PixelBuffer, channel: number): Float32Array {
  const { data, width, height, channels } = image;
  const c = Math.min(channel, channels - 1);
  const out = new Float32Array(width * height);
  for (let i = 0, p = c; i < out.length; i++, p += channels) out[i] = data[p]!;
  return out;
}

/** The luma planes kernels share: `studioLuma(image, false)` and, as bytes, `studioLuma(image, true)`. */
export interface LumaPlanes {
  luma: Float32Array;
  /** Rounded luma, 16..235 for 8-bit pixels. */
  rounded: Uint8Array;
}

/**
 * Both luma planes of an 8-bit image in one pass (one division per pixel instead of one per kernel), in shared
 * memory when `shared` (for the worker pool). Undefined for float pixels, whose rounded luma need not fit a byte.
 */
export function studioLumaPlanes(image: PixelBuffer, shared = false): LumaPlanes | undefined {
  const planes = allocateLumaPlanes(image, shared);
  if (planes) studioLumaPlanesRows(image, planes, 0, image.height);
  return planes;
}

/**
 * Empty luma planes for `image` (undefined for float pixels), in shared memory when `shared` (true: new shared
 * buffers; a function: buffers of at least the given size from it, e.g. a pool's reused ones).
 */
export function allocateLumaPlanes(image: PixelBuffer, shared: boolean | ((bytes: number) => SharedArrayBuffer)): LumaPlanes | undefined {
  if (!(image.data instanceof Uint8Array)) return undefined;
  const n = image.width * image.height;
  const buffer = typeof shared === 'function' ? shared : shared ? (bytes: number) => new SharedArrayBuffer(bytes) : (bytes: number) => new ArrayBuffer(bytes);
  return { luma: new Float32Array(buffer(4 * n), 0, n), rounded: new Uint8Array(buffer(n), 0, n) };
}

/** Rows [y0, y1) of both luma planes of an 8-bit image, written into `planes` (a band of `studioLumaPlanes`). */
export function studioLumaPlanesRows(image: PixelBuffer, planes: LumaPlanes, y0: number, y1: number): void {
  const { data, width, channels } = image;
  const { luma, rounded } = planes;
  const end = y1 * width;
  if (data instanceof Uint8Array) {
    const module = (y1 - y0) * width >= WASM_MIN_PIXELS ? wasmModule('luma') : undefined;
    if (module) return lumaWasm(module, 'planes', data, channels, y0 * width, (y1 - y0) * width, luma, y0 * width, rounded);
    if (channels >= 3) {
      for (let i = y0 * width, p = i * channels; i < end; i++, p += channels) {
        const y = 16 + (65.481 * data[p]! + 128.553 * data[p + 1]! + 24.966 * data[p + 2]!) * INV_255;
        luma[i] = y;
        rounded[i] = Math.floor(y + 0.5);
      }
    } else {
      for (let i = y0 * width, p = i * channels; i < end; i++, p += channels) {
        const y = 16 + 219 * data[p]! * INV_255;
        luma[i] = y;
        rounded[i] = Math.floor(y + 0.5);
      }
    }
    return;
  }
  if (channels >= 3) {
    for (let i = y0 * width, p = i * channels; i < end; i++, p += channels) {
      const y = 16 + (65.481 * data[p]! + 128.553 * data[p + 1]! + 24.966 * data[p + 2]!) / 255;
      luma[i] = y;
      rounded[i] = Math.floor(y + 0.5);
    }
  } else {
    for (let i = y0 * width, p = i * channels; i < end; i++, p += channels) {
      const y = 16 + (219 * data[p]!) / 255;
      luma[i] = y;
      rounded[i] = Math.floor(y + 0.5);
    }
  }
}
