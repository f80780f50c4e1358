import type { PixelBuffer } from './types.js';

function describe(value: unknown): string {
  return `${String(value)} of type ${typeof value}`;
}

/** Throws `RangeError('Expected positive integer for <name> but received <v> of type <t>')`. */
export function expectPositiveInteger(name: string, value: unknown): asserts value is number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value <= 0) {
    throw new RangeError(`Expected positive integer for ${name} but received ${describe(value)}`);
  }
}

export function expectNumberInRange(name: string, value: unknown, min: number, max: number): asserts value is number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max) {
    throw new RangeError(`Expected number between ${min} and ${max} for ${name} but received ${describe(value)}`);
  }
}

export function expectIntegerInRange(name: string, value: unknown, min: number, max: number): asserts value is number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new RangeError(`Expected integer between ${min} and ${max} for ${name} but received ${describe(value)}`);
  }
}

/** Checks the shape of a pixel buffer: positive integer sizes, 1 to 4 channels, data length width*height*channels. */
export function expectPixelBuffer(name: string, image: PixelBuffer, minChannels = 1): void {
  if (image === null || typeof image !== 'object') throw new TypeError(`Expected pixel buffer for ${name} but received ${describe(image)}`);
  expectPositiveInteger(`${name}.width`, image.width);
  expectPositiveInteger(`${name}.height`, image.height);
  expectIntegerInRange(`${name}.channels`, image.channels, minChannels, 4);
  if (!(image.data instanceof Uint8Array) && !(image.data instanceof Float32Array)) {
    throw new TypeError(`Expected Uint8Array or Float32Array for ${name}.data but received ${describe(image.data)}`);
  }
  const expected = image.width * image.height * image.channels;
  if (image.data.length !== expected) {
    throw new RangeError(`Expected ${name}.data of length ${expected} (width*height*channels) but received ${image.data.length}`);
  }
}

/** Both buffers must have the same width, height and channel count. */
export function expectSameShape(a: PixelBuffer, b: PixelBuffer, nameA: string, nameB: string): void {
  if (a.width !== b.width || a.height !== b.height || a.channels !== b.channels) {
    throw new RangeError(`Expected ${nameB} to match ${nameA} (${a.width}x${a.height}x${a.channels}) but received ${b.width}x${b.height}x${b.channels}`);
  }
}

/** The image must have at least `min` pixels on each side. */
export function expectMinimumSize(name: string, image: PixelBuffer, min: number): void {
  if (image.width < min || image.height < min) {
    throw new RangeError(`Expected ${name} of at least ${min}x${min} pixels but received ${image.width}x${image.height}`);
  }
}
