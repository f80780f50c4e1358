import { parentPort } from 'node:worker_threads';
import sharp from 'sharp';
import { decodeInvisibleWatermark } from './decodeInvisibleWatermark.js';

/**
 * A request of `decodeInvisibleWatermarkOffThread`: the encoded image, decoded here, or (`pixels`) the oriented 8-bit
 * RGB pixels a caller decoded already, in shared memory (read here, never copied).
 */
export type WatermarkTask =
  | { id: number; bytes: Uint8Array; maxPixels: number }
  | { id: number; pixels: { data: Uint8Array; width: number; height: number; channels: number } };

async function run(task: WatermarkTask) {
  if ('pixels' in task) return decodeInvisibleWatermark(task.pixels.data, task.pixels.width, task.pixels.height, task.pixels.channels);
  // cv2.imread applies the EXIF orientation and drops alpha; do the same before reading the chroma plane.
  const { data, info } = await sharp(task.bytes, { limitInputPixels: task.maxPixels })
    .autoOrient()
    .removeAlpha()
    .toColourspace('srgb')
    .raw({ depth: 'uchar' })
    .toBuffer({ resolveWithObject: true });
  return decodeInvisibleWatermark(data, info.width, info.height, info.channels);
}

parentPort?.on('message', (task: WatermarkTask) => {
  run(task).then(
    (result) => parentPort!.postMessage({ id: task.id, result }),
    (error: unknown) => parentPort!.postMessage({ id: task.id, error: error instanceof Error ? error.message : String(error) }),
  );
});
