import { randomUUID } from 'node:crypto';
import { Queue, QueueEvents } from 'bullmq';
import { Redis } from 'ioredis';
import { ApiError } from '@content-analysis/engine';
import type { AnalysisOffload, ApiErrorCode, HandedInputs, OffloadOptions } from '@content-analysis/engine';
import { RedisUnavailableError, ServerConfigError } from './errors.js';

/** The BullMQ queue every API node adds to and every `content-analysis worker` takes from. */
export const ANALYSIS_QUEUE_NAME = 'analysis';

/**
 * The features whose analysis runs on the workers when the API nodes have a queue: the images, AI text, and the
 * checks against collections (plagiarism, v2 and v1, against the workers' sources or index; fact checking against
 * their evidence).
 */
export const QUEUED_FEATURES: readonly string[] = Object.freeze([
  'image-detection', 'advanced-image-detection', 'ai-content-detection', 'plagiarism', 'plagiarism-v1', 'fact-checker',
]);

/**
 * What a job carries: the request body, validated again by the worker's engine, and the remote inputs the API node
 * read and priced (the text of a `website` or `file`), which the worker analyses as they are instead of fetching.
 */
export interface AnalysisJobData {
  featureId: string;
  body: unknown;
  requestId?: string | undefined;
  inputs?: HandedInputs | undefined;
}

/** What a job returns: the analysis, or the API error the analysis raised (a caller's error is not retried). */
export type AnalysisJobOutcome =
  | { state: 'completed'; result: Record<string, unknown> }
  | { state: 'errored'; code: ApiErrorCode; description: string };

export interface AnalysisQueueOptions {
  /** `redis://` or `rediss://` URL. */
  url: string;
  /**
   * Prefix of the queue's keys; the workers must use the same one.
   * @default 'content-analysis:queue'
   */
  prefix?: string;
  /**
   * How long a request waits for its job to finish before it answers 503 (and is charged nothing).
   * @default 100_000
   */
  timeoutMs?: number;
  /**
   * Features whose analysis goes through the queue.
   * @default QUEUED_FEATURES
   */
  features?: Iterable<string>;
}

export const DEFAULT_QUEUE_PREFIX = 'content-analysis:queue';

function checkTimeout(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value <= 0) {
    throw new ServerConfigError(`Expected positive integer for ${name} but received ${String(value)} of type ${typeof value}`);
  }
  return value;
}

/**
 * The API node's side of the analysis queue: each accepted request becomes one job (a fresh job id; the request id
 * rides along for the logs), and the node waits for it through the queue's event stream. A job that a dying worker
 * left behind is taken again by another worker (BullMQ's stalled-job check); the node sees only the one result, and
 * the engine charges once, after it.
 */
export class AnalysisQueue implements AnalysisOffload {
  readonly #queue: Queue<AnalysisJobData, AnalysisJobOutcome>;
  readonly #events: QueueEvents;
  readonly #connections: Redis[];
  readonly #features: Set<string>;
  readonly #timeoutMs: number;

  private constructor(queue: Queue<AnalysisJobData, AnalysisJobOutcome>, events: QueueEvents, connections: Redis[], features: Set<string>, timeoutMs: number) {
    this.#queue = queue;
    this.#events = events;
    this.#connections = connections;
    this.#features = features;
    this.#timeoutMs = timeoutMs;
  }

  /** Connects to Redis; rejects with {@link RedisUnavailableError} when it does not answer. */
  static async open(options: AnalysisQueueOptions): Promise<AnalysisQueue> {
    const timeoutMs = checkTimeout('timeoutMs', options.timeoutMs ?? 100_000);
    const prefix = options.prefix ?? DEFAULT_QUEUE_PREFIX;
    const producer = new Redis(options.url, { maxRetriesPerRequest: 1, lazyConnect: true });
    const listener = new Redis(options.url, { maxRetriesPerRequest: null, lazyConnect: true });
    const connections = [producer, listener];
    try {
      await Promise.all(connections.map((c) => c.connect()));
    } catch (error) {
      for (const c of connections) c.disconnect();
      throw new RedisUnavailableError(`The analysis queue's Redis did not answer: ${(error as Error).message}`, { cause: error });
    }
    const queue = new Queue<AnalysisJobData, AnalysisJobOutcome>(ANALYSIS_QUEUE_NAME, { connection: producer, prefix });
    const events = new QueueEvents(ANALYSIS_QUEUE_NAME, { connection: listener, prefix });
    queue.on('error', () => undefined);
    events.on('error', () => undefined);
    await Promise.all([queue.waitUntilReady(), events.waitUntilReady()]);
    return new AnalysisQueue(queue, events, connections, new Set(options.features ?? QUEUED_FEATURES), timeoutMs);
  }

  accepts(featureId: string): boolean {
    return this.#features.has(featureId);
  }

  async analyse(featureId: string, body: unknown, options: OffloadOptions = {}): Promise<Record<string, unknown>> {
    let job;
    try {
      job = await this.#queue.add(featureId, { featureId, body, requestId: options.requestId, inputs: options.inputs ?? {} }, {
        jobId: randomUUID(),
        removeOnComplete: { age: 3600 },
        removeOnFail: { age: 24 * 3600 },
      });
    } catch (error) {
      throw new ApiError('SERVICE_UNAVAILABLE', 'The analysis queue is unavailable; retry shortly.', { retryAfter: 1, cause: error });
    }
    let outcome: AnalysisJobOutcome;
    try {
      outcome = await withAbort(job.waitUntilFinished(this.#events, this.#timeoutMs), options.signal);
    } catch (error) {
      // A job nobody has started yet is withdrawn, so that it does not run for nothing; a running one finishes.
      await job.remove().catch(() => undefined);
      if (options.signal?.aborted) throw error;
      throw new ApiError('SERVICE_UNAVAILABLE', 'No analysis worker finished this request in time; retry shortly.', { retryAfter: 1, cause: error });
    }
    if (outcome.state === 'errored') throw new ApiError(outcome.code, outcome.description);
    return outcome.result;
  }

  async close(): Promise<void> {
    await this.#events.close().catch(() => undefined);
    await this.#queue.close().catch(() => undefined);
    for (const c of this.#connections) c.disconnect();
  }
}

function withAbort<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new ApiError('SERVICE_UNAVAILABLE', 'The request was aborted.', { cause: signal.reason }));
    if (signal.aborted) onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
