import { decodeImage } from './decodeImage.js';
import type { DecodeImageOptions } from './decodeImage.js';
import { ForensicsError, JpegCoefficientsError } from './errors.js';
import { errorLevelRoundTrip } from './errorLevelRoundTrip.js';
import type { DctPlane } from './jpeg/blockDct.js';
import { readJpegCoefficients } from './jpeg/readJpegCoefficients.js';
import type { ForensicsPool } from './pool.js';
import { KERNEL_IDS, getKernel } from './registry.js';
import type { KernelId } from './registry.js';
import type { KernelResult, PixelBuffer } from './types.js';
import { studioLumaPlanes } from './internal/luma.js';
import type { LumaPlanes } from './internal/luma.js';
import { expectIntegerInRange } from './validate.js';

export interface AnalyzeImageOptions extends DecodeImageOptions {
  /**
   * Kernels to run, by registry id.
   * @default every id in KERNEL_IDS
   */
  kernels?: readonly KernelId[];
  /**
   * Options per kernel id, merged over that kernel's defaults.
   * @default {}
   */
  kernelOptions?: Partial<Record<KernelId, Record<string, unknown>>>;
  /**
   * JPEG quality of the ELA round trip.
   * @default 90
   */
  elaQuality?: number;
  /**
   * Worker pool to run the kernels in parallel; without one they run one after another on this thread.
   * @default undefined
   */
  pool?: ForensicsPool;
  /**
   * For JPEG bytes, read the file's own luma DCT coefficients and quantisation table (`readJpegCoefficients`) for
   * the JPEG-domain kernels that take them (`dq-aligned`, `jpeg-ghost`); a file it cannot read (arithmetic-coded,
   * 12-bit) falls back to the DCT of the pixels.
   * @default true
   */
  jpegCoefficients?: boolean;
  /**
   * The encoded file that decoded `input` pixels came from, so that `jpegCoefficients` can read a JPEG's own
   * coefficients when the caller decoded it already.
   * @default undefined
   */
  sourceBytes?: Uint8Array;
}

/** One kernel's outcome: a failing kernel reports its error and the others still come back. */
export type KernelOutcome =
  | { state: 'completed'; id: KernelId; version: string; ms: number; result: KernelResult }
  | { state: 'errored'; id: KernelId; version: string; error: { code: string; message: string } };

export interface ImageAnalysis {
  width: number;
  height: number;
  kernels: KernelOutcome[];
}

/**
 * Decodes an image (or takes decoded pixels), makes the JPEG round trip ELA needs, and runs the selected kernels,
 * in the pool when one is given. Bad input (undecodable, too small, too large) throws a ForensicsError; a kernel that
 * fails on valid input is reported as `errored`.
 */
export async function analyzeImage(input: Uint8Array | PixelBuffer, options: AnalyzeImageOptions = {}): Promise<ImageAnalysis> {
  const ids = options.kernels ?? KERNEL_IDS;
  for (const id of ids) getKernel(id);
  const quality = options.elaQuality ?? 90;
  expectIntegerInRange('elaQuality', quality, 1, 100);
  // In a pool, the decode and the round trip run in its workers, their pixels in shared memory (issue 26).
  const image = input instanceof Uint8Array ? await (options.pool ? options.pool.decode(input, options) : decodeImage(input, options)) : input;
  const source = input instanceof Uint8Array ? input : options.sourceBytes;
  // A JPEG's own coefficients, read in a worker when there is a pool (first in its queue), else here.
  const dct = source && options.jpegCoefficients !== false && ids.some((id) => DCT_KERNELS.includes(id)) && isJpeg(source)
    ? (options.pool ? poolCoefficients(options.pool, source, image) : Promise.resolve(fileCoefficients(source, image)))
    : undefined;
  dct?.catch(() => undefined);
  // The JPEG round trip runs in sharp's threads while the kernels that do not need it run. Without a pool, ELA takes
  // each band of it as it comes back (errorLevelRoundTrip: the same result, the round trip never joined into an image).
  const pending = ids.includes('ela') && options.pool ? options.pool.recompressJpeg(image, { quality }) : undefined;
  pending?.catch(() => undefined);
  const elaRoundTrip = ids.includes('ela') && !options.pool ? errorLevelRoundTrip(image, options.kernelOptions?.ela, { quality }, options.recycle ?? false) : undefined;
  elaRoundTrip?.catch(() => undefined);
  // The luma planes, computed once for every kernel that reads luma when the first of them starts: in a pool by the
  // threads (queued after the kernels that do not read luma), into shared memory.
  let luma: Promise<LumaPlanes | undefined> | undefined;
  const lumaPlanes = (): Promise<LumaPlanes | undefined> => {
    luma ??= options.pool ? options.pool.lumaOf(image) : Promise.resolve(studioLumaPlanes(image));
    return luma;
  };
  // In a pool the luma bands go first in the queue: a short task every kernel that reads luma waits for.
  if (options.pool && ids.some((id) => getKernel(id).usesLuma)) lumaPlanes().catch(() => undefined);
  const run = async (id: KernelId): Promise<KernelOutcome> => {
    const kernel = getKernel(id);
    const kernelOptions = options.kernelOptions?.[id];
    const recompressed = kernel.needsRecompressed && pending ? await pending : undefined;
    const plane = dct && DCT_KERNELS.includes(id) ? await dct : undefined;
    const started = performance.now();
    try {
      const input = { image, recompressed, luma: kernel.usesLuma ? await lumaPlanes() : undefined, ...(plane ? { dct: plane } : {}) };
      const result = options.pool ? await options.pool.run(id, input, kernelOptions) : id === 'ela' && elaRoundTrip ? await elaRoundTrip : kernel.run(input, kernelOptions);
      return { state: 'completed', id, version: kernel.version, ms: performance.now() - started, result };
    } catch (error) {
      const code = error instanceof ForensicsError ? error.code : error instanceof RangeError ? 'ERR_FORENSICS_INVALID_OPTION' : 'ERR_FORENSICS_KERNEL_FAILED';
      return { state: 'errored', id, version: kernel.version, error: { code, message: (error as Error).message } };
    }
  };
  // Longest kernels first, so a pool's threads finish close together; those waiting for the round trip last.
  const order = [...ids.keys()].sort((a, b) => dispatchRank(ids[a]!) - dispatchRank(ids[b]!));
  const outcomes = new Array<KernelOutcome>(ids.length);
  if (options.pool) {
    await Promise.all(order.map(async (i) => { outcomes[i] = await run(ids[i]!); }));
  } else {
    for (const i of order) outcomes[i] = await run(ids[i]!);
  }
  const recompressed = await pending;
  // The images made here (decoded bytes, the round trip) go to no other task: the pool may reuse their shared memory.
  if (options.pool) {
    await luma?.catch(() => undefined);
    if (input instanceof Uint8Array) await options.pool.releaseImage(image);
    if (recompressed) await options.pool.releaseImage(recompressed);
    const plane = await dct?.catch(() => undefined);
    if (plane) options.pool.releaseCoefficients(plane);
  }
  return { width: image.width, height: image.height, kernels: outcomes };
}

/** The kernels that read a JPEG file's own coefficients when given them. */
const DCT_KERNELS: readonly KernelId[] = ['dq-aligned', 'jpeg-ghost'];

/**
 * The luma coefficients of JPEG bytes, or undefined for other formats and for JPEGs the reader does not take
 * (those kernels then work from the pixels). The blocks must cover the decoded image's grid.
 */
function fileCoefficients(bytes: Uint8Array, image: PixelBuffer): DctPlane | undefined {
  try {
    return coversImage(readJpegCoefficients(bytes), image);
  } catch (error) {
    if (error instanceof JpegCoefficientsError) return undefined;
    throw error;
  }
}

/** `fileCoefficients` read by a worker of `pool` into shared memory; a plane that does not fit goes back to the pool. */
async function poolCoefficients(pool: ForensicsPool, bytes: Uint8Array, image: PixelBuffer): Promise<DctPlane | undefined> {
  try {
    const plane = await pool.jpegCoefficients(bytes, image.width, image.height);
    const fits = coversImage(plane, image);
    if (!fits) pool.releaseCoefficients(plane);
    return fits;
  } catch (error) {
    if (error instanceof JpegCoefficientsError) return undefined;
    throw error;
  }
}

const isJpeg = (bytes: Uint8Array): boolean => bytes[0] === 0xff && bytes[1] === 0xd8;
const coversImage = (plane: DctPlane, image: PixelBuffer): DctPlane | undefined =>
  plane.blocksX === Math.floor(image.width / 8) && plane.blocksY === Math.floor(image.height / 8) ? plane : undefined;

/**
 * Dispatch order by typical cost (benchmarks/forensics), most expensive first; ELA last as it waits for sharp. In a
 * pool the split kernels' merges run as soon as their bands end (a higher priority than any band), so the kernels
 * with long merges go first (cfa-variance: mixture fits over the whole feature map) and those whose merge is
 * shortest last (wavelet-noise): the last task of an analysis is then a short one. jpeg-grid, a single task as long as
 * any (benchmarks/forensics/jpeg.mjs), goes before them; dq-aligned and jpeg-ghost wait in a pool for the file's
 * coefficients, read by the first task queued.
 */
const DISPATCH_ORDER: readonly KernelId[] = [
  'dq-nonaligned', 'jpeg-grid', 'cfa-variance', 'cfa-reinterpolation', 'dq-aligned', 'jpeg-ghost', 'median-residual', 'spectral', 'edge-anomaly', 'wavelet-noise', 'ela',
];

function dispatchRank(id: KernelId): number {
  return DISPATCH_ORDER.indexOf(id);
}
