import { randomUUID } from 'node:crypto';
import { Queue, QueueEvents } from 'bullmq';
import { Redis } from 'ioredis';
import { ApiError } from '@content-analysis/engine';
import type { AnalysisOffload, ApiErrorCode, HandedInputs, OffloadOptions } from '@content-analysis/engine';
import { RedisUnavailableError, ServerConfigError } from './errors.js';
import { jobNeeds } from './jobNeeds.js';
import type { JobStores } from './jobNeeds.js';
import type { JsonLog } from './jsonLog.js';
import type { ServerMetrics } from './metrics.js';

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
  /** The stores of the API node that the analysis reads (see `jobNeeds`); a worker with others refuses the job. */
  needs?: JobStores | undefined;
}

/** Who ran a job, on which attempt, and for how long (for the node's logs and metrics). */
export interface AnalysisJobRun {
  attempt?: number;
  worker?: string;
  runMs?: number;
}

/**
 * What a job returns: the analysis, or the API error the analysis raised (a caller's error is not retried), or the
 * refusal of a worker whose stores are not the API node's.
 */
export type AnalysisJobOutcome = AnalysisJobRun & (
  | { state: 'completed'; result: Record<string, unknown> }
  | { state: 'errored'; code: ApiErrorCode; description: string }
  | { state: 'refused'; description: string });

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
  /** This node's plagiarism sources and fact-check evidence, recorded in each job that reads them. @default none */
  stores?: JobStores;
  /** Counts jobs, their run time, retries and stalls, and reads the queue's depth at each scrape. */
  metrics?: ServerMetrics;
  /** Structured log of the jobs that time out or fail. @default none */
  log?: JsonLog;
  /**
   * Length the queue's event stream is trimmed to (approximately), so that a result nobody read (its API node died)
   * leaves Redis after so many newer events.
   * @default 2000
   */
  eventsMaxLen?: number;
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
  readonly #options: AnalysisQueueOptions;
  readonly #features: Set<string>;
  readonly #timeoutMs: number;
  readonly #eventsKey: string;
  /** The jobs this node waits for, by job id. */
  readonly #waiting = new Map<string, (outcome: AnalysisJobOutcome | Error) => void>();
  /** Jobs this node gave up on (timeout, client gone) whose result event is deleted when it comes. */
  readonly #abandoned = new Set<string>();

  private constructor(queue: Queue<AnalysisJobData, AnalysisJobOutcome>, events: QueueEvents, connections: Redis[], options: AnalysisQueueOptions, timeoutMs: number, eventsKey: string) {
    this.#queue = queue;
    this.#events = events;
    this.#connections = connections;
    this.#options = options;
    this.#features = new Set(options.features ?? QUEUED_FEATURES);
    this.#timeoutMs = timeoutMs;
    this.#eventsKey = eventsKey;
    events.on('completed', ({ jobId, returnvalue }, id) => this.#settle(jobId, id, returnvalue as unknown as AnalysisJobOutcome));
    events.on('failed', ({ jobId, failedReason }, id) => this.#settle(jobId, id, new Error(failedReason)));
    events.on('stalled', () => options.metrics?.jobStalls.inc());
    options.metrics?.addCollector(async () => {
      const counts = await this.#queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized', 'waiting-children', 'failed', 'completed');
      for (const [state, n] of Object.entries(counts)) options.metrics!.queueJobs.set({ state }, n);
    });
  }

  /** Connects to Redis; rejects with {@link RedisUnavailableError} when it does not answer. */
  static async open(options: AnalysisQueueOptions): Promise<AnalysisQueue> {
    const timeoutMs = checkTimeout('timeoutMs', options.timeoutMs ?? 100_000);
    const eventsMaxLen = checkTimeout('eventsMaxLen', options.eventsMaxLen ?? 2000);
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
    const queue = new Queue<AnalysisJobData, AnalysisJobOutcome>(ANALYSIS_QUEUE_NAME, { connection: producer, prefix, streams: { events: { maxLen: eventsMaxLen } } });
    const events = new QueueEvents(ANALYSIS_QUEUE_NAME, { connection: listener, prefix });
    queue.on('error', () => undefined);
    events.on('error', () => undefined);
    await Promise.all([queue.waitUntilReady(), events.waitUntilReady()]);
    return new AnalysisQueue(queue, events, connections, options, timeoutMs, `${prefix}:${ANALYSIS_QUEUE_NAME}:events`);
  }

  accepts(featureId: string): boolean {
    return this.#features.has(featureId);
  }

  /** Whether Redis answers (for `/ready`). */
  async ping(): Promise<boolean> {
    return (await this.#connections[0]!.ping().catch(() => undefined)) === 'PONG';
  }

  /**
   * Queues the analysis and waits for its outcome. The job leaves Redis as soon as a worker finished it (its input
   * with it), and the event that brought the result is deleted once read; a job given up on before a worker took
   * it is withdrawn.
   */
  async analyse(featureId: string, body: unknown, options: OffloadOptions = {}): Promise<Record<string, unknown>> {
    const jobId = randomUUID();
    const started = performance.now();
    const metrics = this.#options.metrics;
    // Waiting starts before the job exists, so that no result can come before anyone listens for it.
    let settle!: (outcome: AnalysisJobOutcome | Error) => void;
    const finished = new Promise<AnalysisJobOutcome | Error>((resolve) => (settle = resolve));
    this.#waiting.set(jobId, settle);
    const timer = setTimeout(() => settle(new TimeoutError()), this.#timeoutMs);
    try {
      await this.#queue.add(featureId, { featureId, body, requestId: options.requestId, inputs: options.inputs ?? {}, needs: jobNeeds(featureId, this.#options.stores) }, {
        jobId,
        removeOnComplete: true,
        removeOnFail: true,
      });
    } catch (error) {
      clearTimeout(timer);
      this.#waiting.delete(jobId);
      throw new ApiError('SERVICE_UNAVAILABLE', 'The analysis queue is unavailable; retry shortly.', { retryAfter: 1, cause: error });
    }
    let outcome: AnalysisJobOutcome | Error;
    try {
      outcome = await withAbort(finished, options.signal);
    } catch (error) {
      outcome = error as Error;
    } finally {
      clearTimeout(timer);
      this.#waiting.delete(jobId);
    }
    if (outcome instanceof Error) {
      // A job nobody has started yet is withdrawn, so that it does not run for nothing; a running one finishes, and
      // its result event is deleted when it comes.
      if (!(outcome instanceof JobFailedError)) {
        this.#abandon(jobId);
        await this.#queue.remove(jobId).catch(() => undefined);
      }
      const kind = outcome instanceof TimeoutError ? 'timeout' : outcome instanceof JobFailedError ? 'failed' : 'aborted';
      metrics?.jobs.inc({ feature: featureId, outcome: kind });
      if (kind !== 'aborted') {
        this.#options.log?.('warn', kind === 'timeout' ? 'job_timeout' : 'job_failed', { job_id: jobId, request_id: options.requestId, feature: featureId, ...(kind === 'failed' ? { error: outcome.message } : { timeout_ms: this.#timeoutMs }) });
      }
      if (options.signal?.aborted || kind === 'aborted') throw outcome;
      throw new ApiError('SERVICE_UNAVAILABLE', kind === 'timeout' ? 'No analysis worker finished this request in time; retry shortly.'
        : 'The analysis failed on every worker that took it; retry shortly.', { retryAfter: 1, cause: outcome });
    }
    metrics?.jobs.inc({ feature: featureId, outcome: outcome.state });
    metrics?.jobWaitSeconds.observe({ feature: featureId }, (performance.now() - started) / 1000);
    if (outcome.runMs !== undefined) metrics?.jobSeconds.observe({ feature: featureId }, outcome.runMs / 1000);
    if ((outcome.attempt ?? 1) > 1) metrics?.jobRetries.inc({ feature: featureId });
    if (outcome.state === 'refused') {
      this.#options.log?.('error', 'job_refused', { job_id: jobId, request_id: options.requestId, feature: featureId, worker: outcome.worker, reason: outcome.description });
      throw new ApiError('SERVICE_UNAVAILABLE', `The analysis worker that took this request cannot run it: ${outcome.description}. Nothing was charged; the operator must start the workers with the API nodes' stores.`);
    }
    if (outcome.state === 'errored') throw new ApiError(outcome.code, outcome.description);
    return outcome.result;
  }

  /** Hands a job's outcome to whoever waits for it here, and deletes the event that carried it. */
  #settle(jobId: string, eventId: string, outcome: AnalysisJobOutcome | Error): void {
    const waiter = this.#waiting.get(jobId);
    const abandoned = this.#abandoned.delete(jobId);
    if (waiter === undefined && !abandoned) return;
    waiter?.(outcome instanceof Error ? new JobFailedError(outcome.message) : outcome);
    void this.#connections[0]!.xdel(this.#eventsKey, eventId).catch(() => undefined);
  }

  #abandon(jobId: string): void {
    this.#abandoned.add(jobId);
    // Bounded: past 10,000 ids the oldest go, and their events leave with the stream's trimming.
    if (this.#abandoned.size > 10_000) this.#abandoned.delete(this.#abandoned.values().next().value!);
  }

  async close(): Promise<void> {
    await this.#events.close().catch(() => undefined);
    await this.#queue.close().catch(() => undefined);
    for (const c of this.#connections) c.disconnect();
  }
}

class TimeoutError extends Error {}
class JobFailedError extends Error {}

function withAbort<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new ApiError('SERVICE_UNAVAILABLE', 'The request was aborted.', { cause: signal.reason }));
    if (signal.aborted) onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
