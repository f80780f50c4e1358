import { setTimeout as sleep } from 'node:timers/promises';
import { Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { toApiError } from '@content-analysis/engine';
import type { Engine } from '@content-analysis/engine';
import { ANALYSIS_QUEUE_NAME, DEFAULT_QUEUE_PREFIX } from './analysisQueue.js';
import type { AnalysisJobData, AnalysisJobOutcome } from './analysisQueue.js';
import { RedisUnavailableError, ServerConfigError } from './errors.js';

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
   * How long a job's lock lasts without renewal; a job whose worker died is taken again by another worker after
   * about this long (it is also the interval of the stalled-job check).
   * @default 30_000
   */
  lockDurationMs?: number;
  /**
   * Waits this long at the start of every job (tests of stalls and shutdown need a job that is surely running).
   * @default 0
   */
  holdMs?: number;
  /** @default writes to stderr */
  log?: (message: string) => void;
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
    const holdMs = options.holdMs ?? 0;
    const log = options.log ?? ((message: string) => process.stderr.write(`${message}\n`));
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
        const { featureId, body, requestId, inputs } = job.data;
        log(`job ${job.id} started: ${featureId} (x-request-id ${requestId ?? 'none'}, attempt ${job.attemptsStarted})`);
        if (holdMs > 0) await sleep(holdMs);
        try {
          return { state: 'completed', result: await engine.analyse(featureId, body, { inputs }) };
        } catch (error) {
          const apiError = toApiError(error);
          if (apiError.code === 'INTERNAL_SERVER_ERROR') log(`job ${job.id} failed: ${(error as Error).stack ?? String(error)}`);
          return { state: 'errored', code: apiError.code, description: apiError.description };
        }
      },
      {
        connection,
        prefix: options.prefix ?? DEFAULT_QUEUE_PREFIX,
        concurrency,
        lockDuration,
        stalledInterval: lockDuration,
        maxStalledCount: 2,
      },
    );
    worker.on('error', (error) => log(`analysis worker: ${error.message}`));
    worker.on('completed', (job) => log(`job ${job.id} finished`));
    await worker.waitUntilReady();
    return new AnalysisWorker(worker, connection);
  }

  /** Takes no new job; resolves once the running ones have finished and the connection is closed. */
  async close(): Promise<void> {
    await this.#worker.close();
    this.#connection.disconnect();
  }
}
