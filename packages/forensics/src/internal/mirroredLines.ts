import type { PixelBuffer } from '../types.js';

/**
 * Rows of one channel as Float64 lines padded by one sample each side with the mirrored neighbour (x = -1 reads
 * x = 1, x = width reads x = width - 2), kept in a ring of four rows per channel: a caller walking down the image and
 * asking for rows y-1, y and y+1 (or their mirrors) deinterleaves each row once. Sample x is at index x + 1.
 * Channel indices beyond the image's channels read its last channel.
 */
export class MirroredLines {
  private readonly ring: Float64Array[];
  private readonly loaded: Int32Array;

  constructor(private readonly image: PixelBuffer, channels = 3) {
    this.ring = Array.from({ length: channels * 4 }, () => new Float64Array(image.width + 2));
    this.loaded = new Int32Array(channels * 4).fill(-1);
  }

  row(channel: number, y: number): Float64Array {
    const slot = channel * 4 + (y & 3);
    const line = this.ring[slot]!;
    if (this.loaded[slot] !== y) {
      const { data, width, channels } = this.image;
      const c = Math.min(channel, channels - 1);
      for (let x = 0, p = y * width * channels + c; x < width; x++, p += channels) line[x + 1] = data[p]!;
      line[0] = line[2]!;
      line[width + 1] = line[width - 1]!;
      this.loaded[slot] = y;
    }
    return line;
  }
}
