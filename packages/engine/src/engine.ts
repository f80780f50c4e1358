import type { CalibrationProfile, CustomModels } from '@content-analysis/classifiers';
import type { Ledger } from '@content-analysis/credits';
import type { GuardedFetchOptions } from '@content-analysis/fetch';
import { ApiError, toApiError } from './errors.js';
import type { Feature, FeatureContext } from './feature.js';
import { FeatureRegistry } from './registry.js';
import { ReadInputs } from './inputs/readInputs.js';
import type { HandedInputs } from './inputs/readInputs.js';
import { fetchRemote } from './remote.js';
import { validateRequest } from './validate.js';
import { builtinFeatures } from './features/index.js';
import { sharedAnalysisPool } from './pool/analysisPool.js';
import type { AnalysisPool, AnalysisPoolOptions } from './pool/analysisPool.js';
import { inThreadRunner, pooledRunner } from './pool/analysisRunner.js';
import type { AnalysisRunner } from './pool/analysisRunner.js';
import { withAiTextCalibration } from './pool/calibratedRunner.js';
import { lazyServices } from './services.js';
import type { AnalysisOffload } from './offload.js';
import type { FeatureId, FeatureRequest, FeatureResult, RunResult } from './featureTypes.js';
import { warmUpFeatures } from './warmUp.js';
import type { EngineServices, EngineServicesOptions } from './services.js';

export interface EngineOptions {
  /** Accounts, tokens and balances; needed by {@link Engine.execute}, not by {@link Engine.run}. */
  ledger?: Ledger;
  /**
   * Features to serve.
   * @default builtinFeatures()
   */
  features?: Iterable<Feature<any, any>>;
  /**
   * Defaults for every remote fetch (limits; `resolve` and `dial` for tests). The address policy itself
   * cannot be changed.
   * @default {}
   */
  fetch?: GuardedFetchOptions;
  /**
   * Plagiarism sources and fact-check evidence.
   * @default empty in-memory collections
   */
  services?: EngineServicesOptions;
  /**
   * Where AI-text detection, plagiarism alignment and fact-check judging run.
   * @default { mode: 'pool' } (`mode: 'thread'` when the environment sets CONTENT_ANALYSIS_POOL=0)
   */
  analysis?: AnalysisOptions;
  /**
   * Runs the analysis of the features it accepts elsewhere (a queue of worker processes); metering stays here.
   * @default undefined (every analysis runs in this process)
   */
  offload?: AnalysisOffload;
  /**
   * This deployment's AI-text calibration profile (`calibrateAiText`, `content-analysis calibrate ai-text`): human
   * scores then compare each text with the deployment's own human writing. Checked when the engine is built.
   * @default undefined (the detector's shipped calibration)
   */
  aiTextCalibration?: CalibrationProfile;
  /**
   * Models the deployment plugged in (`CustomModels.load({NAME: DIR})`), which requests select with
   * `version: "custom:NAME"` (AI text and AI image detection); they run on this thread (onnxruntime's own threads).
   * @default none
   */
  customModels?: CustomModels;
  /**
   * Plugged models that answer the requests which name no `version`, in the bundled detector's place: the deployment's
   * own default (`"custom:NAME"`, one per task). A request that names a version still gets that version.
   * @default none: the bundled detectors
   */
  defaultModels?: readonly string[];
}

/** The features whose default a plugged model can take, by the task of the model. */
const DEFAULTABLE = { 'ai-text': 'ai-content-detection', 'ai-image': 'image-detection' } as const;

/** Where the CPU-heavy analyses run; see `analysisMode` for the default mode. */
export interface AnalysisOptions extends AnalysisPoolOptions {
  /**
   * `pool`: in worker threads, the event loop stays free; `thread`: on the calling thread (embedders, comparison).
   * @default 'pool', or 'thread' when CONTENT_ANALYSIS_POOL=0
   */
  mode?: 'pool' | 'thread';
  /**
   * The pool to use instead of the process-wide one of this size (`sharedAnalysisPool`); its owner closes it.
   * @default undefined
   */
  pool?: AnalysisPool;
}

/** The mode of `options`, else the environment's (`CONTENT_ANALYSIS_POOL=0` selects the calling thread). */
export function analysisMode(options: AnalysisOptions = {}, env: NodeJS.ProcessEnv = process.env): 'pool' | 'thread' {
  const mode = options.mode ?? (env.CONTENT_ANALYSIS_POOL === '0' ? 'thread' : 'pool');
  if (mode !== 'pool' && mode !== 'thread') throw new RangeError(`Expected 'pool' or 'thread' for analysis.mode but received ${String(mode)}`);
  return mode;
}

export interface ExecuteOptions {
  /** The caller's access token (from `Authorization: Bearer`, or a tool's `apiKey`). */
  token?: string | undefined;
  /** An account the caller has already authenticated as (see {@link Engine.authenticate}); skips the token. */
  accountId?: string | undefined;
  /** The request id of the call, passed on to an offload for its logs. */
  requestId?: string | undefined;
  signal?: AbortSignal;
  /**
   * Hands the outcome to the caller before the charge is final (`Ledger.chargeOnDelivery`): when it rejects (the
   * client's connection is gone), the request is not charged and `execute` rejects with its error. An HTTP server
   * writes the response here, so that no request is charged whose result was not handed over.
   * @default undefined (charged once the result exists; the caller delivers after)
   */
  deliver?: ((outcome: ExecuteOutcome) => Promise<void>) | undefined;
}

/** Options of {@link Engine.analyse}. */
export interface AnalyseOptions {
  signal?: AbortSignal;
  /**
   * The remote inputs another node read and priced for this request (`OffloadOptions.inputs`): the analysis uses
   * them and fetches no `website` or `file` itself.
   * @default undefined (inputs are read here)
   */
  inputs?: HandedInputs | undefined;
}

/** A metered result: the result object, and what it cost. Typed per feature for the built-in ids. */
export interface ExecuteOutcome<Result extends object = Record<string, unknown>> {
  result: Result;
  accountId: string;
  creditsUsed: number;
  creditsRemaining: number;
}

/** An unmetered result (`run`): the result object carries what it would cost, and no balance. Typed per feature for the built-in ids. */
export interface RunOutcome<Result extends object = Record<string, unknown>> {
  result: Result;
  creditsUsed: number;
}

/**
 * Validates requests, meters them and composes the documented results.
 *
 * The order of a metered request: authenticate, validate, plan (read the input once, price it), reserve the cost
 * (one atomic "debit if the balance allows", refused with PAYMENT_REQUIRED before any work), analyse, deliver,
 * settle. A request that fails during analysis, or whose result could not be handed over (`deliver`), has its
 * reservation released: nothing is charged for it.
 */
export class Engine {
  readonly features: FeatureRegistry;
  readonly ledger: Ledger | undefined;
  readonly #fetchDefaults: GuardedFetchOptions;
  readonly #offload: AnalysisOffload | undefined;
  /** Plagiarism sources and fact-check evidence, created on first use. */
  readonly services: () => EngineServices;
  /** Where the CPU-heavy analyses run; a pooled engine's pool is created on its first analysis. */
  readonly analysis: AnalysisRunner;
  /** The deployment's plugged models (`version: "custom:NAME"`), if it has any. */
  readonly customModels: CustomModels | undefined;
  /** The version a request without one gets, by feature id, where the deployment chose a plugged model. */
  readonly #defaultVersions = new Map<string, string>();

  constructor(options: EngineOptions = {}) {
    const analysis = options.analysis ?? {};
    let runner: AnalysisRunner;
    if (analysisMode(analysis) === 'thread') {
      runner = inThreadRunner;
    } else {
      const { mode: _mode, pool, ...sizing } = analysis;
      // Sizes are checked now; the pool's threads start on its first task.
      const chosen = pool ?? sharedAnalysisPool(sizing);
      runner = pooledRunner(() => chosen);
    }
    this.analysis = options.aiTextCalibration === undefined ? runner : withAiTextCalibration(runner, options.aiTextCalibration);
    this.services = lazyServices(options.services ?? {});
    this.features = new FeatureRegistry(options.features ?? builtinFeatures());
    this.ledger = options.ledger;
    this.#fetchDefaults = options.fetch ?? {};
    this.#offload = options.offload;
    this.customModels = options.customModels;
    for (const version of options.defaultModels ?? []) {
      const task = this.customModels?.versions('ai-text').includes(version) ? 'ai-text'
        : this.customModels?.versions('ai-image').includes(version) ? 'ai-image' : undefined;
      if (task === undefined) throw new RangeError(`Expected a plugged model (custom:NAME of customModels) for defaultModels but received ${version}`);
      if (this.#defaultVersions.has(DEFAULTABLE[task])) throw new RangeError(`defaultModels names two ${task} models`);
      this.#defaultVersions.set(DEFAULTABLE[task], version);
    }
  }

  /** The body with the deployment's default version when it names none (plain objects only; anything else as is). */
  #withDefaultVersion(featureId: string, body: unknown): unknown {
    const version = this.#defaultVersions.get(featureId);
    if (version === undefined || typeof body !== 'object' || body === null || Array.isArray(body) || Object.hasOwn(body, 'version')) return body;
    return { ...body, version };
  }

  feature(id: string): Feature<any, any> {
    const feature = this.features.get(id);
    if (!feature) throw new ApiError('BAD_REQUEST', `Unknown feature "${id}"`);
    return feature;
  }

  #context(signal: AbortSignal | undefined, inputs = new ReadInputs()): FeatureContext {
    const abort = signal ?? new AbortController().signal;
    return {
      inputs,
      signal: abort,
      fetchOptions: { ...this.#fetchDefaults, signal: abort },
      services: this.services,
      analysis: this.analysis,
      ...(this.customModels ? { customModels: this.customModels } : {}),
      fetchRemote: (url, options) =>
        fetchRemote(url, {
          ...this.#fetchDefaults,
          accept: [...options.accept],
          ...(options.maxBytes === undefined ? {} : { maxBytes: options.maxBytes }),
          signal: abort,
        }),
    };
  }

  #compose(feature: Feature<any, any>, out: object, used: number, remaining: number | undefined): Record<string, unknown> {
    const result: Record<string, unknown> = feature.statusField ? { status: 200, ...out } : { ...out };
    result[feature.credits.used] = used;
    if (remaining !== undefined) result[feature.credits.remaining] = remaining;
    return result;
  }

  /** Authenticates a token against the ledger. */
  async authenticate(token: string | undefined): Promise<string> {
    if (!this.ledger) throw new Error('This engine has no ledger: pass one to execute metered requests');
    if (typeof token !== 'string' || token.length === 0) throw new ApiError('UNAUTHORIZED');
    const found = await this.ledger.authenticate(token);
    if (!found) throw new ApiError('UNAUTHORIZED');
    return found.accountId;
  }

  /**
   * Loads ahead what the given features need on their first request (models, native modules, the analysis pool's
   * threads), by running each once on a small built-in input; a server calls it before it takes traffic. Without
   * it every feature loads on first use. Unknown ids are refused; features that are not built in are skipped.
   * @default every registered feature
   */
  async warmUp(features?: readonly string[]): Promise<void> {
    const ids = features ?? this.features.list().map((feature) => feature.id);
    for (const id of ids) this.feature(id);
    await warmUpFeatures(ids, (id, body) => this.analyse(id, body));
  }

  /** Runs a metered request for the account that owns `token`. Throws {@link ApiError}. */
  execute<Id extends FeatureId>(featureId: Id, body: FeatureRequest<Id>, options?: ExecuteOptions): Promise<ExecuteOutcome<FeatureResult<Id>>>;
  execute(featureId: string, body: unknown, options?: ExecuteOptions): Promise<ExecuteOutcome>;
  async execute(featureId: string, requestBody: unknown, options: ExecuteOptions = {}): Promise<ExecuteOutcome> {
    const feature = this.feature(featureId);
    const body = this.#withDefaultVersion(featureId, requestBody);
    const ledger = this.ledger;
    const accountId = options.accountId ?? (await this.authenticate(options.token));
    try {
      const request = validateRequest(feature.request, body);
      const context = this.#context(options.signal);
      const plan = await feature.plan(request, context);
      // The cost is reserved before any work: a balance that covers N requests runs N of them, however many arrive
      // at once, and the rest are refused before they start. The reservation stands only once the result has been
      // handed over; a failed analysis or delivery releases it (a charge and its refund in the history). Every
      // cost is priced when planning, on what was read (and what is analysed), so the settled charge is the
      // reservation itself.
      let result: Record<string, unknown> | undefined;
      const outcomeOf = (balance: number): ExecuteOutcome => ({
        result: this.#compose(feature, result!, plan.cost, balance),
        accountId,
        creditsUsed: plan.cost,
        creditsRemaining: balance,
      });
      const charged = await ledger!.chargeOnDelivery(accountId, plan.cost, feature.id, async (reserved) => {
        result = this.#offload?.accepts(feature.id)
          ? await this.#offload.analyse(feature.id, body, { requestId: options.requestId, signal: options.signal, inputs: context.inputs.toJSON() })
          : await plan.analyse();
        await options.deliver?.(outcomeOf(reserved.balance));
      });
      if (!charged.ok) {
        throw new ApiError('PAYMENT_REQUIRED', `Insufficient credits: this request costs ${plan.cost} credits and the balance is ${charged.balance}.`);
      }
      return outcomeOf(charged.balance);
    } catch (error) {
      throw toApiError(error);
    }
  }

  /**
   * The analysis of a request alone, without the fields of the credits: what a worker process computes for an
   * offloaded request (see {@link EngineOptions.offload}), on the inputs its API node read when they are given.
   * Throws {@link ApiError}.
   */
  async analyse(featureId: string, requestBody: unknown, options: AnalyseOptions = {}): Promise<Record<string, unknown>> {
    const feature = this.feature(featureId);
    const body = this.#withDefaultVersion(featureId, requestBody);
    try {
      const inputs = options.inputs === undefined ? undefined : new ReadInputs(options.inputs);
      const plan = await feature.plan(validateRequest(feature.request, body), this.#context(options.signal, inputs));
      return { ...(await plan.analyse()) };
    } catch (error) {
      throw toApiError(error);
    }
  }

  /**
   * Runs a request without an account (the CLI's feature commands, embedding). The result carries the credits
   * the request would cost and no balance.
   */
  run<Id extends FeatureId>(featureId: Id, body: FeatureRequest<Id>, options?: { signal?: AbortSignal }): Promise<RunOutcome<RunResult<Id>>>;
  run(featureId: string, body: unknown, options?: { signal?: AbortSignal }): Promise<RunOutcome>;
  async run(featureId: string, requestBody: unknown, options: { signal?: AbortSignal } = {}): Promise<RunOutcome> {
    const feature = this.feature(featureId);
    const body = this.#withDefaultVersion(featureId, requestBody);
    try {
      const request = validateRequest(feature.request, body);
      const plan = await feature.plan(request, this.#context(options.signal));
      const out = await plan.analyse();
      return { result: this.#compose(feature, out, plan.cost, undefined), creditsUsed: plan.cost };
    } catch (error) {
      throw toApiError(error);
    }
  }
}
