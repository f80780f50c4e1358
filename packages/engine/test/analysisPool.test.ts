import { afterAll, describe, expect, it, vi } from 'vitest';
import { EvidenceStore } from '@content-analysis/fact-check';
import { SourceIndex } from '@content-analysis/plagiarism';
import { AnalysisPool, analysisMode, ApiError, Engine, sharedAnalysisPool } from '../src/index.js';
import type { EngineOptions } from '../src/index.js';
import { readFileSync } from 'node:fs';
import { manyParagraphDocx } from '../../../scripts/fuzz/lib/index.mjs';
import { rejection, routeToLocal, startLocalServer } from './helpers.js';
import { FixedAiImageClassifierDouble, noisePng, realClassifierAvailable } from './images.js';

const ESSAY =
  'My grandmother kept bees behind the shed for almost forty years, and every August the whole house smelled of ' +
  'wax. She never wore gloves. When I asked her why, she said the bees knew her hands better than she did, which ' +
  'made no sense to me at nine and makes only a little more sense now. The honey was dark, almost bitter some ' +
  'years, and she sold it from a card table at the end of the lane with a coffee tin for the money. ' +
  'Artificial intelligence has transformed numerous industries, offering unprecedented opportunities for innovation ' +
  'and efficiency. Furthermore, it is important to note that these technologies present both challenges and benefits.';

const SOURCE =
  'The lighthouse keeper climbed the spiral stairs every evening at dusk to light the lamp. In winter storms the ' +
  'waves rose higher than the rocks, and salt spray coated the windows of the lantern room.';

const COPY =
  'Coastal life has always depended on small acts of care. The lighthouse keeper climbed the spiral stairs every ' +
  'evening at dusk to light the lamp. Nobody in the village thought of this as heroic; it was simply the job.';

const CLAIMS =
  'The Eiffel Tower was completed in 1889 for the World Fair in Paris. It is about 330 metres tall and was the ' +
  'tallest structure in the world until 1930. I think it is the most beautiful building in Europe. Millions of ' +
  'people visit the tower every year, and it has become a global symbol of France. Do you agree?';

function services(): EngineOptions['services'] {
  const plagiarismIndex = SourceIndex.open();
  plagiarismIndex.add({ url: 'https://history.example.org/lighthouse', title: 'The keeper', text: SOURCE });
  const evidenceStore = new EvidenceStore([{
    url: 'https://encyclopedia.example.org/eiffel-tower',
    title: 'Eiffel Tower',
    text: 'The Eiffel Tower was completed in 1889 as the entrance to the 1889 World Fair. The tower is 330 metres tall.',
  }]);
  return { plagiarismIndex, evidenceStore };
}

const pool = new AnalysisPool({ threads: 1 });
afterAll(() => pool.close());
const pooled = new Engine({ analysis: { pool }, services: services() });
const inThread = new Engine({ analysis: { mode: 'thread' }, services: services() });

/** The scan time is the clock of the thread that ran the check; everything else must match. */
function withoutScanTime(result: Record<string, unknown>): Record<string, unknown> {
  const scan = result.scanInformation as Record<string, unknown> | undefined;
  return scan ? { ...result, scanInformation: { ...scan, scanTime: 'masked' } } : result;
}

describe('analysis pool', () => {
  it('gives the in-thread AI-text result, sentences included', async () => {
    const body = { text: ESSAY, sentences: true };
    const [a, b] = await Promise.all([pooled.run('ai-content-detection', body), inThread.run('ai-content-detection', body)]);
    expect((a.result.sentences as unknown[]).length).toBeGreaterThan(1);
    expect(a).toEqual(b);
  });

  it('gives the in-thread plagiarism result (v2 and v1), the index read on the calling thread', async () => {
    const [a, b] = await Promise.all([pooled.run('plagiarism', { text: COPY }), inThread.run('plagiarism', { text: COPY })]);
    expect((a.result.sources as unknown[]).length).toBe(1);
    expect(withoutScanTime(a.result)).toEqual(withoutScanTime(b.result));
    const words = `${COPY} ${SOURCE}`;
    const [c, d] = await Promise.all([pooled.run('plagiarism-v1', { text: words }), inThread.run('plagiarism-v1', { text: words })]);
    expect(c).toEqual(d);
  });

  it('analyses the text for the source lookup in a worker, the index read here; the same refusals (issue 26)', async () => {
    const run = vi.spyOn(pool, 'run');
    try {
      const [a, b] = await Promise.all([pooled.run('plagiarism', { text: COPY }), inThread.run('plagiarism', { text: COPY })]);
      expect(withoutScanTime(a.result)).toEqual(withoutScanTime(b.result));
      expect(run.mock.calls.map(([task]) => task)).toEqual(['plagiarismQuery', 'plagiarism']);
      const [schemes] = run.mock.calls.map(([, task]) => (task as { schemes: unknown }).schemes);
      expect(schemes).toEqual([{ k: 3, window: 4 }]);
    } finally {
      run.mockRestore();
    }
    // A long text's billed word count is made in a worker too (issue 26: `1,1,1,...` of 119,000 characters).
    const long = { text: `${COPY} ${'1,'.repeat(10_000)}` };
    const counted = vi.spyOn(pool, 'run');
    try {
      const [e, f] = await Promise.all([pooled.run('plagiarism', long), inThread.run('plagiarism', long)]);
      expect(withoutScanTime(e.result)).toEqual(withoutScanTime(f.result));
      expect(e.result.credits_used).toBeGreaterThan(0);
      expect(counted.mock.calls.map(([task]) => task)).toEqual(['wordCount', 'plagiarismQuery', 'plagiarism']);
    } finally {
      counted.mockRestore();
    }
    const body = { text: COPY, language: 'xx' };
    const [c, d] = await Promise.all([rejection(pooled.run('plagiarism', body)), rejection(inThread.run('plagiarism', body))]);
    expect(c).toBeInstanceOf(ApiError);
    expect([(c as ApiError).code, (c as ApiError).message]).toEqual([(d as ApiError).code, (d as ApiError).message]);
  });

  it('weighs words by the index\'s collection in the worker as on the calling thread', async () => {
    // 60 documents about lighthouses: their common words are topic, not evidence of reuse (rarity weighting needs
    // 50+ documents in the index); the worker must get the index's stem frequencies to weigh them the same way.
    const collection = (): EngineOptions['services'] => {
      const plagiarismIndex = SourceIndex.open();
      plagiarismIndex.add({ url: 'https://history.example.org/lighthouse', title: 'The keeper', text: SOURCE });
      for (let i = 0; i < 60; i++) {
        plagiarismIndex.add({
          url: `https://coast.example.org/${i}`,
          title: `Notes ${i}`,
          text: `Report ${i}. The lighthouse keeper climbed the stairs at dusk and the lamp was lit over the rocks. ` +
            `Storm number ${i} brought waves and salt spray against the lantern room windows of the village.`,
        });
      }
      return { plagiarismIndex };
    };
    const withPool = new Engine({ analysis: { pool }, services: collection() });
    const alone = new Engine({ analysis: { mode: 'thread' }, services: collection() });
    const [a, b] = await Promise.all([withPool.run('plagiarism', { text: COPY }), alone.run('plagiarism', { text: COPY })]);
    expect(withoutScanTime(a.result)).toEqual(withoutScanTime(b.result));
  }, 60_000);

  it('gives the in-thread fact-check result, the evidence gathered on the calling thread', async () => {
    const [a, b] = await Promise.all([pooled.run('fact-checker', { text: CLAIMS, language: 'en' }), inThread.run('fact-checker', { text: CLAIMS, language: 'en' })]);
    expect((a.result.claims as Array<{ verdict: string }>).some((c) => c.verdict !== 'NOT_ENOUGH_EVIDENCE')).toBe(true);
    expect(a).toEqual(b);
  }, 60_000);

  it.skipIf(!realClassifierAvailable())('classifies an image in a worker with the in-thread numbers; an injected classifier stays here (issue 26)', async () => {
    // Issue 26's credit race: the bundled classifier's decode and artefact features held the event loop 0.1-0.2 s per image.
    const image = (await noisePng(320, 300)).toString('base64');
    const run = vi.spyOn(pool, 'run');
    try {
      for (const version of ['5', '3']) {
        const [a, b] = await Promise.all([pooled.run('image-detection', { image, version }), inThread.run('image-detection', { image, version })]);
        expect(a).toEqual(b);
        expect(a.result.version).toBe(version);
      }
      expect(run.mock.calls.filter(([name]) => name === 'aiImage')).toHaveLength(2);
      run.mockClear();
      const double = new FixedAiImageClassifierDouble(0.8);
      const injected = new Engine({ analysis: { pool }, services: { imageClassifier: double } });
      expect((await injected.run('image-detection', { image })).result.ai_probability).toBe(0.8);
      expect(double.calls).toHaveLength(1);
      expect(run.mock.calls.filter(([name]) => name === 'aiImage')).toHaveLength(0);
    } finally {
      run.mockRestore();
    }
  }, 60_000);

  it('maps a worker error about the input to the same BAD_REQUEST as the calling thread', async () => {
    const body = { text: ESSAY, language: 'xx' };
    const [a, b] = await Promise.all([rejection(pooled.run('ai-content-detection', body)), rejection(inThread.run('ai-content-detection', body))]);
    expect(a.code).toBe('BAD_REQUEST');
    expect(a.toBody()).toEqual(b.toBody());
  });

  it('extracts a fetched document in a worker: the same text as on the calling thread, the same BAD_REQUEST for a hostile one (issue 26)', async () => {
    const files = new Map<string, Buffer>([
      ['/report.docx', readFileSync(new URL('../../../fixtures/documents/tables-footnotes.docx', import.meta.url))],
      ['/paper.pdf', readFileSync(new URL('../../../fixtures/documents/two-column.pdf', import.meta.url))],
      // 200,000 paragraphs: 800,000 XML elements against the budget of 100,000.
      ['/manyparas.docx', manyParagraphDocx(200_000)],
    ]);
    const server = await startLocalServer((req, res) => {
      const body = files.get(req.url ?? '');
      if (!body) return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': req.url!.endsWith('.pdf') ? 'application/pdf' : 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' }).end(body);
    });
    const small = new AnalysisPool({ threads: 1, maxQueue: 1, retryAfter: 3 });
    try {
      const fetch = routeToLocal(() => server.port);
      const pooledFetch = new Engine({ analysis: { pool }, fetch });
      const inThreadFetch = new Engine({ analysis: { mode: 'thread' }, fetch });
      for (const file of ['http://docs.example.com/report.docx', 'http://docs.example.com/paper.pdf']) {
        const [a, b] = await Promise.all([pooledFetch.run('ai-content-detection', { file }), inThreadFetch.run('ai-content-detection', { file })]);
        expect(a.creditsUsed).toBeGreaterThan(50);
        expect(a).toEqual(b);
      }
      const hostile = { file: 'http://docs.example.com/manyparas.docx' };
      const [a, b] = await Promise.all([rejection(pooledFetch.run('ai-content-detection', hostile)), rejection(inThreadFetch.run('ai-content-detection', hostile))]);
      expect(a.code).toBe('BAD_REQUEST');
      expect(a.description).toMatch(/elements/);
      expect(a.toBody()).toEqual(b.toBody());
      // The extraction is a task of the pool: with its one thread busy and its one place taken, it is refused.
      const busy = new Engine({ analysis: { pool: small }, fetch });
      const text = ESSAY.repeat(200);
      const running = small.run('aiText', { text, options: { sentences: true } });
      const waiting = small.run('aiText', { text, options: { sentences: true } });
      const refused = await rejection(busy.run('ai-content-detection', { file: 'http://docs.example.com/report.docx' }));
      expect([refused.code, refused.retryAfter]).toEqual(['SERVICE_UNAVAILABLE', 3]);
      await Promise.all([running, waiting]);
    } finally {
      await small.close();
      await server.close();
    }
  });

  it('refuses a task with SERVICE_UNAVAILABLE and Retry-After when maxQueue tasks wait', async () => {
    const small = new AnalysisPool({ threads: 1, maxQueue: 1, retryAfter: 3 });
    try {
      const text = ESSAY.repeat(200);
      const running = small.run('aiText', { text, options: { sentences: true } });
      const waiting = small.run('aiText', { text, options: { sentences: true } });
      expect(small.queueSize).toBe(1);
      const refused = await small.run('aiText', { text, options: {} }).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(ApiError);
      expect((refused as ApiError).code).toBe('SERVICE_UNAVAILABLE');
      expect((refused as ApiError).retryAfter).toBe(3);
      await Promise.all([running, waiting]);
    } finally {
      await small.close();
    }
  });

  it('drops a waiting task whose caller went away, and runs the next one', async () => {
    const small = new AnalysisPool({ threads: 1, maxQueue: 2 });
    try {
      const text = ESSAY.repeat(200);
      const running = small.run('aiText', { text, options: {} });
      const gone = new AbortController();
      const dropped = small.run('aiText', { text, options: {} }, gone.signal).catch((e: unknown) => e);
      const next = small.run('aiText', { text: ESSAY, options: { sentences: false } });
      expect(small.queueSize).toBe(2);
      gone.abort();
      expect(small.queueSize).toBe(1);
      const error = (await dropped) as ApiError;
      expect(error).toBeInstanceOf(ApiError);
      expect(error.description).toBe('The request was cancelled before its analysis started.');
      expect((await next).sentences).toBeUndefined();
      await running;
      expect(small.queueSize).toBe(0);
    } finally {
      await small.close();
    }
  });

  it('checks its options with precise messages', () => {
    expect(() => new AnalysisPool({ threads: 0 })).toThrow('Expected positive integer for threads but received 0 of type number');
    expect(() => new AnalysisPool({ maxQueue: 1.5 })).toThrow('Expected positive integer for maxQueue but received 1.5 of type number');
    expect(() => new Engine({ analysis: { mode: 'elsewhere' as 'pool' } })).toThrow(/analysis.mode/);
  });

  it('shares one pool per size in a process and defaults to the pool unless CONTENT_ANALYSIS_POOL=0', () => {
    expect(sharedAnalysisPool({ threads: 2 })).toBe(sharedAnalysisPool({ threads: 2 }));
    expect(sharedAnalysisPool({ threads: 2 })).not.toBe(sharedAnalysisPool({ threads: 1 }));
    expect(analysisMode({}, {})).toBe('pool');
    expect(analysisMode({}, { CONTENT_ANALYSIS_POOL: '0' })).toBe('thread');
    expect(analysisMode({ mode: 'pool' }, { CONTENT_ANALYSIS_POOL: '0' })).toBe('pool');
    expect(inThread.analysis.where).toBe('thread');
    expect(pooled.analysis.where).toBe('pool');
  });
});
