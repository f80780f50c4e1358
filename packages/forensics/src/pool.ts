import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { workerExecArgv } from '@content-analysis/wasm';
import { Piscina } from 'piscina';
import type { BandPart, KernelInput, KernelId } from './registry.js';
import { getKernel, splitRows } from './registry.js';
import { allocateLumaPlanes } from './internal/luma.js';
import type { LumaPlanes } from './internal/luma.js';
import type { DctPlane } from './jpeg/blockDct.js';
import type { KernelResult, PixelBuffer } from './types.js';
import { expectPositiveInteger } from './validate.js';
import { decodeImageDefaults, recompressPlan } from './decodeImage.js';
import type { DecodeImageOptions, RecompressJpegOptions } from './decodeImage.js';
import { ForensicsError, ImageDecodeError, ImageTooLargeError, ImageTooSmallError, JpegCoefficientsError } from './errors.js';
import type { KernelOutcome } from './analyzeImage.js';
import type { FusedLocalisation } from './fusion/fuseMaps.js';
import type { BandTask, CoefficientsOutcome, CoefficientsTask, CombineTask, DecodeOutcome, DecodeTask, LumaTask, MergeTask, RecompressTask, StandardiseTask, WorkerTask } from './worker.js';
import { fusionInputs } from './fusion/fuseMaps.js';
import { FUSION_MODEL } from './fusion/fusionModel.js';

export interface ForensicsPoolOptions {
  /**
   * Worker threads.
   * @default 2
   */
  threads?: number;
  /**
   * An existing Piscina whose filename is this package's dist/worker.js (`workerFilename()`), with
   * `execArgv: workerExecArgv(process.execArgv)` (this process's options less resolution conditions and less those a
   * worker refuses, such as `--expose-gc`); the caller owns it and closes it.
   * @default undefined
   */
  piscina?: Piscina;
}

/** The compiled worker module (dist/worker.js), also when this file runs from src/ under a TypeScript loader. */
export function workerFilename(): string {
  const here = fileURLToPath(import.meta.url);
  const candidate = here.endsWith('.ts') ? fileURLToPath(new URL('../dist/worker.js', import.meta.url)) : fileURLToPath(new URL('./worker.js', import.meta.url));
  if (!existsSync(candidate)) throw new Error(`Expected the compiled worker at ${candidate}; build the package (tsc -b packages/forensics)`);
  return candidate;
}

/** How many released shared buffers a pool keeps for the next images (about 130 MB at 12 MP). */
const MAX_SPARE_BUFFERS = 4;

/**
 * Runs kernels in Piscina worker threads. Pixels go to the workers in a SharedArrayBuffer (one copy for all
 * kernels of an image, none per task); result maps come back in transfer lists (moved, not copied).
 */
export class ForensicsPool {
  readonly piscina: Piscina;
  private readonly owned: boolean;
  private readonly shared = new WeakMap<PixelBuffer, PixelBuffer>();
  private readonly lumas = new WeakMap<PixelBuffer, Promise<LumaPlanes | undefined>>();
  private readonly dcts = new WeakMap<DctPlane, DctPlane>();
  /**
   * Shared buffers of released images (`releaseImage`), reused for the next ones: a fresh buffer costs a page fault
   * per 4 KiB on first touch, which on the benchmark machine made copying 12 MP pixels 30 to 40 ms instead of 4.
   */
  private readonly spare: SharedArrayBuffer[] = [];

  constructor(options: ForensicsPoolOptions = {}) {
    if (options.piscina) {
      this.piscina = options.piscina;
      this.owned = false;
    } else {
      const threads = options.threads ?? 2;
      expectPositiveInteger('threads', threads);
      // stricterFIFO: without it Piscina moves the head of the queue to its tail whenever no thread is free, so tasks
      // would not run in the order analyzeImage queues them (luma first, longest kernels next).
      this.piscina = new Piscina({ filename: workerFilename(), execArgv: workerExecArgv(process.execArgv), minThreads: threads, maxThreads: threads, stricterFIFO: true });
      this.owned = true;
    }
  }

  private sharedOf(image: PixelBuffer): PixelBuffer {
    let s = this.shared.get(image);
    if (!s) {
      s = this.share(image);
      this.shared.set(image, s);
    }
    return s;
  }

  /** Copies pixels into shared memory once, so every worker reads the same bytes without a copy per task. */
  private share(image: PixelBuffer): PixelBuffer {
    if (image.data.buffer instanceof SharedArrayBuffer) return image;
    const n = image.data.length;
    const data = image.data instanceof Uint8Array ? new Uint8Array(this.sharedBuffer(n), 0, n) : new Float32Array(this.sharedBuffer(4 * n), 0, n);
    data.set(image.data);
    return { data, width: image.width, height: image.height, channels: image.channels };
  }

  /** A shared buffer of at least `bytes` bytes: the smallest spare one that fits, else a new one. */
  private sharedBuffer(bytes: number): SharedArrayBuffer {
    let best = -1;
    for (let i = 0; i < this.spare.length; i++) {
      if (this.spare[i]!.byteLength >= bytes && (best < 0 || this.spare[i]!.byteLength < this.spare[best]!.byteLength)) best = i;
    }
    return best >= 0 ? this.spare.splice(best, 1)[0]! : new SharedArrayBuffer(bytes);
  }

  /**
   * Declares that `image` will not be passed to this pool again and that no task on it is running: its shared copy
   * and luma planes are kept (up to MAX_SPARE_BUFFERS buffers) for the next images instead of being left to the
   * garbage collector. `analyzeImage` calls it for the images it creates (decoded bytes, the ELA round trip).
   */
  async releaseImage(image: PixelBuffer): Promise<void> {
    const copy = this.shared.get(image), planes = this.lumas.get(image);
    this.shared.delete(image);
    this.lumas.delete(image);
    const buffers: ArrayBufferLike[] = [];
    if (copy && copy !== image) buffers.push(copy.data.buffer);
    const luma = planes ? await planes.catch(() => undefined) : undefined;
    if (luma) buffers.push(luma.luma.buffer, luma.rounded.buffer);
    this.recycle(buffers);
  }

  /** Keeps shared buffers no task reads any more for the next images (the largest MAX_SPARE_BUFFERS of them). */
  private recycle(buffers: readonly ArrayBufferLike[]): void {
    for (const b of buffers) {
      if (!(b instanceof SharedArrayBuffer) || this.spare.includes(b)) continue;
      this.spare.push(b);
      // Keep the largest: a buffer fits any image up to its size.
      if (this.spare.length > MAX_SPARE_BUFFERS) this.spare.sort((x, y) => y.byteLength - x.byteLength).pop();
    }
  }

  /**
   * `readJpegCoefficients` in a worker (issue 35: on the caller's thread it held the event loop for 0.2-0.3 s per
   * 12 MP JPEG, before any kernel started), the coefficients written into shared memory (a released buffer when one
   * fits `width` x `height`, the decoded size), so the kernels of this pool read them without a copy. The same plane;
   * errors are `JpegCoefficientsError`. Pass the plane to `releaseCoefficients` when no task reads it any more.
   */
  async jpegCoefficients(bytes: Uint8Array, width: number, height: number): Promise<DctPlane> {
    if (!(bytes instanceof Uint8Array)) throw new TypeError(`Expected Uint8Array for bytes but received ${String(bytes)} of type ${typeof bytes}`);
    const size = Math.floor(width / 8) * Math.floor(height / 8) * 64;
    const into = size > 0 ? new Float32Array(this.sharedBuffer(4 * size), 0, size) : undefined;
    let outcome: CoefficientsOutcome;
    try {
      const task: CoefficientsTask = { bytes, into };
      outcome = (await this.piscina.run(task, { name: 'jpegCoefficients' })) as CoefficientsOutcome;
    } catch (error) {
      if (into) this.recycle([into.buffer]);
      throw error;
    }
    if (outcome.state === 'completed') {
      const { plane } = outcome;
      // Shared memory comes back as another SharedArrayBuffer object over the same memory: the plane gets a view of
      // this thread's object, the one `releaseCoefficients` and the spare list know.
      if (into && plane.coefficients.buffer instanceof SharedArrayBuffer) return { ...plane, coefficients: new Float32Array(into.buffer, 0, plane.coefficients.length) };
      if (into) this.recycle([into.buffer]);
      return plane;
    }
    if (into) this.recycle([into.buffer]);
    throw new JpegCoefficientsError(outcome.message);
  }

  /** Declares that no task reads `plane` (from `jpegCoefficients`) any more: its shared memory serves the next images. */
  releaseCoefficients(plane: DctPlane): void {
    this.recycle([plane.coefficients.buffer]);
  }

  /**
   * The luma planes of `image` in shared memory, computed once per image by the threads, one band of rows each (8-bit
   * pixels; undefined otherwise): what the kernels that read luma get when the caller does not pass `input.luma`.
   */
  lumaOf(image: PixelBuffer): Promise<LumaPlanes | undefined> {
    let planes = this.lumas.get(image);
    if (!planes) {
      const shared = this.sharedOf(image), empty = allocateLumaPlanes(image, (bytes) => this.sharedBuffer(bytes));
      planes = empty
        ? Promise.all(splitRows(image.height, this.piscina.options.maxThreads).map((rows) => {
          const task: LumaTask = { image: shared, planes: empty, rows };
          return this.piscina.run(task, { name: 'lumaBand' });
        })).then(() => empty)
        : Promise.resolve(undefined);
      this.lumas.set(image, planes);
    }
    return planes;
  }

  /**
   * `decodeImage` in a worker: the same pixels, in shared memory (so the kernels and `recompressJpeg` of this pool
   * read them without a copy) and never touched by the caller's thread. Errors are decodeImage's own classes.
   */
  async decode(bytes: Uint8Array, options: DecodeImageOptions = {}): Promise<PixelBuffer> {
    if (!(bytes instanceof Uint8Array)) throw new TypeError(`Expected Uint8Array for bytes but received ${String(bytes)} of type ${typeof bytes}`);
    // Only the decode's own options cross (a caller may pass a wider object, such as analyzeImage's).
    const task: DecodeTask = {
      bytes,
      options: { ...(options.maxPixels !== undefined ? { maxPixels: options.maxPixels } : {}), ...(options.minSide !== undefined ? { minSide: options.minSide } : {}) },
    };
    const outcome = (await this.piscina.run(task, { name: 'decodeShared' })) as DecodeOutcome;
    if (outcome.state === 'completed') return outcome.image;
    const kinds: Record<string, abstract new (...args: never[]) => ForensicsError> = { ImageDecodeError, ImageTooLargeError, ImageTooSmallError };
    const kind = kinds[outcome.name] ?? ForensicsError;
    // The worker's class, code and message (constructed through the base class: the message is already written).
    const error = Reflect.construct(ForensicsError, [outcome.code, outcome.message], kind) as ForensicsError;
    if (error instanceof ImageTooSmallError) Object.defineProperty(error, 'minimum', { value: options.minSide ?? decodeImageDefaults.minSide, enumerable: true });
    throw error;
  }

  /**
   * `recompressJpeg` with its row bands in the workers, written into shared memory there: the same pixels as
   * `recompressJpeg` (the same bands and round trips), without the caller's thread copying any of them.
   */
  async recompressJpeg(image: PixelBuffer, options: RecompressJpegOptions = {}): Promise<PixelBuffer> {
    const plan = recompressPlan(image, options);
    const shared = this.sharedOf(image);
    const out = new Uint8Array(new SharedArrayBuffer(image.width * image.height * image.channels));
    await Promise.all(plan.bands.map((band) => {
      const task: RecompressTask = { image: shared, quality: plan.quality, band, out };
      return this.piscina.run(task, { name: 'recompressBand' });
    }));
    return { data: out, width: image.width, height: image.height, channels: image.channels };
  }

  /**
   * `fuseMaps` (default model) in the workers: each weighted map standardised and pooled by its own task (the two
   * full-resolution maps, ELA's and the median residual's, on both threads at once; issue 35), then combined by one
   * more. The same fused map, score and kernels used. Only the maps fuseMaps reads are copied to the workers (none
   * that are in shared memory).
   */
  async fuseMaps(kernels: readonly KernelOutcome[], width: number, height: number): Promise<FusedLocalisation> {
    const { inputs, used } = fusionInputs(kernels, FUSION_MODEL);
    // Largest maps first, so the threads finish close together; the results keep the model's order.
    const order = [...inputs.keys()].sort((a, b) => inputs[b]!.map.data.length - inputs[a]!.map.data.length);
    const pooled = new Array<{ weight: number; pooled: Float64Array }>(inputs.length);
    await Promise.all(order.map(async (i) => {
      const task: StandardiseTask = { map: inputs[i]!.map, width, height, radius: FUSION_MODEL.radius };
      pooled[i] = { weight: inputs[i]!.weight, pooled: (await this.piscina.run(task, { name: 'standardise' })) as Float64Array };
    }));
    const task: CombineTask = { pooled, used, width, height };
    const transferList = pooled.map((p) => p.pooled.buffer).filter((b): b is ArrayBuffer => !(b instanceof SharedArrayBuffer));
    return (await this.piscina.run(task, { name: 'fuseCombine', transferList })) as FusedLocalisation;
  }

  /**
   * Runs one kernel of the registry on `input` in a worker; a kernel with bands on an image of at least
   * BAND_MIN_PIXELS runs as one band of rows per thread, merged on this thread (same result). Kernels that read luma
   * get `input.luma` or the pool's shared planes of the image (`lumaOf`).
   */
  async run(id: KernelId, input: KernelInput, options?: Record<string, unknown>): Promise<KernelResult> {
    const entry = getKernel(id);
    const planned = entry.bands?.plan(input, options, this.piscina.options.maxThreads);
    const luma = entry.usesLuma ? (input.luma ?? await this.lumaOf(input.image)) : undefined;
    if (entry.bands && planned) {
      const image = this.sharedOf(input.image);
      const recompressed = input.recompressed ? this.sharedOf(input.recompressed) : undefined;
      // Every band settles before this returns or throws: no task may still read an image released after it.
      const settled = await Promise.allSettled(planned.rows.map((rows) => {
        const task: BandTask = { id, image, recompressed, luma, shared: planned.shared, rows };
        return this.piscina.run(task, { name: 'runBand' }) as Promise<BandPart>;
      }));
      const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
      if (failed) throw failed.reason;
      // The merge runs in a worker too (the same function, so the same result): the parts' own buffers move there.
      const parts = settled.map((s) => (s as PromiseFulfilledResult<BandPart>).value);
      const transferList = [...new Set(parts.flatMap((part) => Object.values(part).map((a) => a.buffer)))]
        .filter((b): b is ArrayBuffer => !(b instanceof SharedArrayBuffer));
      const merge: MergeTask = { id, image, recompressed, luma, shared: planned.shared, parts };
      return (await this.piscina.run(merge, { name: 'mergeBands', transferList })) as KernelResult;
    }
    const task: WorkerTask = {
      id,
      image: this.sharedOf(input.image),
      recompressed: input.recompressed ? this.sharedOf(input.recompressed) : undefined,
      luma,
      dct: input.dct ? this.sharedDct(input.dct) : undefined,
      options,
    };
    return (await this.piscina.run(task)) as KernelResult;
  }

  /** A JPEG's coefficients in shared memory, copied once for every kernel that reads them. */
  private sharedDct(plane: DctPlane): DctPlane {
    if (plane.coefficients.buffer instanceof SharedArrayBuffer) return plane;
    let copy = this.dcts.get(plane);
    if (!copy) {
      const coefficients = new Float32Array(new SharedArrayBuffer(plane.coefficients.byteLength));
      coefficients.set(plane.coefficients);
      copy = { ...plane, coefficients };
      this.dcts.set(plane, copy);
    }
    return copy;
  }

  /** Closes the worker threads if this pool created them; a caller-provided Piscina is left to its owner. */
  async close(): Promise<void> {
    if (this.owned) await this.piscina.close();
  }
}

