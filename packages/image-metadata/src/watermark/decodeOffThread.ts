import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { workerExecArgv } from '@content-analysis/wasm';
import type { InvisibleWatermarkResult } from './decodeInvisibleWatermark.js';
import type { WatermarkTask } from './watermarkWorker.js';

interface Pending {
  resolve: (result: InvisibleWatermarkResult) => void;
  reject: (error: Error) => void;
}

interface Slot {
  worker: Worker;
  pending: Map<number, Pending>;
}

// At most this many watermark decodings run at once, each on its own thread; more wait for a free one.
const THREADS = Math.max(1, Math.min(2, availableParallelism() - 1));
const slots: Slot[] = [];
let nextId = 0;

// From the TypeScript sources (tests), the built worker; from dist, the sibling file.
function workerFile(): string {
  const here = fileURLToPath(import.meta.url);
  return fileURLToPath(new URL(here.endsWith('.ts') ? '../../dist/watermark/watermarkWorker.js' : './watermarkWorker.js', import.meta.url));
}

function startSlot(): Slot {
  const slot: Slot = { worker: new Worker(workerFile(), { execArgv: workerExecArgv(process.execArgv) }), pending: new Map() };
  const fail = (error: Error) => {
    for (const pending of slot.pending.values()) pending.reject(error);
    slot.pending.clear();
    // 'error' is followed by 'exit': the slot leaves the list once.
    const at = slots.indexOf(slot);
    if (at >= 0) slots.splice(at, 1);
  };
  slot.worker.on('message', (message: { id: number; result?: InvisibleWatermarkResult; error?: string }) => {
    const pending = slot.pending.get(message.id);
    if (pending === undefined) return;
    slot.pending.delete(message.id);
    if (slot.pending.size === 0) slot.worker.unref();
    if (message.error !== undefined) pending.reject(new Error(message.error));
    else pending.resolve(message.result!);
  });
  slot.worker.on('error', fail);
  slot.worker.on('exit', (code) => fail(new Error(`The watermark decoding thread stopped (exit code ${code}).`)));
  slot.worker.unref();
  slots.push(slot);
  return slot;
}

/**
 * Decodes an encoded image (sharp, oriented, 8-bit sRGB without alpha) and its invisible watermark on a worker
 * thread, so that neither the decoded pixels nor the pass over them (49 million for 7000 x 7000) ever touch the
 * event loop: only the encoded bytes (at most a few MB) are copied to the thread. At most two run at once (the
 * least busy thread takes the next). Threads start on first use and do not keep the process alive when idle.
 */
export function decodeInvisibleWatermarkOffThread(bytes: Uint8Array, maxPixels: number): Promise<InvisibleWatermarkResult> {
  const slot = slots.length < THREADS ? startSlot() : slots.reduce((a, b) => (b.pending.size < a.pending.size ? b : a));
  const id = nextId++;
  return new Promise((resolve, reject) => {
    slot.pending.set(id, { resolve, reject });
    slot.worker.ref();
    const task: WatermarkTask = { id, bytes, maxPixels };
    slot.worker.postMessage(task);
  });
}

/** How many shared pixel buffers this thread sent to a watermark thread (tests check the path was taken). */
export let sharedPixelReads = 0;

/**
 * `decodeInvisibleWatermark` of pixels in shared memory (a SharedArrayBuffer, such as a forensics pool's decode) on a
 * watermark thread: the thread reads the caller's pixels in place (posting shared memory copies nothing), so a large
 * image is neither decoded a second time nor read on the event loop (issue 35: a 12 MP photo was decoded again for
 * the watermark alone, about 0.15 s of CPU).
 */
export function decodeSharedPixelsOffThread(pixels: { data: Uint8Array; width: number; height: number; channels: number }): Promise<InvisibleWatermarkResult> {
  if (!(pixels.data.buffer instanceof SharedArrayBuffer)) throw new TypeError('Expected pixels in a SharedArrayBuffer but received an ArrayBuffer');
  sharedPixelReads++;
  const slot = slots.length < THREADS ? startSlot() : slots.reduce((a, b) => (b.pending.size < a.pending.size ? b : a));
  const id = nextId++;
  return new Promise((resolve, reject) => {
    slot.pending.set(id, { resolve, reject });
    slot.worker.ref();
    const { data, width, height, channels } = pixels;
    const task: WatermarkTask = { id, pixels: { data, width, height, channels } };
    slot.worker.postMessage(task);
  });
}
