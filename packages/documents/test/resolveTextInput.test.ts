import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FetchError } from '@content-analysis/fetch';
import { DocumentError, inputErrorToApiCode, resolveTextInput } from '../src/index.js';
import { expectedText, fixture, normaliseWhitespace } from './helpers/fixtures.js';
import { routeTo, send, startLocalServer } from './helpers/localServer.js';
import type { LocalServer } from './helpers/localServer.js';

const PDF = 'application/pdf';
const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const HTML = 'text/html; charset=utf-8';
let server: LocalServer;
let htmlBytesSent = 0;

beforeAll(async () => {
  server = await startLocalServer({
    '/news': send(fixture('news-article.html'), { 'content-type': HTML }),
    '/paper.pdf': send(fixture('two-column.pdf'), { 'content-type': PDF }),
    '/report.pdf': send(fixture('running-headers.pdf'), { 'content-type': 'application/octet-stream' }),
    '/guide.docx': send(fixture('tables-footnotes.docx'), { 'content-type': DOCX }),
    '/legacy.doc': send(fixture('legacy.doc'), { 'content-type': 'application/msword' }),
    '/scan.pdf': send(fixture('hostile/scanned.pdf'), { 'content-type': PDF }),
    '/many.pdf': send(fixture('hostile/many-pages.pdf'), { 'content-type': PDF }),
    '/bomb.docx': send(fixture('hostile/zip-bomb-lying.docx'), { 'content-type': DOCX }),
    '/image.png': send(Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), { 'content-type': 'image/png' }),
    '/to-metadata': send('', { location: 'http://169.254.169.254/latest/meta-data/' }, 302),
    // 50 MB of HTML, streamed in 64 KiB chunks with no Content-Length, until the client hangs up.
    '/huge': (_request, response) => {
      response.writeHead(200, { 'content-type': HTML });
      response.write('<!DOCTYPE html><html><body>');
      const chunk = Buffer.from(`<p>${'filler text '.repeat(5460)}</p>`);
      const total = 50 * 1024 * 1024;
      const pump = () => {
        while (htmlBytesSent < total && !response.destroyed) {
          htmlBytesSent += chunk.length;
          if (!response.write(chunk)) return void response.once('drain', pump);
        }
        if (!response.destroyed) response.end('</body></html>');
      };
      pump();
    },
  });
});
afterAll(() => server.close());

const remote = () => ({ fetch: routeTo(server) });
const url = (path: string) => `http://docs.example.org${path}`;

async function failure(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a failure');
}

describe('resolveTextInput', () => {
  it('prefers website over file and text', async () => {
    const result = await resolveTextInput({ website: url('/news'), file: url('/paper.pdf'), text: 'ignored' }, remote());
    expect(result.input).toBe('website');
    expect(result.format).toBe('html');
    expect(result.url).toBe(url('/news'));
    expect(result.title).toBe('Council approves river path on old freight line');
    expect(normaliseWhitespace(result.text)).toBe(normaliseWhitespace(expectedText('news-article.txt')));
    expect(server.requests).not.toContain('/paper.pdf');
  });

  it('prefers file over text; the document kind comes from the bytes', async () => {
    for (const [path, name] of [['/paper.pdf', 'two-column.txt'], ['/report.pdf', 'running-headers.txt'],
      ['/guide.docx', 'tables-footnotes.txt'], ['/legacy.doc', 'legacy.txt']] as const) {
      const result = await resolveTextInput({ file: url(path), text: 'ignored' }, remote());
      expect(result.input).toBe('file');
      expect(normaliseWhitespace(result.text)).toBe(normaliseWhitespace(expectedText(name)));
    }
  });

  it('returns the text unchanged when it is the only input, with its paragraph spans', async () => {
    const text = '  First paragraph.\n\nSecond one,\nstill second.  ';
    const result = await resolveTextInput({ text, website: '', file: null }, remote());
    expect(result).toMatchObject({ input: 'text', format: 'text', text });
    expect(result.paragraphs.map(({ start, end }) => text.slice(start, end))).toEqual(['First paragraph.', 'Second one,\nstill second.']);
  });

  it('fails with NO_INPUT (BAD_REQUEST) when nothing is given', async () => {
    const error = await failure(resolveTextInput({}, remote()));
    expect(error).toBeInstanceOf(DocumentError);
    expect(error).toMatchObject({ code: 'NO_INPUT' });
    expect(inputErrorToApiCode(error)).toBe('BAD_REQUEST');
  });

  it('ends 50 MB of HTML at the 5 MiB page limit with TOO_LARGE (FORBIDDEN), reading little more', async () => {
    const error = await failure(resolveTextInput({ website: url('/huge') }, remote()));
    expect(error).toBeInstanceOf(FetchError);
    expect(error).toMatchObject({ code: 'TOO_LARGE' });
    expect(inputErrorToApiCode(error)).toBe('FORBIDDEN');
    expect(htmlBytesSent).toBeLessThan(50 * 1024 * 1024);
  });

  it('refuses a redirect to the cloud metadata address with FORBIDDEN_ADDRESS (FORBIDDEN)', async () => {
    const error = await failure(resolveTextInput({ website: url('/to-metadata') }, remote()));
    expect(error).toMatchObject({ code: 'FORBIDDEN_ADDRESS' });
    expect(inputErrorToApiCode(error)).toBe('FORBIDDEN');
  });

  it('refuses a private IP literal as an invalid URL (BAD_REQUEST)', async () => {
    const error = await failure(resolveTextInput({ file: 'http://10.0.0.7/doc.pdf' }, remote()));
    expect(error).toMatchObject({ code: 'INVALID_URL' });
    expect(inputErrorToApiCode(error)).toBe('BAD_REQUEST');
  });

  it('refuses a name resolving to a private address, and a missing page, with FORBIDDEN', async () => {
    const toPrivate = { fetch: { ...routeTo(server), resolve: async () => [{ address: '10.0.0.7', family: 4 as const }] } };
    const privateError = await failure(resolveTextInput({ file: url('/paper.pdf') }, toPrivate));
    expect(privateError).toMatchObject({ code: 'FORBIDDEN_ADDRESS' });
    expect((privateError as Error).message).not.toContain('10.0.0.7');
    const missing = await failure(resolveTextInput({ file: url('/nowhere.pdf') }, remote()));
    expect(missing).toMatchObject({ code: 'HTTP_STATUS', status: 404 });
    expect([privateError, missing].map(inputErrorToApiCode)).toEqual(['FORBIDDEN', 'FORBIDDEN']);
  });

  it('refuses an invalid URL with INVALID_URL (BAD_REQUEST)', async () => {
    const error = await failure(resolveTextInput({ website: 'ftp://example.org/page' }, remote()));
    expect(error).toMatchObject({ code: 'INVALID_URL' });
    expect(inputErrorToApiCode(error)).toBe('BAD_REQUEST');
  });

  it('maps document failures behind a URL to BAD_REQUEST', async () => {
    const cases = [['/scan.pdf', 'NO_TEXT'], ['/many.pdf', 'TOO_MANY_PAGES'], ['/bomb.docx', 'ARCHIVE_TOO_LARGE'],
      ['/image.png', 'UNSUPPORTED_TYPE']] as const;
    for (const [path, code] of cases) {
      const error = await failure(resolveTextInput({ file: url(path) }, remote()));
      expect(error).toMatchObject({ code });
      expect(inputErrorToApiCode(error)).toBe('BAD_REQUEST');
    }
  });

  it('applies the file size limit while downloading', async () => {
    const error = await failure(resolveTextInput({ file: url('/paper.pdf') }, { ...remote(), maxBytes: 1000 }));
    expect(error).toMatchObject({ code: 'TOO_LARGE' });
    expect(error).toBeInstanceOf(FetchError);
  });
});
