import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { workerExecArgv } from '@content-analysis/forensics';
import { Piscina } from 'piscina';
import { AnalysisTaskError, ApiError } from '../errors.js';
import type { AnalysisTasks, TaskOutcome } from './worker.js';

export interface AnalysisPoolOptions {
  /**
   * Worker threads; each loads the models it uses once.
   * @default availableParallelism() - 1, at least 1
   */
  threads?: number;
  /**
   * Tasks that may wait for a free thread; a task past it is refused at once with SERVICE_UNAVAILABLE (and
   * `retryAfter`) instead of queueing without bound.
   * @default 64
   */
  maxQueue?: number;
  /**
   * Seconds a refused caller is told to wait (the HTTP API's `Retry-After`).
   * @default 1
   */
  retryAfter?: number;
}

/** Tasks that may wait by default: at about 30 ms a 10k-character AI-text request, a wait of two seconds at most. */
export const DEFAULT_MAX_QUEUE = 64;

/** The default thread count: every core but one (the event loop's), at least one. */
export function defaultAnalysisThreads(): number {
  return Math.max(1, availableParallelism() - 1);
}

/** The compiled worker module (dist/pool/worker.js), also when this file runs from src/ under a TypeScript loader. */
export function analysisWorkerFilename(): string {
  const here = fileURLToPath(import.meta.url);
  const candidate = fileURLToPath(new URL(here.endsWith('.ts') ? '../../dist/pool/worker.js' : './worker.js', import.meta.url));
  if (!existsSync(candidate)) throw new Error(`Expected the compiled worker at ${candidate}; build the package (tsc -b packages/engine)`);
  return candidate;
}

function expectPositiveInteger(name: string, value: unknown): void {
  if (!Number.isSafeInteger(value) || (value as number) < 1) {
    throw new RangeError(`Expected positive integer for ${name} but received ${String(value)} of type ${typeof value}`);
  }
}

/**
 * Worker threads for the CPU-heavy analyses (AI-text detection, plagiarism alignment, fact-check judging), so that
 * the event loop of a server keeps answering while they run. The threads start on the first task.
 */
export class AnalysisPool {
  readonly threads: number;
  readonly maxQueue: number;
  readonly retryAfter: number;
  #piscina: Piscina | undefined;
  /** Tasks holding a thread's slot (running, or about to be sent to Piscina). */
  #running = 0;
  readonly #waiting: Array<{ start(): void }> = [];

  constructor(options: AnalysisPoolOptions = {}) {
    this.threads = options.threads ?? defaultAnalysisThreads();
    expectPositiveInteger('threads', this.threads);
    this.maxQueue = options.maxQueue ?? DEFAULT_MAX_QUEUE;
    expectPositiveInteger('maxQueue', this.maxQueue);
    this.retryAfter = options.retryAfter ?? 1;
    expectPositiveInteger('retryAfter', this.retryAfter);
  }

  /** Tasks waiting for a free thread. */
  get queueSize(): number {
    return this.#waiting.length;
  }

  /**
   * Runs a named task in a worker. Throws SERVICE_UNAVAILABLE when `maxQueue` tasks wait already, and the task's own
   * error (same name, message and code) when it fails. A task still waiting when `signal` aborts (its caller went
   * away) leaves the queue without running; a running task is left to finish (stopping it would cost the thread and
   * its loaded models).
   */
  async run<K extends keyof AnalysisTasks>(name: K, task: AnalysisTasks[K]['task'], signal?: AbortSignal): Promise<AnalysisTasks[K]['result']> {
    await this.#slot(signal);
    try {
      // stricterFIFO: tasks start in the order they came (Piscina would otherwise requeue the head behind the rest).
      this.#piscina ??= new Piscina({
        filename: analysisWorkerFilename(),
        execArgv: workerExecArgv(process.execArgv),
        minThreads: this.threads,
        maxThreads: this.threads,
        stricterFIFO: true,
      });
      const outcome = (await this.#piscina.run(task, { name })) as TaskOutcome<AnalysisTasks[K]['result']>;
      if (outcome.state === 'errored') throw new AnalysisTaskError(outcome.error);
      return outcome.value;
    } finally {
      this.#release();
    }
  }

  /**
   * Takes a thread's slot, waiting in this pool's own queue when all are taken: Piscina gets at most `threads` tasks,
   * so the queue's bound and its cancellation are this class's, and a task never waits inside Piscina for long.
   */
  #slot(signal: AbortSignal | undefined): Promise<void> {
    if (signal?.aborted) return Promise.reject(this.#cancelled());
    if (this.#running < this.threads) {
      this.#running++;
      return Promise.resolve();
    }
    if (this.#waiting.length >= this.maxQueue) {
      return Promise.reject(new ApiError('SERVICE_UNAVAILABLE', `The analysis queue is full (${this.maxQueue} waiting); retry shortly.`, { retryAfter: this.retryAfter }));
    }
    return new Promise<void>((resolve, reject) => {
      const waiter = {
        start: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      const onAbort = () => {
        const at = this.#waiting.indexOf(waiter);
        if (at >= 0) this.#waiting.splice(at, 1);
        reject(this.#cancelled());
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#waiting.push(waiter);
    });
  }

  /** Hands the slot of a finished task to the first waiting one (the slot stays taken), or frees it. */
  #release(): void {
    const next = this.#waiting.shift();
    if (next) next.start();
    else this.#running--;
  }

  #cancelled(): ApiError {
    return new ApiError('SERVICE_UNAVAILABLE', 'The request was cancelled before its analysis started.', { retryAfter: this.retryAfter });
  }

  /** Stops the threads (after the running tasks); a later task starts them again. */
  async close(): Promise<void> {
    const piscina = this.#piscina;
    this.#piscina = undefined;
    await piscina?.close();
  }
}

const shared = new Map<string, AnalysisPool>();

/**
 * The process-wide pool of these options, created on first call: every engine of a process that asks for the same
 * size shares its threads (and the models they loaded).
 */
export function sharedAnalysisPool(options: AnalysisPoolOptions = {}): AnalysisPool {
  const threads = options.threads ?? defaultAnalysisThreads();
  const key = `${threads}/${options.maxQueue ?? DEFAULT_MAX_QUEUE}/${options.retryAfter ?? 1}`;
  let pool = shared.get(key);
  if (!pool) {
    pool = new AnalysisPool({ ...options, threads });
    shared.set(key, pool);
  }
  return pool;
}
