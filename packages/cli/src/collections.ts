import { statSync } from 'node:fs';
import { EvidenceStore } from '@content-analysis/fact-check';
import { DocumentCollectionError, DocumentsSourceProvider, loadFolderDocuments, loadJsonlDocuments, SourceIndex } from '@content-analysis/plagiarism';
import type { SourceDocument } from '@content-analysis/plagiarism';
import type { EngineServicesOptions } from '@content-analysis/engine';
import { CliError } from './errors.js';

/**
 * Documents `{url, title, text, ...}` from a folder (one file per document) or a JSONL file (one per line).
 * @throws {CliError} with one line naming the path: missing, not a regular file or folder (`/dev/zero`), a loop of
 * symbolic links, or beyond the loaders' limits.
 */
export function loadDocuments(path: string): SourceDocument[] {
  try {
    let stat;
    try {
      stat = statSync(path);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      throw new DocumentCollectionError(path, `${path}: ${code === 'ELOOP' ? 'a loop of symbolic links' : code === 'ENOENT' ? 'not found' : `not readable (${code ?? 'error'})`}`, { cause: error });
    }
    return stat.isDirectory() ? loadFolderDocuments(path) : loadJsonlDocuments(path);
  } catch (error) {
    if (error instanceof DocumentCollectionError) throw new CliError(`cannot read the documents: ${error.message}`, { cause: error });
    throw error;
  }
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
