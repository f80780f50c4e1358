/**
 * What a queued job needs of the worker that runs it, besides its body: the collection a plagiarism check compares
 * against and the evidence a fact check reads. The API node names its own (a descriptor such as
 * `postgres://db.internal:5432/content schema public`); a worker whose descriptor differs refuses the job instead of
 * answering against another collection (a plagiarism score of 0, charged, would look like a clean text).
 */
export interface JobStores {
  /** The plagiarism sources: index and source documents. @default 'none' */
  sources?: string | undefined;
  /** The fact checker's evidence. @default 'none' */
  evidence?: string | undefined;
}

/** The stores each queued feature reads; the other features need nothing but their body. */
const STORES_OF_FEATURE: Readonly<Record<string, readonly (keyof JobStores)[]>> = Object.freeze({
  plagiarism: ['sources'],
  'plagiarism-v1': ['sources'],
  'fact-checker': ['evidence'],
});

const NONE = 'none';

/** The part of `stores` a job of `featureId` needs, or undefined when it needs none. */
export function jobNeeds(featureId: string, stores: JobStores | undefined): JobStores | undefined {
  const kinds = STORES_OF_FEATURE[featureId];
  if (kinds === undefined) return undefined;
  return Object.fromEntries(kinds.map((kind) => [kind, stores?.[kind] ?? NONE]));
}

/**
 * Why a worker with `has` may not run a job that needs `needs`, or undefined when it may. A job queued by an older
 * node carries no needs and runs as before.
 */
export function storeMismatch(needs: JobStores | undefined, has: JobStores | undefined): string | undefined {
  if (needs === undefined) return undefined;
  for (const kind of Object.keys(needs) as (keyof JobStores)[]) {
    const wanted = needs[kind] ?? NONE;
    const own = has?.[kind] ?? NONE;
    if (wanted !== own) {
      const what = kind === 'sources' ? 'plagiarism sources' : 'fact-check evidence';
      return `the API node's ${what} are ${wanted} but this worker's are ${own}`;
    }
  }
  return undefined;
}
