// Types of the fuzzer's parts (plain ESM, so that scripts run them without a build), as the test suite uses them.
import type { Arbitrary } from 'fast-check';
import type fastCheck from 'fast-check';

type FastCheck = typeof fastCheck;

export interface ResultSchema {
  safeParse(value: unknown): { success: boolean; error?: { issues: ReadonlyArray<{ path: PropertyKey[]; message: string }> } };
}
export interface CheckedEndpoint {
  errorStyle: 'v2' | 'advanced';
  result: ResultSchema;
}
export const V2_ERROR_OF_STATUS: Readonly<Record<number, string>>;
export const ADVANCED_ERROR_OF_STATUS: Readonly<Record<number, string>>;
export const TOOL_PROTOCOL_ERRORS: readonly number[];
export const UNEXPECTED_STATUSES: readonly number[];
export function errorBodyProblems(style: 'v2' | 'advanced', status: number, body: unknown): string[];
export function checkAnswer(endpoint: CheckedEndpoint, status: number, body: unknown): string[];
export function checkToolAnswer(
  resultSchemaOfTool: (name: string) => ResultSchema | undefined,
  request: { method?: string; tool?: string },
  status: number,
  body: unknown,
): { problems: string[]; error?: boolean; result?: Record<string, unknown> };

export interface Seed {
  name: string;
  bytes: Buffer;
  contentType?: string;
}
export interface Seeds {
  texts: string[];
  images: Seed[];
  documents: Seed[];
}
export function loadSeeds(options?: { hostile?: boolean }): Seeds;
export function applyMutations(seed: Uint8Array, mutations: ReadonlyArray<Record<string, unknown>>, pool: readonly Uint8Array[]): Buffer;
export function mutationArbitrary(fcModule: FastCheck): Arbitrary<Record<string, unknown>>;
export function mutatedBytesArbitrary(fcModule: FastCheck, pool: readonly Seed[]): Arbitrary<{ bytes: Buffer; from: string }>;

export interface FuzzCase {
  path: string;
  body: { json: unknown } | { raw: string };
  served?: unknown;
  tool?: string;
  apiKey?: 'valid' | 'invalid' | 'number';
  auth?: 'valid' | 'none' | 'invalid' | 'malformed' | 'poor';
  contentType?: string;
}
export const SERVED_URLS: readonly string[];
export function endpointArbitraries(
  fcModule: FastCheck,
  seeds: Seeds,
  languages: { plagiarism: readonly string[]; factCheck: readonly string[] },
): Record<string, Arbitrary<FuzzCase>>;
export function withCaller(fcModule: FastCheck, arbitrary: Arbitrary<FuzzCase>): Arbitrary<FuzzCase>;

export interface FuzzTarget {
  url: string;
  engine: any;
  ledger: any;
  logged: Array<{ message: string; error: unknown }>;
  accounts: { rich: string; poor: string };
  tokens: { valid: string; poor: string };
  serve(resource: unknown): void;
  refill(): Promise<void>;
  stop(): Promise<void>;
}
export function startTarget(modules: { Engine: unknown; MemoryLedger: unknown; createApiServer: unknown; listen: unknown }, options?: { services?: unknown }): Promise<FuzzTarget>;
export function runCase(target: FuzzTarget, c: FuzzCase): Promise<{ status: number | string | undefined; problems: string[] }>;
export function fuzzEndpoint(
  fcModule: FastCheck,
  target: FuzzTarget,
  arbitrary: Arbitrary<FuzzCase>,
  options: { numRuns: number; seed: number; onProblem?: (entry: { case: string; problems: string[] }) => void },
): Promise<{ tried: number; statuses: Record<string, number>; crashes: number; undocumented: number; problems: Array<{ case: string; problems: string[] }> }>;
export function describeCase(c: unknown): string;
export function collectGarbage(): void;
export function memoryAfterGc(): { heapUsed: number; rss: number };

export function manyParagraphDocx(paragraphs: number): Buffer;
export function inflatingPdf(inflatedBytes: number, options?: { filler?: string; subtype?: string }): Buffer;
export function pixelHeavyPng(width: number, height: number): Buffer;
export function vowellessToken(length: number, prefix?: string): string;
export function joinedWords(text: string, joiner: string): string;
