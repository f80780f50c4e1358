import type { AiImageClassifier } from '@content-analysis/classifiers';
import { EvidenceStore } from '@content-analysis/fact-check';
import type { ForensicsPool } from '@content-analysis/forensics';
import type { WebSearchProvider as EvidenceSearchProvider } from '@content-analysis/fact-check';
import { SourceIndex } from '@content-analysis/plagiarism';
import type { SourceProvider } from '@content-analysis/plagiarism';
import { defaultImageClassifier } from './image/defaultImageClassifier.js';

/**
 * What features read besides the request: where plagiarism sources and fact-check evidence come from, the
 * forensic worker pool and the AI-image classifier. A deployment passes its own; the defaults are empty
 * collections in memory (a plagiarism check then finds no source and a claim no evidence, which the results say
 * honestly) and the bundled classifier.
 */
export interface EngineServices {
  /** Plagiarism sources: the index searched first, and further providers (a folder, a web search service). */
  plagiarism: { index: SourceIndex; providers: readonly SourceProvider[] };
  /** Fact-check evidence: the trusted documents, and an optional web search provider. */
  evidence: { store: EvidenceStore; searchProvider?: EvidenceSearchProvider };
  /** Worker threads for the forensic kernels of advanced image detection; without one they run on the caller's thread. */
  forensicsPool?: ForensicsPool;
  /**
   * The AI-image classifier of image detection and of advanced image detection's `classify_image` tool, created on
   * first call (its model sessions are loaded once).
   */
  imageClassifier(): AiImageClassifier;
}

export interface EngineServicesOptions {
  /** @default an empty in-memory index */
  plagiarismIndex?: SourceIndex;
  /** @default [] */
  plagiarismProviders?: readonly SourceProvider[];
  /** @default an empty evidence store */
  evidenceStore?: EvidenceStore;
  /** @default none */
  evidenceSearchProvider?: EvidenceSearchProvider;
  /** @default none: kernels run one after another on the calling thread */
  forensicsPool?: ForensicsPool;
  /** @default the process-wide `createAiImageClassifier()`, created on first use */
  imageClassifier?: AiImageClassifier;
}

/** Services with their defaults filled in, created lazily so an engine that never checks plagiarism pays nothing. */
export function lazyServices(options: EngineServicesOptions): () => EngineServices {
  let services: EngineServices | undefined;
  const injectedClassifier = options.imageClassifier;
  return () => {
    services ??= {
      plagiarism: { index: options.plagiarismIndex ?? SourceIndex.open(), providers: options.plagiarismProviders ?? [] },
      evidence: {
        store: options.evidenceStore ?? new EvidenceStore(),
        ...(options.evidenceSearchProvider ? { searchProvider: options.evidenceSearchProvider } : {}),
      },
      ...(options.forensicsPool ? { forensicsPool: options.forensicsPool } : {}),
      imageClassifier: injectedClassifier ? () => injectedClassifier : defaultImageClassifier,
    };
    return services;
  };
}
