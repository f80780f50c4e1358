import type { PixelBuffer } from '../src/index.js';

/** Deterministic uniform [0, 1) generator (mulberry32). */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Standard normal samples (Box-Muller). */
export function gaussian(random: () => number): () => number {
  return () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}

/** A smooth colour field: sums of random low-frequency sinusoids per channel, values ~ 40..215. */
export function smoothField(width: number, height: number, channels: number, seed: number): Float32Array {
  const random = rng(seed);
  const out = new Float32Array(width * height * channels);
  for (let c = 0; c < channels; c++) {
    const waves = Array.from({ length: 6 }, () => ({ fx: random() * 0.08, fy: random() * 0.08, phase: random() * 6.28, amp: 10 + random() * 15 }));
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        let v = 128;
        for (const w of waves) v += w.amp * Math.sin(w.fx * x + w.fy * y + w.phase);
        out[(y * width + x) * channels + c] = v;
      }
    }
  }
  return out;
}

/** Rounds and clips to 8-bit. */
export function toUint8(data: Float32Array, width: number, height: number, channels: number): PixelBuffer {
  return { data: Uint8Array.from(data, (v) => Math.max(0, Math.min(255, Math.round(v)))), width, height, channels };
}

/** Adds N(0, sigma^2) noise inside the rectangle (all of the image when none). */
export function addNoise(data: Float32Array, width: number, channels: number, sigma: number, seed: number, rect?: [number, number, number, number]): Float32Array {
  const out = Float32Array.from(data);
  const n = gaussian(rng(seed));
  const height = data.length / width / channels;
  const [x0, y0, x1, y1] = rect ?? [0, 0, width, height];
  for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) for (let c = 0; c < channels; c++) out[(y * width + x) * channels + c]! += sigma * n();
  return out;
}

/** RGGB mosaic of an RGB float image, demosaiced back bilinearly (what a simple camera pipeline does). */
export function mosaicDemosaic(rgb: Float32Array, width: number, height: number): Float32Array {
  const sampled = (x: number, y: number, c: number): boolean =>
    c === 1 ? ((x + y) & 1) === 1 : c === 0 ? (x & 1) === 0 && (y & 1) === 0 : (x & 1) === 1 && (y & 1) === 1;
  const out = new Float32Array(rgb.length);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      for (let c = 0; c < 3; c++) {
        if (sampled(x, y, c)) { out[(y * width + x) * 3 + c] = rgb[(y * width + x) * 3 + c]!; continue; }
        let s = 0, n = 0;
        for (let dy = -1; dy <= 1; dy++) {
          for (let dx = -1; dx <= 1; dx++) {
            const xx = x + dx, yy = y + dy;
            if ((dx === 0 && dy === 0) || xx < 0 || yy < 0 || xx >= width || yy >= height) continue;
            if (c === 1 && dx !== 0 && dy !== 0) continue;
            if (sampled(xx, yy, c)) { s += rgb[(yy * width + xx) * 3 + c]!; n++; }
          }
        }
        out[(y * width + x) * 3 + c] = s / n;
      }
    }
  }
  return out;
}

/** Mean of the map cells whose centre lies inside (inside = true) or outside the pixel rectangle. */
export function regionMean(map: { data: Float32Array; width: number; height: number; cellSize: number }, rect: [number, number, number, number], inside: boolean): number {
  let s = 0, n = 0;
  for (let y = 0; y < map.height; y++) {
    for (let x = 0; x < map.width; x++) {
      const cx = (x + 0.5) * map.cellSize, cy = (y + 0.5) * map.cellSize;
      const isIn = cx >= rect[0] && cx < rect[2] && cy >= rect[1] && cy < rect[3];
      const v = map.data[y * map.width + x]!;
      if (isIn === inside && Number.isFinite(v)) { s += v; n++; }
    }
  }
  return s / n;
}
