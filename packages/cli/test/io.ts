import { PassThrough, Readable } from 'node:stream';
import type { CliIo } from '../src/index.js';

export interface CapturedIo extends CliIo {
  out(): string;
  err(): string;
}

/** In-memory standard streams for running the CLI in-process. */
export function captureIo(stdinText = '', env: NodeJS.ProcessEnv = {}): CapturedIo {
  const stdout = new PassThrough();
  const stderr = new PassThrough() as unknown as NodeJS.WriteStream;
  let out = '';
  let err = '';
  stdout.on('data', (chunk) => (out += chunk));
  (stderr as unknown as PassThrough).on('data', (chunk) => (err += chunk));
  return {
    stdin: Readable.from([Buffer.from(stdinText)]),
    stdout,
    stderr,
    env,
    out: () => out,
    err: () => err,
  };
}
