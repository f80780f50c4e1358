import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { ModelLoadError } from '../errors.js';

/**
 * Reads a model file and checks it against the SHA-256 (hex) its card records: a file that cannot be read, or that
 * is not the one the model was trained with, is a `ModelLoadError` of `folder`.
 */
export async function readChecked(folder: string, path: string, sha256: string): Promise<Buffer> {
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (error) {
    throw new ModelLoadError(folder, `cannot read ${path}`, { cause: error });
  }
  if (createHash('sha256').update(bytes).digest('hex') !== sha256) {
    throw new ModelLoadError(folder, `${path} differs from the one the model was trained with (SHA-256)`);
  }
  return bytes;
}
