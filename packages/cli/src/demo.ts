import { readFile } from 'node:fs/promises';
import { basename, join, relative } from 'node:path';
import { aiImageModelFolder, Engine, likelyAiGenerated } from '@content-analysis/engine';

/** Human scores of AI text detection below this read as AI-written (the classifiers' `HUMAN_SCORE_THRESHOLD`). */
const AI_TEXT_SCORE_THRESHOLD = 50;

/** The inputs of `runDemo`: files on disk, each job run through the engine without an account. */
export interface DemoOptions {
  /** Texts for AI text detection, one job each. */
  aiTexts: readonly string[];
  /** Images (JPEG, PNG or WEBP) for AI image detection, one job each. */
  images: readonly string[];
  /** Pairs of texts to compare, one job each. */
  comparisons: ReadonlyArray<readonly [string, string]>;
  /**
   * Folder the printed paths are relative to.
   * @default process.cwd()
   */
  root?: string;
  /**
   * Engine to run the jobs on.
   * @default new Engine()
   */
  engine?: Engine;
}

/**
 * The jobs of `npm run demo`, on the fixtures of a checkout whose root is `root`: AI text detection on the two texts
 * of `fixtures/demo`, AI image detection on its drawing, and text compare of the two `fixtures/text-compare` texts.
 */
export function demoJobs(root: string): DemoOptions {
  const fixture = (...path: string[]) => join(root, 'fixtures', ...path);
  return {
    aiTexts: [fixture('demo', 'personal-note.txt'), fixture('demo', 'assistant-answer.txt')],
    images: [fixture('demo', 'evening-harbour.jpg')],
    comparisons: [[fixture('text-compare', 'original.txt'), fixture('text-compare', 'revised.txt')]],
    root,
  };
}

/** One job's outcome: a one-line summary, and the result it summarises. */
export interface DemoLine {
  job: 'ai-text' | 'image' | 'text-compare';
  line: string;
  result: Record<string, unknown>;
  /** Wall time of the job in milliseconds (the first job of a kind includes loading its model). */
  ms: number;
}

/**
 * Runs the engine's main jobs on local files, offline and unmetered (`Engine.run`), and summarises each result in
 * one readable line: AI text detection, AI image detection and text compare. `npm run demo` prints these lines.
 */
export async function runDemo(options: DemoOptions): Promise<DemoLine[]> {
  const engine = options.engine ?? new Engine();
  const root = options.root ?? process.cwd();
  const name = (path: string) => relative(root, path) || basename(path);
  const lines: DemoLine[] = [];
  const timed = async (job: DemoLine['job'], featureId: string, body: unknown, describe: (r: Record<string, unknown>) => string) => {
    const started = performance.now();
    const { result } = await engine.run(featureId, body);
    lines.push({ job, line: describe(result), result, ms: performance.now() - started });
  };

  for (const path of options.aiTexts) {
    const text = await readFile(path, 'utf8');
    await timed('ai-text', 'ai-content-detection', { text, sentences: false }, (r) => {
      const score = r.score as number;
      const verdict = score < AI_TEXT_SCORE_THRESHOLD ? 'likely AI-written' : 'likely human-written';
      return `AI text  ${name(path)}: human score ${score} / 100 -> ${verdict} ` +
        `(detector ${String(r.version)}, language ${String(r.language)}, ${String(r.confidence)} confidence)`;
    });
  }
  for (const path of options.images) {
    const image = (await readFile(path)).toString('base64');
    await timed('image', 'image-detection', { image }, (r) => {
      const score = r.score as number;
      const verdict = r.confidence === 'low' ? 'the pixels are not conclusive' : likelyAiGenerated(score) ? 'likely AI-generated' : 'likely human-made';
      const issuers = Object.keys(r.ai_watermark_issuers as Record<string, unknown>);
      const provenance = issuers.length === 0 ? 'no AI watermark or declaration in the file' : `AI signals in the file: ${issuers.join(', ')}`;
      const { width, height } = r.metadata as { width?: number; height?: number };
      return `Image    ${name(path)}: human score ${score} / 100 -> ${verdict} ` +
        `(classifier version ${String(r.version)}, the default: model ${aiImageModelFolder(r.version as '5')}; ${String(r.confidence)} confidence; ` +
        `${width}x${height} ${String(r.mime_type)}, ${provenance})`;
    });
  }
  for (const [first, second] of options.comparisons) {
    const [firstText, secondText] = await Promise.all([readFile(first, 'utf8'), readFile(second, 'utf8')]);
    await timed('text-compare', 'text-compare', { first_text: firstText, second_text: secondText }, (r) => {
      const [a, b] = [r.first_text, r.second_text] as Array<{ matching_word_count: number; total_word_count: number }>;
      return `Compare  ${name(first)} vs ${name(second)}: similarity ${String(r.similarity_score)}% ` +
        `(${a!.matching_word_count} of ${a!.total_word_count} words of the first and ` +
        `${b!.matching_word_count} of ${b!.total_word_count} of the second match)`;
    });
  }
  return lines;
}
