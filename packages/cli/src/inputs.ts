import { readFile } from 'node:fs/promises';
import { fetchRemote } from '@content-analysis/engine';
import type { Readable } from 'node:stream';

/** Reads all of a stream as UTF-8 text. */
export async function readStream(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

export interface InputSources {
  stdin: Readable;
}

/**
 * The text behind a command-line input: `-` is standard input, an http(s) URL is fetched through the guarded
 * fetcher (plain text only), anything else is a file path.
 */
export async function readTextInput(source: string, sources: InputSources): Promise<string> {
  if (source === '-') return readStream(sources.stdin);
  if (/^https?:\/\//i.test(source)) {
    const fetched = await fetchRemote(source, { accept: ['text/plain'], maxBytes: 4 * 1024 * 1024 });
    return fetched.bytes.toString('utf8');
  }
  return readFile(source, 'utf8');
}
