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

/**
 * Why a CLI run of `featureId` has nothing to compare against (no plagiarism source, no fact-check evidence), or
 * undefined when it has something: such a run would answer a score of 0 or NOT_ENOUGH_EVIDENCE that reads as a result.
 */
export function missingCollection(featureId: string, services: EngineServicesOptions): string | undefined {
  if (featureId === 'plagiarism' || featureId === 'plagiarism-v1') {
    const documents = (services.plagiarismIndex?.size ?? 0) + (services.plagiarismProviders?.length ?? 0);
    if (documents === 0) {
      return services.plagiarismIndex === undefined ? 'plagiarism: nothing to compare against; give --sources <folder|jsonl> or --index <file>'
        : 'plagiarism: the index is empty and no --sources were given; `content-analysis index add <folder>` fills it';
    }
  }
  if (featureId === 'fact-checker' && (services.evidenceStore?.documentCount ?? 0) === 0) {
    return services.evidenceStore === undefined ? 'fact-check: no evidence to check against; give --evidence <folder|jsonl>'
      : 'fact-check: the --evidence holds no document';
  }
  return undefined;
}
