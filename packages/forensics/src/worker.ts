import { Piscina } from 'piscina';
import { getKernel } from './registry.js';
import type { KernelId } from './registry.js';
import type { KernelResult, PixelBuffer } from './types.js';

export interface WorkerTask {
  id: KernelId;
  image: PixelBuffer;
  recompressed: PixelBuffer | undefined;
  options: Record<string, unknown> | undefined;
}

/** Piscina task handler: runs one registry kernel and moves its map buffers back to the caller. */
export default function runKernelTask(task: WorkerTask): unknown {
  const result: KernelResult = getKernel(task.id).run({ image: task.image, recompressed: task.recompressed }, task.options);
  const buffers = result.maps.map((m) => m.data.buffer as ArrayBuffer);
  const transferable = {
    get [Piscina.transferableSymbol]() { return buffers; },
    get [Piscina.valueSymbol]() { return result; },
  };
  return Piscina.move(transferable as unknown as Parameters<typeof Piscina.move>[0]);
}
