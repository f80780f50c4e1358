import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { toApiError } from '@content-analysis/engine';
import type { Engine } from '@content-analysis/engine';
import { ANALYSIS_QUEUE_NAME, DEFAULT_QUEUE_PREFIX } from './analysisQueue.js';
import type { AnalysisJobData, AnalysisJobOutcome } from './analysisQueue.js';
import { RedisUnavailableError, ServerConfigError } from './errors.js';
import { storeMismatch } from './jobNeeds.js';
import type { JobStores } from './jobNeeds.js';
import { errorFields, jsonLog } from './jsonLog.js';
import type { JsonLog } from './jsonLog.js';

export interface AnalysisWorkerOptions {
  /** `redis://` or `rediss://` URL. */
  url: string;
  /**
   * Prefix of the queue's keys, the API nodes' one.
   * @default 'content-analysis:queue'
   */
  prefix?: string;
  /**
   * Jobs this worker runs at once.
   * @default 1
   */
  concurrency?: number;
  /**
   * How long a job's lock lasts without renewal (it is renewed every half of it while the job runs). A job whose
   * worker died is taken again by another worker within `lockDurationMs + 2 × stalledIntervalMs`.
   * @default 30_000
   */
  lockDurationMs?: number;
  /**
   * Interval of the stalled-job check, which puts the jobs of dead workers back in the queue.
   * @default min(lockDurationMs, 10_000)
   */
  stalledIntervalMs?: number;
  /** The plagiarism sources and fact-check evidence of this worker; a job whose API node has others is refused. */
  stores?: JobStores;
  /** This worker's name in the logs and in each job's outcome. @default `${hostname()}:${process.pid}` */
  name?: string;
  /**
   * Waits this long at the start of every job (tests of stalls and shutdown need a job that is surely running).
   * @default 0
   */
  holdMs?: number;
  /** Structured log (one JSON line per job start, finish, failure, retry and refusal). @default standard error */
  log?: JsonLog;
}

function positiveInteger(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value <= 0) {
    throw new ServerConfigError(`Expected positive integer for ${name} but received ${String(value)} of type ${typeof value}`);
  }
  return value;
}

/**
 * A worker of the analysis queue: takes jobs, runs {@link Engine.analyse} on them, on the inputs the API node read
 * (it fetches no `website` or `file` again), and returns the outcome. It charges nothing (the API node that waits
 * for the job does). `close()` is the graceful stop: it takes no new job and
 * resolves once the running ones have finished.
 */
export class AnalysisWorker {
  readonly #worker: Worker<AnalysisJobData, AnalysisJobOutcome>;
  readonly #connection: Redis;

  private constructor(worker: Worker<AnalysisJobData, AnalysisJobOutcome>, connection: Redis) {
    this.#worker = worker;
    this.#connection = connection;
  }

  static async start(engine: Engine, options: AnalysisWorkerOptions): Promise<AnalysisWorker> {
    const concurrency = positiveInteger('concurrency', options.concurrency ?? 1);
    const lockDuration = positiveInteger('lockDurationMs', options.lockDurationMs ?? 30_000);
    const stalledInterval = positiveInteger('stalledIntervalMs', options.stalledIntervalMs ?? Math.min(lockDuration, 10_000));
    const holdMs = options.holdMs ?? 0;
    const log = options.log ?? jsonLog();
    const name = options.name ?? `${hostname()}:${process.pid}`;
    const connection = new Redis(options.url, { maxRetriesPerRequest: null, lazyConnect: true });
    try {
      await connection.connect();
    } catch (error) {
      connection.disconnect();
      throw new RedisUnavailableError(`The analysis queue's Redis did not answer: ${(error as Error).message}`, { cause: error });
    }
    const worker = new Worker<AnalysisJobData, AnalysisJobOutcome>(
      ANALYSIS_QUEUE_NAME,
      async (job) => {
        const { featureId, body, requestId, inputs, needs } = job.data;
        const attempt = job.attemptsStarted;
        const fields = { job_id: job.id, request_id: requestId ?? null, feature: featureId, attempt, worker: name };
        const refusal = storeMismatch(needs, options.stores);
        if (refusal !== undefined) {
          log('error', 'job_refused', { ...fields, reason: refusal });
          return { state: 'refused', description: refusal, attempt, worker: name };
        }
        // A later attempt means the worker of an earlier one died or stalled: the job is retried here.
        log('info', attempt > 1 ? 'job_retry' : 'job_start', fields);
        const started = performance.now();
        if (holdMs > 0) await sleep(holdMs);
        const run = () => ({ attempt, worker: name, runMs: Math.round(performance.now() - started) });
        try {
          const result = await engine.analyse(featureId, body, { inputs });
          const done = run();
          log('info', 'job_finish', { ...fields, duration_ms: done.runMs, outcome: 'completed' });
          return { state: 'completed', result, ...done };
        } catch (error) {
          const apiError = toApiError(error);
          const done = run();
          if (apiError.code === 'INTERNAL_SERVER_ERROR') log('error', 'job_failure', { ...fields, duration_ms: done.runMs, ...errorFields(error) });
          else log('info', 'job_finish', { ...fields, duration_ms: done.runMs, outcome: 'errored', code: apiError.code });
          return { state: 'errored', code: apiError.code, description: apiError.description, ...done };
        }
      },
      {
        connection,
        prefix: options.prefix ?? DEFAULT_QUEUE_PREFIX,
        concurrency,
        lockDuration,
        stalledInterval,
        maxStalledCount: 2,
        removeOnComplete: { count: 0 },
        removeOnFail: { count: 0 },
      },
    );
    worker.on('error', (error) => log('error', 'worker_error', { worker: name, ...errorFields(error) }));
    worker.on('stalled', (jobId) => log('warn', 'job_stalled', { job_id: jobId, worker: name }));
    await worker.waitUntilReady();
    return new AnalysisWorker(worker, connection);
  }

  /** Takes no new job; resolves once the running ones have finished and the connection is closed. */
  async close(): Promise<void> {
    await this.#worker.close();
    this.#connection.disconnect();
  }
}
