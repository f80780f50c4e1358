import { createRequire } from 'node:module';
import type Sharp from 'sharp';

let loaded: typeof Sharp | undefined;

/** `sharp(input, options)`, with sharp's native module loaded on the first call rather than when this package is imported. */
export function sharp(...args: Parameters<typeof Sharp>): ReturnType<typeof Sharp> {
  loaded ??= createRequire(import.meta.url)('sharp') as typeof Sharp;
  return loaded(...args);
}
