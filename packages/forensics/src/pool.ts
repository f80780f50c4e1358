import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import type { BandPart, KernelInput, KernelId } from './registry.js';
import { getKernel, splitRows } from './registry.js';
import { allocateLumaPlanes } from './internal/luma.js';
import type { LumaPlanes } from './internal/luma.js';
import type { KernelResult, PixelBuffer } from './types.js';
import { expectPositiveInteger } from './validate.js';
import type { BandTask, LumaTask, WorkerTask } from './worker.js';

export interface ForensicsPoolOptions {
  /**
   * Worker threads.
   * @default 2
   */
  threads?: number;
  /**
   * An existing Piscina whose filename is this package's dist/worker.js; the caller owns it and closes it.
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

/** Copies pixels into shared memory once, so every worker reads the same bytes without a copy per task. */
function share(image: PixelBuffer): PixelBuffer {
  if (image.data.buffer instanceof SharedArrayBuffer) return image;
  const sab = new SharedArrayBuffer(image.data.byteLength);
  const data = image.data instanceof Uint8Array ? new Uint8Array(sab) : new Float32Array(sab);
  data.set(image.data);
  return { data, width: image.width, height: image.height, channels: image.channels };
}

/**
 * Runs kernels in Piscina worker threads. Pixels go to the workers in a SharedArrayBuffer (one copy for all
 * kernels of an image, none per task); result maps come back in transfer lists (moved, not copied).
 */
export class ForensicsPool {
  readonly piscina: Piscina;
  private readonly owned: boolean;
  private readonly shared = new WeakMap<PixelBuffer, PixelBuffer>();
  private readonly lumas = new WeakMap<PixelBuffer, Promise<LumaPlanes | undefined>>();

  constructor(options: ForensicsPoolOptions = {}) {
    if (options.piscina) {
      this.piscina = options.piscina;
      this.owned = false;
    } else {
      const threads = options.threads ?? 2;
      expectPositiveInteger('threads', threads);
      // stricterFIFO: without it Piscina moves the head of the queue to its tail whenever no thread is free, so tasks
      // would not run in the order analyzeImage queues them (luma first, longest kernels next).
      this.piscina = new Piscina({ filename: workerFilename(), minThreads: threads, maxThreads: threads, stricterFIFO: true });
      this.owned = true;
    }
  }

  private sharedOf(image: PixelBuffer): PixelBuffer {
    let s = this.shared.get(image);
    if (!s) {
      s = share(image);
      this.shared.set(image, s);
    }
    return s;
  }

  /**
   * The luma planes of `image` in shared memory, computed once per image by the threads, one band of rows each (8-bit
   * pixels; undefined otherwise): what the kernels that read luma get when the caller does not pass `input.luma`.
   */
  lumaOf(image: PixelBuffer): Promise<LumaPlanes | undefined> {
    let planes = this.lumas.get(image);
    if (!planes) {
      const shared = this.sharedOf(image), empty = allocateLumaPlanes(image, true);
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
      const parts = await Promise.all(planned.rows.map((rows) => {
        const task: BandTask = { id, image, recompressed, luma, shared: planned.shared, rows };
        return this.piscina.run(task, { name: 'runBand' }) as Promise<BandPart>;
      }));
      return entry.bands.merge(input, planned.shared, parts);
    }
    const task: WorkerTask = {
      id,
      image: this.sharedOf(input.image),
      recompressed: input.recompressed ? this.sharedOf(input.recompressed) : undefined,
      luma,
      options,
    };
    return (await this.piscina.run(task)) as KernelResult;
  }

  /** Closes the worker threads if this pool created them; a caller-provided Piscina is left to its owner. */
  async close(): Promise<void> {
    if (this.owned) await this.piscina.close();
  }
}
