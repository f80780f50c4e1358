import { statSync } from 'node:fs';
import { EvidenceStore } from '@content-analysis/fact-check';
import { DocumentsSourceProvider, loadFolderDocuments, loadJsonlDocuments, SourceIndex } from '@content-analysis/plagiarism';
import type { SourceDocument } from '@content-analysis/plagiarism';
import type { EngineServicesOptions } from '@content-analysis/engine';

/** Documents `{url, title, text, ...}` from a folder (one file per document) or a JSONL file (one per line). */
export function loadDocuments(path: string): SourceDocument[] {
  return statSync(path).isDirectory() ? loadFolderDocuments(path) : loadJsonlDocuments(path);
}

/** The plagiarism sources and fact-check evidence named on the command line. */
export function servicesFrom(flags: { sources?: string | undefined; index?: string | undefined; evidence?: string | undefined }): EngineServicesOptions {
  const services: EngineServicesOptions = {};
  if (flags.sources !== undefined) services.plagiarismProviders = [new DocumentsSourceProvider(loadDocuments(flags.sources), 'sources')];
  if (flags.index !== undefined) services.plagiarismIndex = SourceIndex.open({ path: flags.index });
  if (flags.evidence !== undefined) {
    services.evidenceStore = new EvidenceStore(
      loadDocuments(flags.evidence).map((d) => ({ url: d.url, title: d.title ?? d.url, text: d.text })),
    );
  }
  return services;
}
