import { classifyImage, detectAiText } from '@content-analysis/classifiers';
import type { AiImageClassification, AiTextResult, ClassifyImageOptions, DetectAiTextOptions } from '@content-analysis/classifiers';
import { DocumentError, extractDocument } from '@content-analysis/documents';
import type { ExtractedText, ExtractOptions } from '@content-analysis/documents';
import { checkFacts, gatherClaimEvidence } from '@content-analysis/fact-check';
import type { CheckFactsOptions, FactCheckResult } from '@content-analysis/fact-check';
import { countWords } from '@content-analysis/credits';
import { checkPlagiarism, findSourcesOf } from '@content-analysis/plagiarism';
import type { CheckPlagiarismOptions, PlagiarismV2Result } from '@content-analysis/plagiarism';
import { AnalysisTaskError } from '../errors.js';
import type { AnalysisPool } from './analysisPool.js';

/**
 * The CPU-heavy analyses of the features, run where the engine decided: on the calling thread, or in the worker
 * threads of an {@link AnalysisPool} (same inputs, same results). What only the calling thread has (the plagiarism
 * index and providers, the evidence store, the search provider) is read there; the rest runs in a worker: a fact
 * check goes to a worker twice (its claims, then its verdicts), the evidence gathered here in between.
 */
export interface AnalysisRunner {
  readonly where: 'pool' | 'thread';
  /** `signal`: the caller went away; a pooled analysis that has not started yet is dropped. */
  detectAiText(text: string, options: DetectAiTextOptions, signal?: AbortSignal): Promise<AiTextResult>;
  checkPlagiarism(text: string, options: CheckPlagiarismOptions, signal?: AbortSignal): Promise<PlagiarismV2Result>;
  /**
   * The bundled AI-image classifier (`classifyImage`) on one encoded image. Issue 26: its decode and artefact
   * features (about 0.1-0.2 s of JavaScript for a 350 KB PNG) held the event loop of `serve` during the credit race.
   */
  classifyImage(bytes: Uint8Array, options: ClassifyImageOptions, signal?: AbortSignal): Promise<AiImageClassification>;
  /**
   * The billed word count of `text` (`countWords` of the credits package). Issue 26: 9-15 ms of the calling thread
   * for a 119,000-character `1,1,1,...` token; a pool counts texts of {@link POOLED_WORD_COUNT_CHARS} characters or
   * more in a worker.
   */
  countWords(text: string, signal?: AbortSignal): Promise<number>;
  /** `options.signal` cancels the search provider's calls and drops a pooled judging that has not started yet. */
  checkFacts(text: string, options: CheckFactsOptions): Promise<FactCheckResult>;
  /**
   * The text of a fetched document (PDF, DOCX, DOC) within `options`' budgets; its failures are the
   * `DocumentError`s of `extractDocument` wherever it ran.
   */
  extractDocument(bytes: Uint8Array, options: ExtractOptions, signal?: AbortSignal): Promise<ExtractedText>;
}

/** Texts from this length on are counted in a worker by a pooled runner (shorter ones take under about 1 ms here). */
export const POOLED_WORD_COUNT_CHARS = 16_000;

/** Runs every analysis on the calling thread. */
export const inThreadRunner: AnalysisRunner = Object.freeze({
  where: 'thread' as const,
  detectAiText: (text: string, options: DetectAiTextOptions) => detectAiText(text, options),
  checkPlagiarism: (text: string, options: CheckPlagiarismOptions) => checkPlagiarism(text, options),
  countWords: async (text: string) => countWords(text),
  classifyImage: (bytes: Uint8Array, options: ClassifyImageOptions) => classifyImage(bytes, options),
  checkFacts: (text: string, options: CheckFactsOptions) => checkFacts(text, options),
  extractDocument: (bytes: Uint8Array, options: ExtractOptions) => extractDocument(bytes, options),
});

/** Runs the analyses in the threads of the pool `pool()` returns (called on the first analysis: the pool is lazy). */
export function pooledRunner(pool: () => AnalysisPool): AnalysisRunner {
  return {
    where: 'pool',
    detectAiText: (text, options, signal) => pool().run('aiText', { text, options }, signal),
    classifyImage: (bytes, options, signal) => pool().run('aiImage', { bytes, options }, signal),
    countWords: async (text, signal) => (text.length < POOLED_WORD_COUNT_CHARS ? countWords(text) : pool().run('wordCount', { text }, signal)),
    async checkPlagiarism(text, options, signal) {
      // A clock does not cross threads: the worker's reads the scan time.
      const { index, providers: _providers, now: _now, background: _background, ...plain } = options;
      // The text's validation, analysis and fingerprints run in a worker; the index and providers are read here.
      const schemes = index === undefined ? [] : [{ ...index.fingerprintOptions }];
      const query = await pool().run('plagiarismQuery', { text, options: plain, schemes }, signal);
      const found = await findSourcesOf(text, query, options);
      // The index's stem frequencies weigh words by rarity: they travel as a snapshot.
      const background = index?.stemFrequencies().snapshot();
      return pool().run('plagiarism', { text, found, options: plain, ...(background ? { background } : {}) }, signal);
    },
    async checkFacts(text, options) {
      // Claims and verdicts are computed in a worker, the evidence is gathered here (the store and the search provider).
      const { store, searchProvider, signal, ...plain } = options;
      const found = await pool().run('factClaims', { text, options: plain }, signal);
      const gathered = await gatherClaimEvidence(found, { store, ...(searchProvider ? { searchProvider } : {}), ...(signal ? { signal } : {}) });
      return pool().run('factCheck', { gathered, options: plain }, signal);
    },
    async extractDocument(bytes, options, signal) {
      // Issue 26: a hostile document's bounded extraction (a DOCX byte scan, a PDF's counting inflate, pdf.js) took
      // the event loop for up to 0.4 s on this thread; in a worker, /health and other requests go on meanwhile.
      try {
        return await pool().run('extractDocument', { bytes, options }, signal);
      } catch (error) {
        if (error instanceof AnalysisTaskError && error.name === 'DocumentError' && error.code !== undefined) {
          throw new DocumentError(error.code as DocumentError['code'], error.message);
        }
        throw error;
      }
    },
  };
}
