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

/**
 * Rows of an 8-bit image as they are stored (channels interleaved), padded by one pixel each side with the mirrored
 * neighbour (pixel -1 is a copy of pixel 1, pixel `width` of pixel width - 2), in a ring of four: each row is one
 * memory copy, no deinterleaving. Channel c of pixel x is at (x + 1) * channels + c.
 */
export class MirroredPixelRows {
  private readonly ring: Uint8Array[];
  private readonly loaded = new Int32Array(4).fill(-1);

  constructor(private readonly image: PixelBuffer & { data: Uint8Array }) {
    this.ring = Array.from({ length: 4 }, () => new Uint8Array((image.width + 2) * image.channels));
  }

  row(y: number): Uint8Array {
    const line = this.ring[y & 3]!;
    if (this.loaded[y & 3] !== y) {
      const { data, width, channels } = this.image;
      line.set(data.subarray(y * width * channels, (y + 1) * width * channels), channels);
      line.copyWithin(0, 2 * channels, 3 * channels);
      line.copyWithin((width + 1) * channels, (width - 1) * channels, width * channels);
      this.loaded[y & 3] = y;
    }
    return line;
  }
}
