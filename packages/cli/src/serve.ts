import { availableParallelism } from 'node:os';
import { DuplicateAccountError, PostgresLedger } from '@content-analysis/credits';
import type { Ledger } from '@content-analysis/credits';
import { Engine } from '@content-analysis/engine';
import type { CalibrationProfile } from '@content-analysis/engine';
import { ForensicsPool } from '@content-analysis/forensics';
import { SourceIndex } from '@content-analysis/plagiarism';
import { AnalysisQueue, createApiServer, DEFAULT_QUEUE_PREFIX, jsonLog, listen, RedisRateLimiter, ServerMetrics } from '@content-analysis/server';
import type { JobStores } from '@content-analysis/server';
import type { RateLimiter } from '@content-analysis/server';
import { readCalibrationProfile } from './calibrate.js';
import { servicesFrom } from './collections.js';
import { describeCustomModels, MODEL_FLAGS, pluggedEngineOptions } from './customModels.js';
import { parseCommandLine } from './commandLine.js';
import { CliError, UsageError } from './errors.js';
import { DEFAULT_ACCOUNT, ledgerPath, openLedger, sourcesPath } from './ledgerFile.js';
import { jobStoresOf } from './jobStores.js';
import type { CliIo } from './main.js';
import { warmFeatures, warmUp } from './warmUp.js';

/** Where `serve` keeps its state: flags first, then the environment, then the embedded defaults. */
export interface ServeStores {
  /** PostgreSQL URL of a shared ledger, or undefined for the SQLite file. */
  database: string | undefined;
  databaseSchema: string;
  /** Redis URL of a shared rate limiter, or undefined for the in-process one. */
  redis: string | undefined;
  redisPrefix: string;
  /** Prefix of the analysis queue's keys (with `redis`). */
  queuePrefix: string;
}

export function serveStores(values: Record<string, unknown>, env: NodeJS.ProcessEnv): ServeStores {
  const text = (flag: string, variable: string): string | undefined => {
    const value = values[flag];
    return typeof value === 'string' ? value : env[variable] || undefined;
  };
  const database = text('database', 'CONTENT_ANALYSIS_DATABASE_URL');
  if (database !== undefined && !/^postgres(?:ql)?:\/\//.test(database)) {
    throw new UsageError(`Expected postgres:// or postgresql:// URL for --database but received ${database}`);
  }
  if (database !== undefined && typeof values.db === 'string') throw new UsageError('--db (SQLite file) and --database (PostgreSQL) exclude each other');
  const redis = text('redis', 'CONTENT_ANALYSIS_REDIS_URL');
  if (redis !== undefined && !/^rediss?:\/\//.test(redis)) {
    throw new UsageError(`Expected redis:// or rediss:// URL for --redis but received ${redis}`);
  }
  return {
    database,
    databaseSchema: text('database-schema', 'CONTENT_ANALYSIS_DATABASE_SCHEMA') ?? 'public',
    redis,
    redisPrefix: text('redis-prefix', 'CONTENT_ANALYSIS_REDIS_PREFIX') ?? 'content-analysis:rate:',
    queuePrefix: text('queue-prefix', 'CONTENT_ANALYSIS_QUEUE_PREFIX') ?? DEFAULT_QUEUE_PREFIX,
  };
}

/**
 * The plagiarism index of `serve` and `index add`: in the `--database` schema when a database is named and no
 * SQLite index is (`--index` or `CONTENT_ANALYSIS_SOURCES`), so that every node checks against one collection.
 */
export async function openPostgresIndex(stores: ServeStores, indexFlag: string | undefined, env: NodeJS.ProcessEnv): Promise<SourceIndex | undefined> {
  if (stores.database === undefined || indexFlag !== undefined || env.CONTENT_ANALYSIS_SOURCES) return undefined;
  try {
    return await SourceIndex.openPostgres({ connectionString: stores.database, schema: stores.databaseSchema });
  } catch (error) {
    throw new CliError(`cannot open the plagiarism index in PostgreSQL at ${redact(stores.database)}: ${(error as Error).message}`, { cause: error });
  }
}

/** A URL without its password, for the start line and messages. */
export function redact(url: string): string {
  return url.replace(/\/\/([^@/]*)@/, (_, auth: string) => `//${auth.replace(/:.*$/, ':***')}@`);
}

function queueTimeoutMs(flag: string | undefined): number {
  const seconds = Number(flag ?? 100);
  if (!Number.isSafeInteger(seconds) || seconds <= 0) throw new UsageError(`Expected positive integer for --queue-timeout but received ${flag}`);
  return seconds * 1000;
}

interface Observability {
  metrics: ServerMetrics;
  log: ReturnType<typeof jsonLog>;
  jobStores: JobStores;
}

async function openStores(stores: ServeStores, values: { db?: string | undefined; 'queue-timeout'?: string | undefined }, env: NodeJS.ProcessEnv, seen: Observability) {
  let ledger: Ledger;
  let ledgerName: string;
  if (stores.database === undefined) {
    ledgerName = ledgerPath(values.db, env);
    ledger = openLedger(ledgerName);
  } else {
    ledgerName = `${redact(stores.database)} schema ${stores.databaseSchema}`;
    try {
      ledger = await PostgresLedger.open({ connectionString: stores.database, schema: stores.databaseSchema });
    } catch (error) {
      if (error instanceof TypeError) throw new UsageError(`--database: ${error.message}`);
      throw new CliError(`cannot open the PostgreSQL ledger at ${redact(stores.database)}: ${(error as Error).message}`, { cause: error });
    }
  }
  let limiter: RateLimiter | undefined;
  let queue: AnalysisQueue | undefined;
  if (stores.redis !== undefined) {
    try {
      limiter = await RedisRateLimiter.open({ url: stores.redis, keyPrefix: stores.redisPrefix });
      queue = await AnalysisQueue.open({
        url: stores.redis, prefix: stores.queuePrefix, timeoutMs: queueTimeoutMs(values['queue-timeout']),
        stores: seen.jobStores, metrics: seen.metrics, log: seen.log,
      });
    } catch (error) {
      await limiter?.close?.();
      await ledger.close();
      if (error instanceof UsageError) throw error;
      throw new CliError((error as Error).message, { cause: error });
    }
  }
  return { ledger, ledgerName, limiter, queue };
}

/**
 * Creates the account "default" and prints its first token, once per ledger: when several nodes start together on
 * one database, the one whose insert wins prints it and the others find the account taken.
 */
async function showFirstToken(ledger: Ledger, io: CliIo): Promise<void> {
  if (await ledger.getAccount(DEFAULT_ACCOUNT)) return;
  try {
    await ledger.createAccount({ id: DEFAULT_ACCOUNT });
  } catch (error) {
    if (error instanceof DuplicateAccountError) return;
    throw error;
  }
  const { token } = await ledger.createToken(DEFAULT_ACCOUNT, 'first token');
  io.stdout.write(`First access token (shown once, account "${DEFAULT_ACCOUNT}", 2000 credits):\n${token}\n`);
}

export async function serve(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandLine(argv, {
    db: { type: 'string' },
    database: { type: 'string' },
    'database-schema': { type: 'string' },
    redis: { type: 'string' },
    'redis-prefix': { type: 'string' },
    'queue-prefix': { type: 'string' },
    'queue-timeout': { type: 'string' },
    port: { type: 'string' },
    host: { type: 'string' },
    'no-tool-server': { type: 'boolean' },
    'no-warm': { type: 'boolean' },
    'metrics-token': { type: 'string' },
    index: { type: 'string' },
    sources: { type: 'string' },
    evidence: { type: 'string' },
    calibration: { type: 'string' },
    ...MODEL_FLAGS,
  });
  if (positionals.length > 0) throw new UsageError(`serve: unexpected argument "${positionals[0]}"`);
  const aiTextCalibration = values.calibration === undefined ? undefined : await readCalibrationProfile(values.calibration);
  // Plugged models load (and a bad one is refused) before any store is opened or port taken.
  const plugged = await pluggedEngineOptions(values);
  const customModels = plugged.customModels;
  const port = Number(values.port ?? io.env.PORT ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`Expected port number for --port but received ${values.port}`);
  const host = values.host ?? '127.0.0.1';
  const stores = serveStores(values, io.env);
  const log = jsonLog((line) => io.stderr.write(line));
  const metrics = new ServerMetrics();
  // The index is the PostgreSQL one exactly when openPostgresIndex opens it (a database, and no SQLite index named).
  const usesSharedIndex = stores.database !== undefined && values.index === undefined && !io.env.CONTENT_ANALYSIS_SOURCES;
  const indexPath = usesSharedIndex ? undefined : sourcesPath(values.index, io.env);
  const jobStores = jobStoresOf({ stores, sharedIndex: usesSharedIndex, indexPath, sources: values.sources, evidence: values.evidence });
  const { ledger, ledgerName, limiter, queue } = await openStores(stores, values, io.env, { metrics, log, jobStores });
  let sharedIndex: SourceIndex | undefined;
  try {
    sharedIndex = await openPostgresIndex(stores, values.index, io.env);
  } catch (error) {
    await queue?.close();
    await limiter?.close?.();
    await ledger.close();
    throw error;
  }
  const forensicsPool = new ForensicsPool({ threads: Math.max(1, availableParallelism()) });
  const release = async () => {
    await forensicsPool.close();
    await sharedIndex?.closeAsync();
    await queue?.close();
    await limiter?.close?.();
    await ledger.close();
    await customModels?.release();
  };
  let warm = false;
  let server: ReturnType<typeof createApiServer>;
  let address: Awaited<ReturnType<typeof listen>>;
  let engine: Engine;
  try {
    engine = new Engine({
      ledger,
      services: {
        ...servicesFrom({ index: indexPath, sources: values.sources, evidence: values.evidence }),
        ...(sharedIndex ? { plagiarismIndex: sharedIndex } : {}),
        forensicsPool,
      },
      ...(queue ? { offload: queue } : {}),
      ...(aiTextCalibration ? { aiTextCalibration } : {}),
      ...plugged,
    });
    const metricsToken = values['metrics-token'] ?? (io.env.CONTENT_ANALYSIS_METRICS_TOKEN || undefined);
    server = createApiServer({
      engine, toolServer: values['no-tool-server'] !== true, ...(limiter ? { rateLimit: limiter } : {}),
      requestLog: log, metrics, ...(metricsToken ? { metricsToken } : {}),
      log: (message, error) => log('error', 'request_failure', { message, ...(error instanceof Error ? { error: error.message, stack: error.stack } : { error: String(error) }) }),
      ready: async () => ({
        models: warm,
        database: await ledger.getAccount(DEFAULT_ACCOUNT).then(() => true, () => false),
        ...(queue ? { redis: await queue.ping() } : {}),
      }),
    });
    address = await listen(server, port, host).catch((error: unknown) => {
      throw listenError(error, host, port);
    });
  } catch (error) {
    await release();
    throw error;
  }
  // Only once the port is ours: a start that fails leaves no account behind, so the next one still shows the token.
  await showFirstToken(ledger, io);
  // The models load before the node says it listens (and before /ready answers 200); /health answers meanwhile.
  let warmed = '';
  if (values['no-warm'] !== true) {
    const started = performance.now();
    const report = await warmUp(engine!, warmFeatures(engine!, (id) => queue?.accepts(id) ?? false));
    for (const [feature, outcome] of Object.entries(report)) {
      if ('error' in outcome) log('warn', 'warm_up_failed', { feature, error: outcome.error });
    }
    warmed = `; models warm in ${Math.round(performance.now() - started)} ms`;
  }
  warm = true;
  const limits = (stores.redis === undefined ? '' : `; rate limits and the analysis queue in ${redact(stores.redis)}`) +
    (aiTextCalibration === undefined ? '' : `; AI-text scores calibrated by ${values.calibration} (${calibrationSummary(aiTextCalibration)})`);
  if (customModels) describeCustomModels(customModels, io.stdout);
  io.stdout.write(`content-analysis listening on ${address.url} (ledger ${ledgerName}${limits}; tool server at ${address.url}/mcp/v1${warmed})\n`);
  await new Promise<void>((resolve) => {
    const stop = () => {
      server.close(() => resolve());
      server.closeAllConnections();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await release();
  return 0;
}

function listenError(error: unknown, host: string, port: number): Error {
  const code = (error as NodeJS.ErrnoException).code;
  const reason = code === 'EADDRINUSE' ? 'the address is in use'
    : code === 'EACCES' ? 'permission denied'
    : code === 'EADDRNOTAVAIL' ? 'the address is not on this machine'
    : (error as Error).message;
  return new CliError(`cannot listen on ${host}:${port}: ${reason}`, { cause: error });
}

/**
 * What a profile promises, for start lines: `ai-text 2.0.0, at most 1% false positives at 95% confidence in every
 * length bucket (bound 0.91%)`, or which length buckets had too few texts to promise it.
 */
export function calibrationSummary(profile: CalibrationProfile): string {
  const percent = (p: number) => `${+(100 * p).toPrecision(3)}%`;
  const head = `${profile.detector.model} ${profile.detector.version}, at most ${percent(profile.target_fpr)} false positives at ${percent(profile.confidence)} confidence`;
  const met = profile.buckets.filter((b) => b.meets_target);
  const unmet = profile.buckets.filter((b) => !b.meets_target).map((b) => `${b.min_chars}+`);
  const bound = Math.max(...met.map((b) => b.fpr_bound));
  return unmet.length === 0
    ? `${head} in every length bucket (bound ${percent(bound)})`
    : `${head} in ${met.length} of ${profile.buckets.length} length buckets (bound ${percent(bound)}); too few texts to promise it at ${unmet.join(', ')} characters`;
}
