import { readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import type { Stats } from 'node:fs';
import { basename, extname, join, relative, sep } from 'node:path';
import { DocumentCollectionError, InvalidDocumentError } from './errors.js';
import type { SourceDocument } from './types.js';

function optionalString(record: Record<string, unknown>, field: string, where: string): string | undefined {
  const value = record[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new InvalidDocumentError(field, 'a string', value, where);
  return value;
}

function dateOf(value: unknown, where: string): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'number' && Number.isFinite(value)) return Math.round(value);
  if (typeof value === 'string') {
    const ms = Date.parse(value);
    if (Number.isFinite(ms)) return ms;
  }
  throw new InvalidDocumentError('publishedDate', 'a number of milliseconds or a date string', value, where);
}

/** One document from a parsed JSON record: `url` and `text` required, the metadata optional. */
export function documentFromRecord(record: unknown, where: string): SourceDocument {
  if (record === null || typeof record !== 'object' || Array.isArray(record)) throw new InvalidDocumentError('text', 'an object', record, where);
  const r = record as Record<string, unknown>;
  if (typeof r['url'] !== 'string' || r['url'].length === 0) throw new InvalidDocumentError('url', 'a non-empty string', r['url'], where);
  if (typeof r['text'] !== 'string') throw new InvalidDocumentError('text', 'a string', r['text'], where);
  return {
    url: r['url'], text: r['text'], title: optionalString(r, 'title', where), author: optionalString(r, 'author', where),
    description: optionalString(r, 'description', where), publishedDate: dateOf(r['publishedDate'], where),
    language: optionalString(r, 'language', where),
  };
}

/** Limits of the document loaders: what a collection on disk may make the process read and hold. */
export interface LoadDocumentsOptions {
  /**
   * Largest file read, in bytes.
   * @default 268435456 (256 MiB)
   */
  maxFileBytes?: number;
  /**
   * Most bytes read from a folder in all.
   * @default 1073741824 (1 GiB)
   */
  maxTotalBytes?: number;
  /**
   * Most files a folder walk reads.
   * @default 100000
   */
  maxFiles?: number;
  /**
   * Deepest sub-folder a walk enters (symbolic links to folders followed, each real folder entered once).
   * @default 32
   */
  maxDepth?: number;
}

const LOAD_DEFAULTS = { maxFileBytes: 256 * 1024 * 1024, maxTotalBytes: 1024 * 1024 * 1024, maxFiles: 100_000, maxDepth: 32 } as const;

function statOf(path: string): Stats {
  try {
    return statSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ELOOP' ? 'a loop of symbolic links' : code === 'ENOENT' ? 'not found (or a broken symbolic link)' : `not readable (${code ?? 'error'})`;
    throw new DocumentCollectionError(path, `${path}: ${why}`, { cause: error });
  }
}

/** Reads a regular file of at most `maxFileBytes`; anything else (a device, a FIFO, a socket) is refused unread. */
function readRegularFile(path: string, stat: Stats, maxFileBytes: number): string {
  if (!stat.isFile()) throw new DocumentCollectionError(path, `${path}: not a regular file or folder`);
  if (stat.size > maxFileBytes) throw new DocumentCollectionError(path, `${path}: ${stat.size} bytes, above the limit of ${maxFileBytes}`);
  return readFileSync(path, 'utf8');
}

/** Documents of a JSONL file: one JSON object per line (`url`, `text`, optional metadata); blank lines skipped. */
export function loadJsonlDocuments(path: string, options: LoadDocumentsOptions = {}): SourceDocument[] {
  const maxFileBytes = options.maxFileBytes ?? LOAD_DEFAULTS.maxFileBytes;
  return parseJsonl(path, readRegularFile(path, statOf(path), maxFileBytes));
}

function parseJsonl(path: string, content: string): SourceDocument[] {
  const lines = content.split('\n');
  const documents: SourceDocument[] = [];
  lines.forEach((line, i) => {
    if (line.trim().length === 0) return;
    let record: unknown;
    try {
      record = JSON.parse(line);
    } catch {
      throw new InvalidDocumentError('text', 'a JSON object', line.slice(0, 40), `${basename(path)} line ${i + 1}`);
    }
    documents.push(documentFromRecord(record, `${basename(path)} line ${i + 1}`));
  });
  return documents;
}

/**
 * Documents of a folder: every `.txt` and `.md` file is one document whose url is its path relative to the folder
 * (`/`-separated, e.g. `essays/keeper.txt`: results name the source without revealing where the folder lives) and
 * whose title is the file name; `.jsonl` files are read as JSONL collections. Sub-folders are read too, symbolic
 * links followed, each real folder once (a link back to a parent is not a loop); only regular files are read
 * (devices, FIFOs and sockets are skipped), within `options`' limits.
 * @throws {DocumentCollectionError} a path that is not a folder, a link loop, a file or a walk beyond the limits.
 */
export function loadFolderDocuments(folder: string, options: LoadDocumentsOptions = {}): SourceDocument[] {
  const limits = { ...LOAD_DEFAULTS, ...options };
  if (!statOf(folder).isDirectory()) throw new DocumentCollectionError(folder, `${folder}: not a folder`);
  const documents: SourceDocument[] = [];
  const entered = new Set<string>();
  let files = 0;
  let bytes = 0;
  const read = (path: string, stat: Stats): string => {
    files += 1;
    bytes += stat.size;
    if (files > limits.maxFiles) throw new DocumentCollectionError(folder, `${folder}: more than ${limits.maxFiles} files`);
    if (bytes > limits.maxTotalBytes) throw new DocumentCollectionError(folder, `${folder}: more than ${limits.maxTotalBytes} bytes of files`);
    return readRegularFile(path, stat, limits.maxFileBytes);
  };
  const visit = (dir: string, depth: number): void => {
    const real = realpathSync(dir);
    if (entered.has(real)) return;
    entered.add(real);
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      const stat = statOf(path);
      if (stat.isDirectory()) {
        if (depth >= limits.maxDepth) throw new DocumentCollectionError(path, `${path}: deeper than ${limits.maxDepth} folders`);
        visit(path, depth + 1);
      } else if (!stat.isFile()) {
        continue;
      } else if (extname(name) === '.jsonl') {
        documents.push(...parseJsonl(path, read(path, stat)));
      } else if (extname(name) === '.txt' || extname(name) === '.md') {
        documents.push({ url: relative(folder, path).split(sep).join('/'), title: basename(name, extname(name)), text: read(path, stat), publishedDate: Math.round(stat.mtimeMs) });
      }
    }
  };
  visit(folder, 0);
  return documents;
}
