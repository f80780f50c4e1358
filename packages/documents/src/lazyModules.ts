import { createRequire } from 'node:module';
import type * as Linkedom from 'linkedom';
import type * as ReadabilityModule from '@mozilla/readability';
import type Mammoth from 'mammoth';

// The parsers of HTML, DOCX and DOC are required when a document of their kind is first read, so that importing
// this package (or the engine) does not load some 300 modules a team may never use.
const require = createRequire(import.meta.url);

function once<T>(load: () => T): () => T {
  let loaded: { value: T } | undefined;
  return () => (loaded ??= { value: load() }).value;
}

export const linkedom = once(() => require('linkedom') as typeof Linkedom);
export const readability = once(() => require('@mozilla/readability') as typeof ReadabilityModule);
export const mammoth: () => typeof Mammoth = once(() => require('mammoth') as typeof Mammoth);
