import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, extname, join, relative, sep } from 'node:path';
import { InvalidDocumentError } from './errors.js';
import type { SourceDocument } from './types.js';

function optionalString(record: Record<string, unknown>, field: string, where: string): string | undefined {
  const value = record[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new InvalidDocumentError(field, 'a string', value, where);
  return value;
}

function dateOf(value: unknown, where: string): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'number' && Number.isFinite(value)) return value;
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

/** Documents of a JSONL file: one JSON object per line (`url`, `text`, optional metadata); blank lines skipped. */
export function loadJsonlDocuments(path: string): SourceDocument[] {
  const lines = readFileSync(path, 'utf8').split('\n');
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
 * whose title is the file name; `.jsonl` files are read as JSONL collections. Sub-folders are read too.
 */
export function loadFolderDocuments(folder: string): SourceDocument[] {
  const documents: SourceDocument[] = [];
  const visit = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) visit(path);
      else if (extname(name) === '.jsonl') documents.push(...loadJsonlDocuments(path));
      else if (extname(name) === '.txt' || extname(name) === '.md') {
        const stat = statSync(path);
        documents.push({ url: relative(folder, path).split(sep).join('/'), title: basename(name, extname(name)), text: readFileSync(path, 'utf8'), publishedDate: stat.mtimeMs });
      }
    }
  };
  visit(folder);
  return documents;
}
