import type { CustomModels } from '@content-analysis/classifiers';
import type * as z from 'zod';
import type { FetchedResource, GuardedFetchOptions } from '@content-analysis/fetch';
import type { ReadInputs } from './inputs/readInputs.js';
import type { AnalysisRunner } from './pool/analysisRunner.js';
import type { EngineServices } from './services.js';

/** Names of the two credit fields of a result; they differ per endpoint (spec, "Credit accounting fields"). */
export interface CreditFieldNames {
  readonly used: string;
  readonly remaining: string;
}

export const SNAKE_CASE_CREDITS: CreditFieldNames = Object.freeze({ used: 'credits_used', remaining: 'credits_remaining' });
export const CAMEL_CASE_CREDITS: CreditFieldNames = Object.freeze({ used: 'creditsUsed', remaining: 'creditsRemaining' });
export const ADVANCED_CREDITS: CreditFieldNames = Object.freeze({ used: 'cost', remaining: 'balance' });

/** What a feature may use while it plans and analyses. */
export interface FeatureContext {
  /** Aborted when the caller goes away or the request times out. */
  readonly signal: AbortSignal;
  /**
   * Fetches a caller-supplied URL through the guarded fetcher. Failures are ApiErrors already: BAD_REQUEST for
   * a malformed or non-public URL, FORBIDDEN for one the service cannot or may not reach.
   */
  fetchRemote(url: string, options: { accept: readonly string[]; maxBytes?: number }): Promise<FetchedResource>;
  /** The engine's fetch defaults with this request's signal, for libraries that call the guarded fetcher. */
  readonly fetchOptions: GuardedFetchOptions;
  /** Plagiarism sources and fact-check evidence. */
  services(): EngineServices;
  /** Where the CPU-heavy analyses run (the engine's worker pool, or this thread). */
  readonly analysis: AnalysisRunner;
  /**
   * The remote inputs of this request (the text of a `website` or `file`), read once: kept where the request is
   * planned and priced, handed to the worker that analyses it.
   */
  readonly inputs: ReadInputs;
  /** The deployment's plugged models, selected by `version: "custom:NAME"`; none when it plugged none. */
  readonly customModels?: CustomModels;
}

/**
 * The outcome of planning a request: what it costs, and the analysis to run once the balance has been checked.
 * Planning may read remote inputs (the words of a fetched document decide the cost), analysis does the work.
 */
export interface AnalysisPlan<Out extends object> {
  readonly cost: number;
  analyse(): Promise<Out>;
}

/** How a feature is offered as a tool of the tool server. */
export interface ToolBinding<Out extends object = object> {
  /** Tool name, e.g. `text-compare`. */
  readonly name: string;
  readonly title: string;
  /** Ends with the cost, e.g. "Cost: 1 credit per word." */
  readonly description: string;
  /** Schema of the tool's arguments (an `apiKey` argument is added by the tool server). */
  readonly arguments: z.ZodObject;
  /** Builds the REST request body from validated tool arguments. */
  toRequest(args: Record<string, unknown>): Record<string, unknown>;
  /** One-line human summary of a result, shown before its JSON. */
  summarize(result: Out & Record<string, unknown>): string;
}

/** Where the CLI finds a feature's request fields. */
export interface CliBinding {
  /** Command name, e.g. `text-compare`. */
  readonly command: string;
  /** One line for `--help`. */
  readonly summary: string;
  /**
   * Positional inputs, in order, and the request field each fills. Each is read as a file path, a URL, `-` for
   * standard input, or taken literally with `--<field>=<text>`. A `text` input is the text of a file, document or
   * web page; an `image` input is sent as base64 in its field when it is a file or `-`, and as `url` when it is an
   * http(s) URL.
   */
  readonly inputs: ReadonlyArray<{ readonly field: string; readonly description: string; readonly kind: 'text' | 'url' | 'image' }>;
  /** Further request fields taken as `--<field> <value>` strings, e.g. `--version 4`. @default none */
  readonly options?: ReadonlyArray<{ readonly field: string; readonly description: string }>;
}

/**
 * A feature is registered once and is then served on its REST paths, as a tool of the tool server and as a CLI
 * command.
 */
export interface Feature<Req = unknown, Out extends object = object> {
  /** Stable id, e.g. `text-compare`. */
  readonly id: string;
  readonly title: string;
  readonly description: string;
  /** POST paths that serve it, e.g. `/v2/text-compare`. */
  readonly routes: readonly string[];
  /** `advanced` renders errors with the advanced image detection strings. */
  readonly errorStyle: 'v2' | 'advanced';
  readonly request: z.ZodType<Req, any>;
  /** The full result, credit fields included (JSON Schema and OpenAPI are made from it). */
  readonly result: z.ZodType;
  readonly credits: CreditFieldNames;
  /**
   * Largest request body the HTTP server reads for this feature.
   * @default 2 MiB (text features; an image feature raises it for its base64 payload)
   */
  readonly maxBodyBytes?: number;
  /** Whether results carry `status: 200` first. */
  readonly statusField: boolean;
  plan(request: Req, context: FeatureContext): Promise<AnalysisPlan<Out>>;
  /**
   * An HTML page of a result (credit fields included), which the HTTP server answers instead of the JSON when this
   * returns one (the advanced image detection's `report: "html"`); undefined for a JSON answer.
   * @default none: always JSON
   */
  readonly htmlAnswer?: (result: Record<string, unknown>) => string | undefined;
  readonly tool?: ToolBinding<Out>;
  readonly cli?: CliBinding;
}

/** Identity helper that keeps a feature's request and result types tied together. */
export function defineFeature<Req, Out extends object>(feature: Feature<Req, Out>): Feature<Req, Out> {
  return Object.freeze(feature);
}
