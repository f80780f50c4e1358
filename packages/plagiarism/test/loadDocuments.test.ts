import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  checkPlagiarism, DocumentCollectionError, DocumentsSourceProvider, InvalidDocumentError, loadFolderDocuments, loadJsonlDocuments, searchQueries,
  WebSearchSourceProvider,
} from '../src/index.js';
import type { WebSearchProvider } from '../src/index.js';
import { BEES, expectExactOffsets, FILLER, PRESS, VOLCANO } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'plagiarism-docs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('document loaders on hostile paths (issue 26 item 10)', () => {
  it('refuses a device without reading it and a JSONL file above maxFileBytes', () => {
    expect(() => loadJsonlDocuments('/dev/zero')).toThrow(DocumentCollectionError);
    expect(() => loadJsonlDocuments('/dev/zero')).toThrow('/dev/zero: not a regular file or folder');
    const path = join(dir, 'big.jsonl');
    writeFileSync(path, `${JSON.stringify({ url: 'u', text: 'x'.repeat(2000) })}\n`);
    expect(() => loadJsonlDocuments(path, { maxFileBytes: 1000 })).toThrow(/bytes, above the limit of 1000/);
  });

  it('walks a folder whose links point back up once each, skips a FIFO, and names a self-looping link', () => {
    const folder = join(dir, 'hostile');
    mkdirSync(join(folder, 'a', 'b'), { recursive: true });
    writeFileSync(join(folder, 'a', 'b', 'doc.txt'), BEES);
    symlinkSync(folder, join(folder, 'a', 'b', 'top'));
    symlinkSync(join(folder, 'a'), join(folder, 'a', 'b', 'parent'));
    execFileSync('mkfifo', [join(folder, 'pipe.txt')]);
    expect(loadFolderDocuments(folder).map((d) => d.url)).toEqual(['a/b/doc.txt']);
    const looped = join(dir, 'looped');
    mkdirSync(looped);
    symlinkSync(join(looped, 'self.txt'), join(looped, 'self.txt'));
    expect(() => loadFolderDocuments(looped)).toThrow(`${join(looped, 'self.txt')}: a loop of symbolic links`);
  });

  it('stops a walk at maxDepth, maxFiles and maxTotalBytes', () => {
    const folder = join(dir, 'limits');
    mkdirSync(join(folder, 'x', 'y', 'z'), { recursive: true });
    for (const name of ['1.txt', '2.txt', '3.txt']) writeFileSync(join(folder, name), BEES);
    expect(() => loadFolderDocuments(folder, { maxDepth: 2 })).toThrow(/deeper than 2 folders/);
    expect(() => loadFolderDocuments(folder, { maxFiles: 2 })).toThrow(/more than 2 files/);
    expect(() => loadFolderDocuments(folder, { maxTotalBytes: 2 * BEES.length })).toThrow(/bytes of files/);
    expect(loadFolderDocuments(folder)).toHaveLength(3);
  });
});

describe('document loaders and providers', () => {
  it('reads JSONL with metadata and reports the bad line', () => {
    const path = join(dir, 'a.jsonl');
    writeFileSync(path, `${JSON.stringify({ url: 'https://x.example/1', text: PRESS, title: 'Press', publishedDate: '2021-05-01' })}\n\n`);
    expect(loadJsonlDocuments(path)).toEqual([expect.objectContaining({ url: 'https://x.example/1', title: 'Press', publishedDate: Date.parse('2021-05-01') })]);
    writeFileSync(join(dir, 'bad.jsonl'), '{"url": "u"}\n');
    expect(() => loadJsonlDocuments(join(dir, 'bad.jsonl'))).toThrow(InvalidDocumentError);
    expect(() => loadJsonlDocuments(join(dir, 'bad.jsonl'))).toThrow(/bad\.jsonl line 1\.text/);
  });

  it('reads a folder of text files into a provider the check can use', async () => {
    const folder = join(dir, 'folder');
    mkdirSync(join(folder, 'sub'), { recursive: true });
    writeFileSync(join(folder, 'volcano.txt'), VOLCANO);
    writeFileSync(join(folder, 'sub', 'bees.md'), BEES);
    utimesSync(join(folder, 'volcano.txt'), 1795775943.2931575, 1795775943.2931575);
    const documents = loadFolderDocuments(folder);
    expect(documents.map((d) => d.title).sort()).toEqual(['bees', 'volcano']);
    // A file time has a fraction of a millisecond; the date is whole milliseconds, what the indexes store.
    expect(documents.find((d) => d.title === 'volcano')?.publishedDate).toBe(1795775943293);
    expect(documents.every((d) => Number.isInteger(d.publishedDate))).toBe(true);
    const result = await checkPlagiarism(FILLER + BEES.slice(0, 200), { providers: [new DocumentsSourceProvider(documents, 'folder')] });
    expectExactOffsets(result);
    expect(result.sources[0]).toMatchObject({ title: 'bees', source: 'folder' });
  });

  it('names each file of a folder by its path relative to the folder, never by the absolute path', async () => {
    const folder = join(dir, 'named');
    mkdirSync(join(folder, 'sub'), { recursive: true });
    writeFileSync(join(folder, 'volcano.txt'), VOLCANO);
    writeFileSync(join(folder, 'sub', 'bees.md'), BEES);
    const documents = loadFolderDocuments(folder);
    expect(documents.map((d) => d.url)).toEqual(['sub/bees.md', 'volcano.txt']);
    const result = await checkPlagiarism(FILLER + BEES.slice(0, 200), { providers: [new DocumentsSourceProvider(documents, 'folder')] });
    expect(result.sources.map((s) => s.url)).toEqual(['sub/bees.md']);
    expect(JSON.stringify(result)).not.toContain(dir);
  });

  it('asks a web search provider with phrase queries and aligns the fetched pages', async () => {
    const queries: string[] = [];
    const web: WebSearchProvider = {
      async search(query) {
        queries.push(query);
        return [{ url: 'https://web.example/press', title: 'Press' }, { url: 'https://web.example/down', title: 'Down' }];
      },
      async fetchDocument(hit) {
        return hit.url.endsWith('press') ? { url: hit.url, title: hit.title, text: PRESS } : undefined;
      },
    };
    const text = FILLER + PRESS.slice(60, 260);
    const result = await checkPlagiarism(text, { providers: [new WebSearchSourceProvider(web, { queries: 2 })] });
    expectExactOffsets(result);
    expect(queries).toEqual(searchQueries(text, { queries: 2, resultsPerQuery: 5, queryWords: 12 }));
    expect(queries.every((q) => q.startsWith('"') && q.endsWith('"'))).toBe(true);
    expect(result.sources.map((s) => [s.url, s.source])).toEqual([['https://web.example/press', 'web']]);
  });
});
