import { Piscina } from 'piscina';
import { decodeImage, decodeRowsInto, recompressBandInto } from './decodeImage.js';
import type { DecodeImageOptions, RecompressBand } from './decodeImage.js';
import { ForensicsError } from './errors.js';
import { combineFused, pooledStandardisedMap } from './fusion/fuseMaps.js';
import type { FusedLocalisation } from './fusion/fuseMaps.js';
import { getKernel } from './registry.js';
import type { BandPart, KernelId } from './registry.js';
import { FUSION_MODEL } from './fusion/fusionModel.js';
import { studioLumaPlanesRows } from './internal/luma.js';
import type { LumaPlanes } from './internal/luma.js';
import type { DctPlane } from './jpeg/blockDct.js';
import { readJpegCoefficients } from './jpeg/readJpegCoefficients.js';
import type { ForensicMap, KernelResult, PixelBuffer } from './types.js';

export interface WorkerTask {
  id: KernelId;
  image: PixelBuffer;
  recompressed: PixelBuffer | undefined;
  luma: LumaPlanes | undefined;
  dct?: DctPlane | undefined;
  options: Record<string, unknown> | undefined;
}

/** One band of a kernel that splits into bands (`KernelBands`): what `plan` computed and the block rows to do. */
export interface BandTask {
  id: KernelId;
  image: PixelBuffer;
  recompressed: PixelBuffer | undefined;
  luma: LumaPlanes | undefined;
  shared: unknown;
  rows: [number, number];
}

/** Piscina task handler: runs one registry kernel and moves its map buffers back to the caller. */
export default function runKernelTask(task: WorkerTask): unknown {
  const result: KernelResult = getKernel(task.id).run({ image: task.image, recompressed: task.recompressed, luma: task.luma, ...(task.dct ? { dct: task.dct } : {}) }, task.options);
  const buffers = result.maps.map((m) => m.data.buffer).filter((b): b is ArrayBuffer => !(b instanceof SharedArrayBuffer));
  const transferable = {
    get [Piscina.transferableSymbol]() { return buffers; },
    get [Piscina.valueSymbol]() { return result; },
  };
  return Piscina.move(transferable as unknown as Parameters<typeof Piscina.move>[0]);
}

/** Piscina task handler `runBand`: one band of a banded kernel; its typed arrays are moved back. */
export function runBand(task: BandTask): unknown {
  const bands = getKernel(task.id).bands;
  if (!bands) throw new TypeError(`Expected a kernel with bands for id but received ${task.id} of type string`);
  const part = bands.runBand({ image: task.image, recompressed: task.recompressed, luma: task.luma }, task.shared, task.rows);
  // Rows written into shared maps are already in place; only a part's own buffers move.
  const buffers = Object.values(part).map((a) => a.buffer).filter((b): b is ArrayBuffer => !(b instanceof SharedArrayBuffer));
  const transferable = {
    get [Piscina.transferableSymbol]() { return buffers; },
    get [Piscina.valueSymbol]() { return part; },
  };
  return Piscina.move(transferable as unknown as Parameters<typeof Piscina.move>[0]);
}

/** Rows of an image's luma planes to compute into shared memory (`ForensicsPool.lumaOf`). */
export interface LumaTask {
  image: PixelBuffer;
  planes: LumaPlanes;
  rows: [number, number];
}

/** Piscina task handler `lumaBand`: writes rows of the luma planes into their shared buffers. */
export function lumaBand(task: LumaTask): void {
  studioLumaPlanesRows(task.image, task.planes, task.rows[0], task.rows[1]);
}

/** The parts of a banded kernel to join (`KernelBands.merge`), with what its bands read. */
export interface MergeTask {
  id: KernelId;
  image: PixelBuffer;
  recompressed: PixelBuffer | undefined;
  luma: LumaPlanes | undefined;
  shared: unknown;
  parts: BandPart[];
}

/**
 * Piscina task handler `mergeBands`: joins a banded kernel's parts and finishes it (a 5x5 median over the whole
 * feature map, quantiles, mixture fits), its map buffers moved back. Issue 26: on the caller's thread these took
 * the event loop for about 0.5-1 s per 49-Mpx advanced analysis.
 */
export function mergeBands(task: MergeTask): unknown {
  const bands = getKernel(task.id).bands;
  if (!bands) throw new TypeError(`Expected a kernel with bands for id but received ${task.id} of type string`);
  const result = bands.merge({ image: task.image, recompressed: task.recompressed, luma: task.luma }, task.shared, task.parts);
  const buffers = [...new Set(result.maps.map((m) => m.data.buffer))].filter((b): b is ArrayBuffer => !(b instanceof SharedArrayBuffer));
  const transferable = {
    get [Piscina.transferableSymbol]() { return buffers; },
    get [Piscina.valueSymbol]() { return result; },
  };
  return Piscina.move(transferable as unknown as Parameters<typeof Piscina.move>[0]);
}

export interface DecodeTask {
  bytes: Uint8Array;
  options: DecodeImageOptions;
  /** Shared memory to write the pixels into when they fit (a pool's released buffer), else a new buffer is made. */
  into?: SharedArrayBuffer | undefined;
}

/**
 * Piscina task handler `decodeShared`: `decodeImage` in this thread, its pixels copied into shared memory here, so
 * that the caller gets them without a copy and its event loop never touches them (issue 26: the copies of a
 * 49-Mpx image into shared memory held it for 0.3-2 s).
 */
export async function decodeShared(task: DecodeTask): Promise<DecodeOutcome> {
  let image: PixelBuffer;
  try {
    image = await decodeImage(task.bytes, task.options);
  } catch (error) {
    // Classes and their `code` do not cross threads: the caller rebuilds the error from these.
    if (error instanceof ForensicsError) return { state: 'errored', name: error.name, code: error.code, message: error.message };
    throw error;
  }
  const n = image.data.length;
  const intoUsed = task.into !== undefined && task.into.byteLength >= n;
  const data = new Uint8Array(intoUsed ? task.into! : new SharedArrayBuffer(n), 0, n);
  Buffer.from(image.data.buffer, image.data.byteOffset, image.data.byteLength).copy(Buffer.from(data.buffer, 0, n));
  return { state: 'completed', image: { data, width: image.width, height: image.height, channels: image.channels }, intoUsed };
}

/** What `decodeShared` answers: the shared pixels (in `into` when `intoUsed`), or decodeImage's error as plain fields. */
export type DecodeOutcome =
  | { state: 'completed'; image: PixelBuffer; intoUsed: boolean }
  | { state: 'errored'; name: string; code: string; message: string };

/** Rows of a JPEG to decode into the whole image's shared pixels (`ForensicsPool.decode` of a large sequential JPEG). */
export interface DecodeRowsTask {
  bytes: Uint8Array;
  maxPixels: number;
  top: number;
  rows: number;
  width: number;
  out: Uint8Array;
}

/** Piscina task handler `decodeRows`: `decodeRowsInto` in this thread; any error rejects (the caller decodes whole). */
export function decodeRows(task: DecodeRowsTask): Promise<void> {
  return decodeRowsInto(task.bytes, task.maxPixels, task.top, task.rows, task.width, task.out);
}

export interface RecompressTask {
  image: PixelBuffer;
  quality: number;
  band: RecompressBand;
  out: Uint8Array;
}

/** Piscina task handler `recompressBand`: one band of `recompressJpeg`, written into the shared `out`. */
export function recompressBand(task: RecompressTask): Promise<void> {
  return recompressBandInto(task.image, task.quality, task.band, task.out);
}

export interface CoefficientsTask {
  bytes: Uint8Array;
  /** Shared memory to write the coefficients into (`readJpegCoefficients`'s `into`), when the caller has some. */
  into: Float32Array | undefined;
}

/** What `jpegCoefficients` answers: the plane (its coefficients in `into` when they fit), or the reader's error. */
export type CoefficientsOutcome =
  | { state: 'completed'; plane: DctPlane }
  | { state: 'errored'; name: string; code: string; message: string };

/**
 * Piscina task handler `jpegCoefficients`: `readJpegCoefficients` in this thread (issue 35: on the caller's thread it
 * held the event loop for 0.2-0.3 s per 12 MP JPEG before any kernel could start). Coefficients that did not fit in
 * `into` move back.
 */
export function jpegCoefficients(task: CoefficientsTask): unknown {
  let plane: DctPlane;
  try {
    plane = readJpegCoefficients(task.bytes, task.into ? { into: task.into } : {});
  } catch (error) {
    if (error instanceof ForensicsError) return { state: 'errored', name: error.name, code: error.code, message: error.message } satisfies CoefficientsOutcome;
    throw error;
  }
  const outcome: CoefficientsOutcome = { state: 'completed', plane };
  const buffers = [plane.coefficients.buffer].filter((b): b is ArrayBuffer => !(b instanceof SharedArrayBuffer));
  const transferable = {
    get [Piscina.transferableSymbol]() { return buffers; },
    get [Piscina.valueSymbol]() { return outcome; },
  };
  return Piscina.move(transferable as unknown as Parameters<typeof Piscina.move>[0]);
}

export interface StandardiseTask {
  map: ForensicMap;
  width: number;
  height: number;
  radius: number;
}

/** Piscina task handler `standardise`: one map's `pooledStandardisedMap` (a part of `fuseMaps`), moved back. */
export function standardise(task: StandardiseTask): unknown {
  const pooled = pooledStandardisedMap(task.map, task.width, task.height, task.radius);
  const buffers = [pooled.buffer].filter((b): b is ArrayBuffer => !(b instanceof SharedArrayBuffer));
  const transferable = {
    get [Piscina.transferableSymbol]() { return buffers; },
    get [Piscina.valueSymbol]() { return pooled; },
  };
  return Piscina.move(transferable as unknown as Parameters<typeof Piscina.move>[0]);
}

export interface CombineTask {
  pooled: Array<{ weight: number; pooled: Float64Array }>;
  used: KernelId[];
  width: number;
  height: number;
}

/** Piscina task handler `fuseCombine`: `combineFused` of the standardised maps (default model), its map moved back. */
export function fuseCombine(task: CombineTask): unknown {
  const result: FusedLocalisation = combineFused(task.pooled, task.used, task.width, task.height, FUSION_MODEL);
  const buffers = [result.map.data.buffer].filter((b): b is ArrayBuffer => !(b instanceof SharedArrayBuffer));
  const transferable = {
    get [Piscina.transferableSymbol]() { return buffers; },
    get [Piscina.valueSymbol]() { return result; },
  };
  return Piscina.move(transferable as unknown as Parameters<typeof Piscina.move>[0]);
}
