import { wasmModulesEnabled } from '@content-analysis/wasm';
import { afterEach, expect } from 'vitest';
import { wasmModule } from '../src/internal/wasm.js';
import type { PixelBuffer } from '../src/types.js';
import { rng } from './synthetic.js';

// What the wasm*.test.ts suites share to compare a WebAssembly path with the JavaScript path it replaces: switching the
// modules off and on around a call, and comparing float results by their bits (NaN, +0 and -0 included).

/**
 * Whether the whole run has the modules off (CONTENT_ANALYSIS_FORENSICS_WASM=0, or CONTENT_ANALYSIS_WASM=0 for every
 * package): there is then no WebAssembly path to compare, and the other suites test the JavaScript paths.
 */
export const MODULES_OFF = process.env.CONTENT_ANALYSIS_FORENSICS_WASM === '0' || !wasmModulesEnabled();

/** Sets CONTENT_ANALYSIS_FORENSICS_WASM to `value`, or removes it when undefined. */
function setModulesVariable(value: string | undefined): void {
  if (value === undefined) delete process.env.CONTENT_ANALYSIS_FORENSICS_WASM;
  else process.env.CONTENT_ANALYSIS_FORENSICS_WASM = value;
}

/** Puts CONTENT_ANALYSIS_FORENSICS_WASM back after each test of the calling file, as it was when that file started. */
export function restoreModulesAfterEach(): void {
  const saved = process.env.CONTENT_ANALYSIS_FORENSICS_WASM;
  afterEach(() => setModulesVariable(saved));
}

/** `run()` with the WebAssembly modules turned off (the JavaScript reference). */
export function withModulesOff<T>(run: () => T): T {
  const before = process.env.CONTENT_ANALYSIS_FORENSICS_WASM;
  process.env.CONTENT_ANALYSIS_FORENSICS_WASM = '0';
  try {
    return run();
  } finally {
    setModulesVariable(before);
  }
}

/** `run()` with the modules turned on, after checking that module `moduleName` loads here. */
export function withModulesOn<T>(moduleName: string, run: () => T): T {
  delete process.env.CONTENT_ANALYSIS_FORENSICS_WASM;
  expect(wasmModule(moduleName)).toBeDefined();
  return run();
}

/** `run()` on the WebAssembly path, checking by its counter `calls` that the module ran (`ran` false: did not). */
export function onWebAssembly<T>(moduleName: string, calls: () => number, run: () => T, ran = true): T {
  return withModulesOn(moduleName, () => {
    const before = calls();
    const result = run();
    if (ran) expect(calls()).toBeGreaterThan(before);
    else expect(calls()).toBeLessThanOrEqual(before);
    return result;
  });
}

/** The bit patterns of float32 values (a view of the same memory). */
export function float32Bits(a: Float32Array): Uint32Array {
  return new Uint32Array(a.buffer, a.byteOffset, a.length);
}

/** The bit patterns of float64 values as pairs of 32-bit words, low word first (a view of the same memory). */
export function float64Bits(a: Float64Array): Uint32Array {
  return new Uint32Array(a.buffer, a.byteOffset, 2 * a.length);
}

/** First index where two arrays differ (Object.is), the shorter length if the lengths differ, or -1 (fast on big arrays). */
export function firstDifference(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) return Math.min(a.length, b.length);
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) return i;
  return -1;
}

/** Random 8-bit pixels, each sample uniform in 0 .. levels - 1. */
export function randomImage(width: number, height: number, channels: number, seed: number, levels = 256): PixelBuffer {
  const random = rng(seed);
  return { data: Uint8Array.from({ length: width * height * channels }, () => Math.floor(random() * levels)), width, height, channels };
}
