import { readFile, stat } from 'node:fs/promises';
import { extname } from 'node:path';
import type { Readable } from 'node:stream';
import { extractDocument, resolveTextInput } from '@content-analysis/documents';
import { documentInputError } from '@content-analysis/engine';
import { CliError } from './errors.js';

/** Reads all of a stream as bytes. */
export async function readStreamBytes(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks);
}

/** Reads all of a stream as UTF-8 text. */
export async function readStream(stream: Readable): Promise<string> {
  return (await readStreamBytes(stream)).toString('utf8');
}

/**
 * Refuses a path that names a directory with a message saying so (reading one fails with a bare EISDIR that names
 * no path). A path that does not exist is left for the read to report.
 */
export async function assertNotDirectory(path: string): Promise<void> {
  const found = await stat(path).catch(() => undefined);
  if (found?.isDirectory()) throw new CliError(`${path} is a directory, not a file`);
}

export interface InputSources {
  stdin: Readable;
}

/** File name endings read as documents (their text is extracted) rather than as plain text. */
const DOCUMENT_EXTENSIONS = new Set(['.pdf', '.docx', '.doc', '.html', '.htm']);

/**
 * The text behind a command-line input: `-` is standard input; an http(s) URL is read through the guarded
 * fetcher as a document when its path ends in .pdf, .doc or .docx and as a web page (main content) otherwise;
 * a path ending in .pdf, .docx, .doc, .html or .htm is read as a document; any other path as UTF-8 text.
 */
export async function readTextInput(source: string, sources: InputSources): Promise<string> {
  if (source === '-') return readStream(sources.stdin);
  if (!/^https?:\/\//i.test(source)) await assertNotDirectory(source);
  try {
    if (/^https?:\/\//i.test(source)) {
      const isDocument = /\.(pdf|docx?)$/i.test(new URL(source).pathname);
      return (await resolveTextInput(isDocument ? { file: source } : { website: source })).text;
    }
    if (DOCUMENT_EXTENSIONS.has(extname(source).toLowerCase())) {
      return (await extractDocument(await readFile(source))).text;
    }
  } catch (error) {
    throw documentInputError(error);
  }
  return readFile(source, 'utf8');
}

/**
 * The request fields of a command-line image: an http(s) URL is sent as `url` (the engine fetches it through the
 * guarded fetcher); a file, or `-` for standard input, is read and sent as base64 in `field`.
 */
export async function readImageInput(source: string, field: string, sources: InputSources): Promise<Record<string, string>> {
  if (/^https?:\/\//i.test(source)) return { url: source };
  if (source !== '-') await assertNotDirectory(source);
  const bytes = source === '-' ? await readStreamBytes(sources.stdin) : await readFile(source);
  return { [field]: bytes.toString('base64') };
}
