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
import { expectIntegerInRange, expectPositiveInteger } from './validate.js';
import { PriorityTaskQueue, withPriority } from './internal/priorityTaskQueue.js';
import { decodeBandTops, decodeImageDefaults, recompressPlan, sequentialJpegFrame, SPLIT_DECODE_MIN_PIXELS } from './decodeImage.js';
import type { DecodeImageOptions, RecompressJpegOptions } from './decodeImage.js';
import { ForensicsError, ImageDecodeError, ImageTooLargeError, ImageTooSmallError, JpegCoefficientsError } from './errors.js';
import type { ImageAnalysis, KernelOutcome } from './analyzeImage.js';
import type { FusedLocalisation } from './fusion/fuseMaps.js';
import type { BandTask, CoefficientsOutcome, CoefficientsTask, CombineTask, DecodeOutcome, DecodeRowsTask, DecodeTask, LumaTask, MergeTask, RecompressTask, StandardiseTask, WorkerTask } from './worker.js';
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
   * worker refuses, such as `--expose-gc`), `stricterFIFO: true` and `taskQueue: new PriorityTaskQueue()` (else tasks
   * run first in first out); the caller owns it and closes it.
   * @default undefined
   */
  piscina?: Piscina;
  /**
   * Bytes of released shared memory (images, luma planes, coefficients, released result maps) the pool keeps for the
   * next images (`spareBytes`); 0 keeps none. The default holds every buffer of a released 12 MP analysis (about 280 MB)
   * and about 40% of a 49 MP one's.
   * @default 536870912 (512 MiB)
   */
  spareBytes?: number;
}

/** The compiled worker module (dist/worker.js), also when this file runs from src/ under a TypeScript loader. */
export function workerFilename(): string {
  const here = fileURLToPath(import.meta.url);
  const candidate = here.endsWith('.ts') ? fileURLToPath(new URL('../dist/worker.js', import.meta.url)) : fileURLToPath(new URL('./worker.js', import.meta.url));
  if (!existsSync(candidate)) throw new Error(`Expected the compiled worker at ${candidate}; build the package (tsc -b packages/forensics)`);
  return candidate;
}

/**
 * Bytes of released shared buffers a pool keeps for the next images by default: an image's decoded pixels, its JPEG
 * round trip, both luma planes, its JPEG coefficients and, from a caller that releases its results (`releaseResults`),
 * ELA's and the median residual's maps: about 280 MB at 12 MP, 1.1 GB at 49 MP (which a count of buffers let it keep).
 */
export const DEFAULT_SPARE_BYTES = 512 * 1024 * 1024;

/**
 * Encoded files from this many bytes go to the workers in shared memory (`sharedBytes`): one copy here instead of a
 * structured clone per task (serialised on this thread, deserialised into new memory on the worker's).
 */
const SHARED_BYTES_MIN = 64 * 1024;


/**
 * Task priorities of a pool's own queue (`PriorityTaskQueue`; a caller's Piscina runs them first in first out):
 * what other tasks wait for first, then the merges of split kernels (queued when their last band ends, they would
 * otherwise run after every band queued before them, at the end, one thread busy and the other idle), then the
 * kernels and their bands.
 */
const PRIORITY = { input: 3, merge: 2, kernel: 1 } as const;

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
  /** The most bytes `spare` may hold (`ForensicsPoolOptions.spareBytes`). */
  private readonly spareBudget: number;
  /**
   * Shared buffers this pool allocated for pixels it made (`decode`, `recompressJpeg`): `releaseImage` recycles them
   * as it does the shared copies of a caller's pixels.
   */
  private readonly madeHere = new WeakSet<ArrayBufferLike>();
  /**
   * Result maps whose shared memory this pool took from its spare list (`run`), by the view it returned: only these
   * go back to it (`releaseResults`), each once, so a buffer already lent to a newer result is never recycled twice.
   */
  private readonly lent = new WeakMap<object, SharedArrayBuffer>();
  /** Bytes of the last decoded image: the size of spare buffer offered to the next decode (images come in runs of one size). */
  private lastDecodeBytes = 0;

  constructor(options: ForensicsPoolOptions = {}) {
    const spareBytes = options.spareBytes ?? DEFAULT_SPARE_BYTES;
    expectIntegerInRange('spareBytes', spareBytes, 0, Number.MAX_SAFE_INTEGER);
    this.spareBudget = spareBytes;
    if (options.piscina) {
      this.piscina = options.piscina;
      this.owned = false;
    } else {
      const threads = options.threads ?? 2;
      expectPositiveInteger('threads', threads);
      // The queue runs tasks by priority (PRIORITY), in the order analyzeImage queues them within one (longest kernels
      // first). stricterFIFO: without it Piscina moves the head of the queue to its tail whenever no thread is free.
      this.piscina = new Piscina({
        filename: workerFilename(), execArgv: workerExecArgv(process.execArgv), minThreads: threads, maxThreads: threads, stricterFIFO: true,
        taskQueue: new PriorityTaskQueue(),
      });
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
    return this.spareBuffer(bytes) ?? new SharedArrayBuffer(bytes);
  }

  /**
   * The smallest spare buffer of at least `bytes` (and at most `most`) bytes, taken off the spare list; undefined when
   * none fits.
   */
  private spareBuffer(bytes: number, most = Infinity): SharedArrayBuffer | undefined {
    let best = -1;
    for (let i = 0; i < this.spare.length; i++) {
      const size = this.spare[i]!.byteLength;
      if (size >= bytes && size <= most && (best < 0 || size < this.spare[best]!.byteLength)) best = i;
    }
    return best >= 0 ? this.spare.splice(best, 1)[0]! : undefined;
  }

  /**
   * An encoded file's bytes for the workers: from SHARED_BYTES_MIN bytes, copied into shared memory (a spare buffer
   * of at most twice their size, so that a file never takes the buffer of an image's pixels, else a new one), which
   * every task reads without a copy of its own; pass `buffer` to `recycle` once no task reads them. Smaller files go
   * as they are (cloned per task).
   */
  private sharedBytes(bytes: Uint8Array): { bytes: Uint8Array; buffer?: SharedArrayBuffer } {
    if (bytes.length < SHARED_BYTES_MIN || bytes.buffer instanceof SharedArrayBuffer) return { bytes };
    const n = bytes.length;
    const buffer = this.spareBuffer(n, 2 * n) ?? new SharedArrayBuffer(n);
    const copy = new Uint8Array(buffer, 0, n);
    Buffer.from(bytes.buffer, bytes.byteOffset, n).copy(Buffer.from(buffer, 0, n));
    return { bytes: copy, buffer };
  }

  /** Bytes of released shared memory this pool holds for the next images (at most `ForensicsPoolOptions.spareBytes`). */
  get spareBytes(): number {
    return this.spare.reduce((n, b) => n + b.byteLength, 0);
  }

  /**
   * Declares that `image` will not be passed to this pool again and that no task on it is running: its shared copy
   * and luma planes are kept (within the `spareBytes` budget) for the next images instead of being left to the
   * garbage collector. `analyzeImage` calls it for the images it creates (decoded bytes, the ELA round trip).
   */
  async releaseImage(image: PixelBuffer): Promise<void> {
    const copy = this.shared.get(image), planes = this.lumas.get(image);
    this.shared.delete(image);
    this.lumas.delete(image);
    const buffers: ArrayBufferLike[] = [];
    if (copy && copy !== image) buffers.push(copy.data.buffer);
    if (this.madeHere.has(image.data.buffer)) buffers.push(image.data.buffer);
    const luma = planes ? await planes.catch(() => undefined) : undefined;
    if (luma) buffers.push(luma.luma.buffer, luma.rounded.buffer);
    this.recycle(buffers);
  }

  /**
   * Keeps shared buffers no task reads any more for the next images, within the byte budget: the largest first (a
   * buffer fits any image up to its size), then each smaller one that still fits; the rest are left to the garbage
   * collector.
   */
  private recycle(buffers: readonly ArrayBufferLike[]): void {
    let added = false;
    for (const b of buffers) {
      if (!(b instanceof SharedArrayBuffer) || this.spare.includes(b)) continue;
      this.spare.push(b);
      added = true;
    }
    if (!added) return;
    this.spare.sort((x, y) => y.byteLength - x.byteLength);
    let held = 0;
    for (let i = 0; i < this.spare.length;) {
      const bytes = this.spare[i]!.byteLength;
      if (held + bytes <= this.spareBudget) {
        held += bytes;
        i++;
      } else {
        this.spare.splice(i, 1);
      }
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
    const file = this.sharedBytes(bytes);
    let outcome: CoefficientsOutcome;
    try {
      const task: CoefficientsTask = { bytes: file.bytes, into };
      outcome = (await this.piscina.run(withPriority(task, PRIORITY.input), { name: 'jpegCoefficients' })) as CoefficientsOutcome;
    } catch (error) {
      if (into) this.recycle([into.buffer]);
      throw error;
    } finally {
      if (file.buffer) this.recycle([file.buffer]);
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
          return this.piscina.run(withPriority(task, PRIORITY.input), { name: 'lumaBand' });
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
    const split = await this.decodeInRows(bytes, options);
    if (split) return split;
    // Only the decode's own options cross (a caller may pass a wider object, such as analyzeImage's).
    // A released buffer of the last decoded image's size, for the pixels: a fresh one costs a page fault per 4 KiB
    // when the worker first writes it (about 30 ms at 12 MP), a reused one a plain copy.
    const into = this.lastDecodeBytes > 0 ? this.spareBuffer(this.lastDecodeBytes) : undefined;
    const file = this.sharedBytes(bytes);
    const task: DecodeTask = {
      bytes: file.bytes,
      options: { ...(options.maxPixels !== undefined ? { maxPixels: options.maxPixels } : {}), ...(options.minSide !== undefined ? { minSide: options.minSide } : {}) },
      into,
    };
    let outcome: DecodeOutcome;
    try {
      outcome = (await this.piscina.run(withPriority(task, PRIORITY.input), { name: 'decodeShared' })) as DecodeOutcome;
    } catch (error) {
      if (into) this.recycle([into]);
      throw error;
    } finally {
      if (file.buffer) this.recycle([file.buffer]);
    }
    if (outcome.state === 'completed') {
      const { image } = outcome;
      this.lastDecodeBytes = image.data.byteLength;
      // Shared memory comes back as another SharedArrayBuffer object over the same memory: the pixels get a view of
      // this thread's object, the one `releaseImage` and the spare list know.
      const data = outcome.intoUsed && into ? new Uint8Array(into, 0, image.data.length) : image.data as Uint8Array;
      if (into && !outcome.intoUsed) this.recycle([into]);
      this.madeHere.add(data.buffer);
      return { data, width: image.width, height: image.height, channels: image.channels };
    }
    if (into) this.recycle([into]);
    const kinds: Record<string, abstract new (...args: never[]) => ForensicsError> = { ImageDecodeError, ImageTooLargeError, ImageTooSmallError };
    const kind = kinds[outcome.name] ?? ForensicsError;
    // The worker's class, code and message (constructed through the base class: the message is already written).
    const error = Reflect.construct(ForensicsError, [outcome.code, outcome.message], kind) as ForensicsError;
    if (error instanceof ImageTooSmallError) Object.defineProperty(error, 'minimum', { value: options.minSide ?? decodeImageDefaults.minSide, enumerable: true });
    throw error;
  }

  /**
   * A large sequential JPEG decoded as one band of rows per thread at once, into one shared buffer: the same pixels
   * as `decodeImage` (`decodeRowsInto`), in about half the time on two threads (the decode is the one task of an
   * analysis nothing else can run beside). Undefined when the file is not such a JPEG, when its header is out of the
   * options' bounds, or when a band fails: `decode` then decodes it whole, which gives decodeImage's own errors.
   */
  private async decodeInRows(bytes: Uint8Array, options: DecodeImageOptions): Promise<PixelBuffer | undefined> {
    const threads = this.piscina.options.maxThreads;
    const frame = sequentialJpegFrame(bytes);
    const maxPixels = options.maxPixels ?? decodeImageDefaults.maxPixels, minSide = options.minSide ?? decodeImageDefaults.minSide;
    if (threads < 2 || !frame || frame.components !== 3) return undefined;
    const { width, height } = frame;
    if (width * height < SPLIT_DECODE_MIN_PIXELS || width * height > maxPixels || Math.min(width, height) < minSide) return undefined;
    const n = width * height * 3;
    const out = new Uint8Array(this.sharedBuffer(n), 0, n);
    // Both bands read the whole file: one shared copy instead of a clone per band.
    const file = this.sharedBytes(bytes);
    // The first band ends on an MCU row and is taller: the second also entropy-decodes the first's rows (without
    // their inverse DCT and colour conversion), which costs about a third of decoding them.
    const tops = decodeBandTops(height);
    const settled = await Promise.allSettled(tops.map((top, i) => {
      const rows = (tops[i + 1] ?? height) - top;
      const task: DecodeRowsTask = { bytes: file.bytes, maxPixels, top, rows, width, out };
      return this.piscina.run(withPriority(task, PRIORITY.input), { name: 'decodeRows' });
    }));
    if (file.buffer) this.recycle([file.buffer]);
    if (settled.some((s) => s.status === 'rejected')) {
      this.recycle([out.buffer]);
      return undefined;
    }
    this.lastDecodeBytes = n;
    this.madeHere.add(out.buffer);
    return { data: out, width, height, channels: 3 };
  }

  /**
   * `recompressJpeg` with its row bands in the workers, written into shared memory there: the same pixels as
   * `recompressJpeg` (the same bands and round trips), without the caller's thread copying any of them.
   */
  async recompressJpeg(image: PixelBuffer, options: RecompressJpegOptions = {}): Promise<PixelBuffer> {
    const plan = recompressPlan(image, options);
    const shared = this.sharedOf(image);
    const bytes = image.width * image.height * image.channels;
    // A released buffer when one fits (no fresh pages to fault in), recycled with the image by `releaseImage`.
    const out = new Uint8Array(this.sharedBuffer(bytes), 0, bytes);
    this.madeHere.add(out.buffer);
    await Promise.all(plan.bands.map((band) => {
      const task: RecompressTask = { image: shared, quality: plan.quality, band, out };
      return this.piscina.run(withPriority(task, PRIORITY.input), { name: 'recompressBand' });
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
      pooled[i] = { weight: inputs[i]!.weight, pooled: (await this.piscina.run(withPriority(task, PRIORITY.kernel), { name: 'standardise' })) as Float64Array };
    }));
    const task: CombineTask = { pooled, used, width, height };
    const transferList = pooled.map((p) => p.pooled.buffer).filter((b): b is ArrayBuffer => !(b instanceof SharedArrayBuffer));
    return (await this.piscina.run(withPriority(task, PRIORITY.merge), { name: 'fuseCombine', transferList })) as FusedLocalisation;
  }

  /**
   * Runs one kernel of the registry on `input` in a worker; a kernel with bands on an image of at least
   * BAND_MIN_PIXELS runs as one band of rows per thread, merged on this thread (same result). Kernels that read luma
   * get `input.luma` or the pool's shared planes of the image (`lumaOf`).
   */
  async run(id: KernelId, input: KernelInput, options?: Record<string, unknown>): Promise<KernelResult> {
    const entry = getKernel(id);
    // Maps the bands write into take released buffers when some fit (no fresh pages to fault in; issue 35).
    const allocated: SharedArrayBuffer[] = [];
    const allocate = (bytes: number): SharedArrayBuffer => {
      const buffer = this.sharedBuffer(bytes);
      allocated.push(buffer);
      return buffer;
    };
    const planned = entry.bands?.plan(input, options, this.piscina.options.maxThreads, allocate);
    const luma = entry.usesLuma ? (input.luma ?? await this.lumaOf(input.image)) : undefined;
    if (entry.bands && planned) {
      const image = this.sharedOf(input.image);
      const recompressed = input.recompressed ? this.sharedOf(input.recompressed) : undefined;
      // Every band settles before this returns or throws: no task may still read an image released after it.
      const settled = await Promise.allSettled(planned.rows.map((rows) => {
        const task: BandTask = { id, image, recompressed, luma, shared: planned.shared, rows };
        return this.piscina.run(withPriority(task, PRIORITY.kernel), { name: 'runBand' }) as Promise<BandPart>;
      }));
      const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
      if (failed) {
        this.recycle(allocated);
        throw failed.reason;
      }
      // The merge runs in a worker too (the same function, so the same result): the parts' own buffers move there.
      const parts = settled.map((s) => (s as PromiseFulfilledResult<BandPart>).value);
      const transferList = [...new Set(parts.flatMap((part) => Object.values(part).map((a) => a.buffer)))]
        .filter((b): b is ArrayBuffer => !(b instanceof SharedArrayBuffer));
      const merge: MergeTask = { id, image, recompressed, luma, shared: planned.shared, parts };
      let result: KernelResult;
      try {
        result = (await this.piscina.run(withPriority(merge, PRIORITY.merge), { name: 'mergeBands', transferList })) as KernelResult;
      } catch (error) {
        this.recycle(allocated);
        throw error;
      }
      return this.lendMaps(result, allocated);
    }
    const task: WorkerTask = {
      id,
      image: this.sharedOf(input.image),
      recompressed: input.recompressed ? this.sharedOf(input.recompressed) : undefined,
      luma,
      dct: input.dct ? this.sharedDct(input.dct) : undefined,
      options,
    };
    return (await this.piscina.run(withPriority(task, PRIORITY.kernel))) as KernelResult;
  }

  /**
   * `result` with its maps in `allocated` (the buffers its plan took) viewed through this thread's buffer objects, which
   * `releaseResults` recycles: shared memory comes back from a worker as another SharedArrayBuffer object over the
   * same memory. A map is matched to its buffer by size; buffers no map holds (or whose match is not unique) are
   * recycled (the merge has ended, no task reads them) or left to the garbage collector.
   */
  private lendMaps(result: KernelResult, allocated: readonly SharedArrayBuffer[]): KernelResult {
    if (allocated.length === 0) return result;
    const held = new Set<SharedArrayBuffer>();
    const maps = result.maps.map((map) => {
      const { data } = map;
      if (!(data.buffer instanceof SharedArrayBuffer) || !(data instanceof Float32Array)) return map;
      const candidates = allocated.filter((b) => b.byteLength === data.buffer.byteLength);
      if (candidates.length !== 1) {
        candidates.forEach((b) => held.add(b));
        return map;
      }
      const buffer = candidates[0]!;
      held.add(buffer);
      const view = new Float32Array(buffer, data.byteOffset, data.length);
      this.lent.set(view, buffer);
      return { ...map, data: view };
    });
    this.recycle(allocated.filter((b) => !held.has(b)));
    return { ...result, maps };
  }

  /**
   * Gives the shared memory of finished results' full-resolution maps (ELA's and the median residual's on images of at
   * least BAND_MIN_PIXELS, 48 MB each at 12 MP) back to this pool for the next analyses: a fresh buffer costs a page
   * fault per 4 KiB when the workers first write it (issue 35). Opt-in: the caller declares that neither it nor any
   * task of this pool (`fuseMaps` included) reads those maps any more. After it, their `data` is overwritten by later
   * analyses: do not read a released result. Maps this pool did not lend (other kernels', small images', a result of
   * another pool) are left alone; releasing the same result twice does nothing the second time.
   */
  releaseResults(results: ImageAnalysis | readonly KernelOutcome[] | KernelResult): void {
    const outcomes = Array.isArray(results) ? results as readonly KernelOutcome[] : 'kernels' in results ? (results as ImageAnalysis).kernels : undefined;
    const kernelResults = outcomes ? outcomes.flatMap((o) => (o.state === 'completed' ? [o.result] : [])) : [results as KernelResult];
    for (const result of kernelResults) {
      for (const map of result.maps) {
        const buffer = this.lent.get(map.data);
        if (!buffer) continue;
        this.lent.delete(map.data);
        this.recycle([buffer]);
      }
    }
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

