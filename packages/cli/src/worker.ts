import { availableParallelism } from 'node:os';
import { Engine } from '@content-analysis/engine';
import { ForensicsPool } from '@content-analysis/forensics';
import { AnalysisWorker, jsonLog, QUEUED_FEATURES } from '@content-analysis/server';
import { readCalibrationProfile } from './calibrate.js';
import { servicesFrom } from './collections.js';
import { describeCustomModels, MODEL_FLAGS, pluggedEngineOptions } from './customModels.js';
import { parseCommandLine } from './commandLine.js';
import { CliError, UsageError } from './errors.js';
import { sourcesPath } from './ledgerFile.js';
import { jobStoresOf } from './jobStores.js';
import type { CliIo } from './main.js';
import { warmFeatures, warmUp } from './warmUp.js';
import { openPostgresIndex, redact, serveStores } from './serve.js';

function positiveInteger(flag: string, value: string | undefined, fallback: number): number {
  const n = Number(value ?? fallback);
  if (!Number.isSafeInteger(n) || n <= 0) throw new UsageError(`Expected positive integer for ${flag} but received ${value}`);
  return n;
}

/**
 * `content-analysis worker`: takes the analysis jobs the `serve --redis` nodes queue, runs them and returns the
 * results; it charges nothing. SIGTERM or SIGINT stops it gracefully: no new job, the running ones finish, then it
 * exits. A worker that dies instead leaves its jobs to the others: taken again within --lock-duration plus twice
 * --stall-interval (30 + 2 × 10 s by default), less than the API nodes' default --queue-timeout of 100 s.
 */
export async function worker(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandLine(argv, {
    redis: { type: 'string' },
    'queue-prefix': { type: 'string' },
    database: { type: 'string' },
    'database-schema': { type: 'string' },
    concurrency: { type: 'string' },
    'lock-duration': { type: 'string' },
    'stall-interval': { type: 'string' },
    'no-warm': { type: 'boolean' },
    index: { type: 'string' },
    sources: { type: 'string' },
    evidence: { type: 'string' },
    calibration: { type: 'string' },
    ...MODEL_FLAGS,
  });
  if (positionals.length > 0) throw new UsageError(`worker: unexpected argument "${positionals[0]}"`);
  const aiTextCalibration = values.calibration === undefined ? undefined : await readCalibrationProfile(values.calibration);
  const stores = serveStores(values, io.env);
  if (stores.redis === undefined) throw new UsageError('worker: missing --redis <redis://…> (or CONTENT_ANALYSIS_REDIS_URL), the queue to take jobs from');
  const concurrency = positiveInteger('--concurrency', values.concurrency, 1);
  const lockDurationMs = positiveInteger('--lock-duration', values['lock-duration'], 30) * 1000;
  const stalledIntervalMs = positiveInteger('--stall-interval', values['stall-interval'], Math.min(lockDurationMs / 1000, 10)) * 1000;
  const holdMs = Number(io.env.CONTENT_ANALYSIS_WORKER_HOLD_MS ?? 0) || 0;
  // The API nodes accept `custom:NAME` only for the models they plugged in; the worker must hold the same ones.
  const plugged = await pluggedEngineOptions(values);
  const customModels = plugged.customModels;
  const sharedIndex = await openPostgresIndex(stores, values.index, io.env);
  const indexPath = sharedIndex ? undefined : sourcesPath(values.index, io.env);
  const jobStores = jobStoresOf({ stores, sharedIndex: sharedIndex !== undefined, indexPath, sources: values.sources, evidence: values.evidence });
  const log = jsonLog((line) => io.stderr.write(line));
  const forensicsPool = new ForensicsPool({ threads: Math.max(1, availableParallelism()) });
  const engine = new Engine({
    services: {
      ...servicesFrom({ index: indexPath, sources: values.sources, evidence: values.evidence }),
      ...(sharedIndex ? { plagiarismIndex: sharedIndex } : {}),
      forensicsPool,
    },
    ...(aiTextCalibration ? { aiTextCalibration } : {}),
    ...plugged,
  });
  const release = async () => {
    await forensicsPool.close();
    await sharedIndex?.closeAsync();
    await customModels?.release();
  };
  // The models load before the worker takes its first job, so that no job waits for them.
  let warmed = '';
  if (values['no-warm'] !== true) {
    const started = performance.now();
    const report = await warmUp(engine, warmFeatures(engine, (id) => !QUEUED_FEATURES.includes(id)));
    for (const [feature, outcome] of Object.entries(report)) {
      if ('error' in outcome) log('warn', 'warm_up_failed', { feature, error: outcome.error });
    }
    warmed = `, models warm in ${Math.round(performance.now() - started)} ms`;
  }
  let running: AnalysisWorker;
  try {
    running = await AnalysisWorker.start(engine, {
      url: stores.redis,
      prefix: stores.queuePrefix,
      concurrency,
      lockDurationMs,
      stalledIntervalMs,
      holdMs,
      stores: jobStores,
      log,
    });
  } catch (error) {
    await release();
    throw new CliError((error as Error).message, { cause: error });
  }
  if (customModels) describeCustomModels(customModels, io.stdout);
  io.stdout.write(`content-analysis worker taking jobs from ${redact(stores.redis)} (prefix ${stores.queuePrefix}, concurrency ${concurrency}${warmed})\n`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  io.stdout.write('content-analysis worker stopping: finishing the running jobs\n');
  await running.close();
  await release();
  io.stdout.write('content-analysis worker stopped\n');
  return 0;
}
