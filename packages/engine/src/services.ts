import { EvidenceStore } from '@content-analysis/fact-check';
import type { ForensicsPool } from '@content-analysis/forensics';
import type { WebSearchProvider as EvidenceSearchProvider } from '@content-analysis/fact-check';
import { SourceIndex } from '@content-analysis/plagiarism';
import type { SourceProvider } from '@content-analysis/plagiarism';

/**
 * What features read besides the request: where plagiarism sources and fact-check evidence come from. A
 * deployment passes its own; the defaults are empty collections in memory (a plagiarism check then finds no
 * source and a claim no evidence, which the results say honestly).
 */
export interface EngineServices {
  /** Plagiarism sources: the index searched first, and further providers (a folder, a web search service). */
  plagiarism: { index: SourceIndex; providers: readonly SourceProvider[] };
  /** Fact-check evidence: the trusted documents, and an optional web search provider. */
  evidence: { store: EvidenceStore; searchProvider?: EvidenceSearchProvider };
  /** Worker threads for the forensic kernels of advanced image detection; without one they run on the caller's thread. */
  forensicsPool?: ForensicsPool;
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
}

/** Services with their defaults filled in, created lazily so an engine that never checks plagiarism pays nothing. */
export function lazyServices(options: EngineServicesOptions): () => EngineServices {
  let services: EngineServices | undefined;
  return () => {
    services ??= {
      plagiarism: { index: options.plagiarismIndex ?? SourceIndex.open(), providers: options.plagiarismProviders ?? [] },
      evidence: {
        store: options.evidenceStore ?? new EvidenceStore(),
        ...(options.evidenceSearchProvider ? { searchProvider: options.evidenceSearchProvider } : {}),
      },
      ...(options.forensicsPool ? { forensicsPool: options.forensicsPool } : {}),
    };
    return services;
  };
}
