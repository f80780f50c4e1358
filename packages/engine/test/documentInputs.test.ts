import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countWords } from '@content-analysis/credits';
import { EvidenceStore } from '@content-analysis/fact-check';
import { SourceIndex } from '@content-analysis/plagiarism';
import { meteredEngine, rejection, routeToLocal, startLocalServer } from './helpers.js';

const FIXTURES = join(import.meta.dirname, '..', '..', '..', 'fixtures', 'documents');
const fixture = (name: string) => readFileSync(join(FIXTURES, name));
const PDF_TEXT = fixture('two-column.txt').toString('utf8');
const NEWS_TEXT = fixture('news-article.txt').toString('utf8');

const routes: Record<string, { type: string; body: Buffer } | { redirect: string }> = {
  '/paper.pdf': { type: 'application/pdf', body: fixture('two-column.pdf') },
  '/report.docx': { type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', body: fixture('tables-footnotes.docx') },
  '/scan.pdf': { type: 'application/pdf', body: fixture('hostile/scanned.pdf') },
  '/news': { type: 'text/html; charset=utf-8', body: fixture('news-article.html') },
  '/to-metadata': { redirect: 'http://169.254.169.254/latest/meta-data/' },
};

let server: Awaited<ReturnType<typeof startLocalServer>>;
beforeAll(async () => {
  server = await startLocalServer((req, res) => {
    const route = routes[req.url ?? ''];
    if (!route) return void res.writeHead(404).end();
    if ('redirect' in route) return void res.writeHead(302, { location: route.redirect }).end();
    res.writeHead(200, { 'content-type': route.type }).end(route.body);
  });
});
afterAll(() => server.close());

function setup() {
  const index = SourceIndex.open();
  // The PDF's text is also a known source, so a plagiarism check of the PDF finds it.
  index.add({ url: 'https://journal.example.org/marshes', title: 'Tidal Marshes as Flood Buffers', text: PDF_TEXT });
  return meteredEngine({
    credits: 50_000,
    fetch: routeToLocal(() => server.port),
    services: { plagiarismIndex: index, evidenceStore: new EvidenceStore() },
  });
}

describe('file and website inputs', () => {
  it('plagiarism reads a PDF given as file (taking priority over text) and charges for its words', async () => {
    const { engine, token } = await setup();
    const { result } = await engine.execute('plagiarism', { file: 'http://files.example.com/paper.pdf', text: 'ignored' }, { token });
    expect((result.scanInformation as { inputType: string }).inputType).toBe('file');
    expect(result.credits_used).toBe(2 * countWords(PDF_TEXT));
    expect((result.result as { score: number }).score).toBeGreaterThan(90);
  });

  it('fact-checker reads the main content of a web page given as website', async () => {
    const { engine, token } = await setup();
    const { result } = await engine.execute('fact-checker', { website: 'http://news.example.com/news', file: 'http://files.example.com/paper.pdf' }, { token });
    expect(result.input).toBe('website');
    expect(result.wordCount).toBe(countWords(NEWS_TEXT));
    expect(result.creditsUsed).toBe(2 * countWords(NEWS_TEXT));
  });

  it('ai-content-detection reads a DOCX given as file', async () => {
    const { engine, token } = await setup();
    const { result } = await engine.execute('ai-content-detection', { file: 'http://files.example.com/report.docx' }, { token });
    expect(result.input).toBe('file');
    expect(result.credits_used).toBe(countWords(fixture('tables-footnotes.txt').toString('utf8')));
  });

  it('a scanned PDF is BAD_REQUEST saying it has no text; a redirect to a private address is FORBIDDEN; nothing is charged', async () => {
    const { engine, ledger, accountId, token } = await setup();
    const scanned = await rejection(engine.execute('plagiarism', { file: 'http://files.example.com/scan.pdf' }, { token }));
    expect(scanned.code).toBe('BAD_REQUEST');
    expect(scanned.description).toMatch(/no extractable text/);
    const redirected = await rejection(engine.execute('fact-checker', { website: 'http://news.example.com/to-metadata' }, { token }));
    expect(redirected.code).toBe('FORBIDDEN');
    const missing = await rejection(engine.execute('ai-content-detection', { file: 'http://files.example.com/nope.pdf' }, { token }));
    expect(missing.code).toBe('FORBIDDEN');
    expect(await ledger.balance(accountId)).toBe(50_000);
  });

  it('a document whose text is below the endpoint bound is BAD_REQUEST', async () => {
    const { engine, token } = await setup();
    // The bounds apply to the extracted text: a page with one short paragraph is under the 300-character minimum.
    routes['/tiny'] = { type: 'text/html', body: Buffer.from('<!doctype html><html><body><article><p>Too little text here.</p></article></body></html>') };
    const error = await rejection(engine.execute('fact-checker', { website: 'http://news.example.com/tiny' }, { token }));
    expect(error.code).toBe('BAD_REQUEST');
    expect(error.description).toMatch(/at least 300 are needed/);
  });
});
