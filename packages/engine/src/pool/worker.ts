import { classifyImage, detectAiText } from '@content-analysis/classifiers';
import { countWords } from '@content-analysis/credits';
import type { AiImageClassification, AiTextResult, ClassifyImageOptions, DetectAiTextOptions } from '@content-analysis/classifiers';
import { extractDocument as extractDocumentText } from '@content-analysis/documents';
import type { ExtractedText, ExtractOptions } from '@content-analysis/documents';
import { findCheckableClaims, judgeClaims } from '@content-analysis/fact-check';
import type { CheckableClaims, FactCheckResult, FindClaimsOptions, GatheredClaims, JudgeClaimOptions } from '@content-analysis/fact-check';
import { checkPlagiarism, FoundSourcesProvider, prepareSourceQuery, StemFrequencies } from '@content-analysis/plagiarism';
import type {
  CheckPlagiarismOptions, FingerprintOptions, FoundSource, PlagiarismV2Result, PreparedSourceQuery, StemFrequenciesSnapshot,
} from '@content-analysis/plagiarism';

/** What crosses back from a worker: the value, or the error's name, message and stable code (classes do not cross). */
export type TaskOutcome<T> =
  | { state: 'completed'; value: T }
  | { state: 'errored'; error: { name: string; message: string; code: string | undefined; field: string | undefined } };

export interface AiTextTask {
  text: string;
  options: DetectAiTextOptions;
}

/** The plagiarism options that are plain data (no index, providers or clock). */
export type PlagiarismTaskOptions = Omit<CheckPlagiarismOptions, 'index' | 'providers' | 'now' | 'background'>;

export interface PlagiarismTask {
  text: string;
  found: FoundSource[];
  options: PlagiarismTaskOptions;
  /** The index's stem frequencies (rarity weighting), when the check has an index. */
  background?: StemFrequenciesSnapshot;
}

export interface PlagiarismQueryTask {
  text: string;
  options: PlagiarismTaskOptions;
  /** The fingerprint schemes the caller's index looks up (`SourceIndex.fingerprintOptions`). */
  schemes: FingerprintOptions[];
}

export interface FactClaimsTask {
  text: string;
  options: FindClaimsOptions;
}

export interface FactCheckTask {
  gathered: GatheredClaims;
  options: JudgeClaimOptions;
}

export interface AiImageTask {
  bytes: Uint8Array;
  options: ClassifyImageOptions;
}

export interface ExtractDocumentTask {
  bytes: Uint8Array;
  options: ExtractOptions;
}

/** The named task handlers of the analysis worker and what each returns. */
export interface AnalysisTasks {
  extractDocument: { task: ExtractDocumentTask; result: ExtractedText };
  aiText: { task: AiTextTask; result: AiTextResult };
  aiImage: { task: AiImageTask; result: AiImageClassification };
  wordCount: { task: { text: string }; result: number };
  plagiarismQuery: { task: PlagiarismQueryTask; result: PreparedSourceQuery };
  plagiarism: { task: PlagiarismTask; result: PlagiarismV2Result };
  factClaims: { task: FactClaimsTask; result: CheckableClaims };
  factCheck: { task: FactCheckTask; result: FactCheckResult };
}

async function settle<T>(work: () => Promise<T>): Promise<TaskOutcome<T>> {
  try {
    return { state: 'completed', value: await work() };
  } catch (error) {
    const e = error as { name?: unknown; message?: unknown; code?: unknown; field?: unknown } | null;
    return {
      state: 'errored',
      error: {
        name: typeof e?.name === 'string' ? e.name : 'Error',
        message: typeof e?.message === 'string' ? e.message : String(error),
        code: typeof e?.code === 'string' ? e.code : undefined,
        field: typeof e?.field === 'string' ? e.field : undefined,
      },
    };
  }
}

/** Piscina task handler `aiText`: the AI-text detector of this thread, its model loaded on the first task. */
export function aiText(task: AiTextTask): Promise<TaskOutcome<AiTextResult>> {
  return settle(() => detectAiText(task.text, task.options));
}

/**
 * Piscina task handler `aiImage`: the bundled AI-image classifier of this thread (its decode, its artefact features
 * in JavaScript and its probes; the models load on the first task), the same numbers as on the calling thread.
 */
export function aiImage(task: AiImageTask): Promise<TaskOutcome<AiImageClassification>> {
  return settle(() => classifyImage(task.bytes, task.options));
}

/** Piscina task handler `wordCount`: the billed word count of a long text (`countWords` of the credits package). */
export function wordCount(task: { text: string }): Promise<TaskOutcome<number>> {
  return settle(async () => countWords(task.text));
}

/**
 * Piscina task handler `plagiarismQuery`: the validation, analysis and fingerprints of a text that the caller's
 * thread looks its sources up with (issue 26: 0.1 s of the main thread for a 120,000-character text).
 */
export function plagiarismQuery(task: PlagiarismQueryTask): Promise<TaskOutcome<PreparedSourceQuery>> {
  return settle(async () => prepareSourceQuery(task.text, task.options, task.schemes));
}

/** Piscina task handler `plagiarism`: aligns the text with the sources found on the caller's thread. */
export function plagiarism(task: PlagiarismTask): Promise<TaskOutcome<PlagiarismV2Result>> {
  const background = task.background === undefined ? undefined : StemFrequencies.fromSnapshot(task.background);
  return settle(() => checkPlagiarism(task.text, { ...task.options, background, providers: [new FoundSourcesProvider(task.found)] }));
}

/** Piscina task handler `factClaims`: the check-worthy claims of a text (the word vectors load once per thread). */
export function factClaims(task: FactClaimsTask): Promise<TaskOutcome<CheckableClaims>> {
  return settle(() => findCheckableClaims(task.text, task.options));
}

/** Piscina task handler `factCheck`: judges the claims gathered on the caller's thread. */
export function factCheck(task: FactCheckTask): Promise<TaskOutcome<FactCheckResult>> {
  return settle(() => judgeClaims(task.gathered, task.options));
}

/** Piscina task handler `extractDocument`: the text of a fetched PDF, DOCX or DOC, within its budgets. */
export function extractDocument(task: ExtractDocumentTask): Promise<TaskOutcome<ExtractedText>> {
  return settle(() => extractDocumentText(task.bytes, task.options));
}
