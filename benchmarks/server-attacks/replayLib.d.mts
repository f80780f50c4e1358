// Types of the attack replay's parts (plain ESM, run by scripts without a build), as the test suite uses them.
import type { ChildProcess } from 'node:child_process';

export const ROOT: string;
export const BIN: string;
export const SITE: string;
/** Peak resident memory per process that the README promises during any attack, in MiB. */
export const RSS_BOUND_MIB: number;

export interface Site {
  port: number;
  fetches: Map<string, number>;
  prepare(names?: string[]): void;
  bytes(path: string): Buffer;
  close(): Promise<void>;
}
export function startSite(): Promise<Site>;

export interface ReplayProcess {
  child: ChildProcess;
  pid: number;
  url: string | undefined;
  name: string;
  log: string[];
  exited: Promise<number | string | null>;
}
export interface Ledger {
  balance(accountId: string): Promise<number>;
  close(): Promise<void>;
}
export interface Topology {
  name: string;
  nodes: ReplayProcess[];
  workers: ReplayProcess[];
  processes: ReplayProcess[];
  ledger: Ledger;
  account(credits: number): Promise<{ id: string; token: string }>;
  close(): Promise<void>;
}
export function startServeTopology(options: { dir: string; sitePort: number; warm?: boolean }): Promise<Topology>;
export function startScaleOut(options: { sitePort: number; postgres: string; redis: string; warm?: boolean }): Promise<Topology>;
export function cli(args: string[], env?: NodeJS.ProcessEnv): Promise<Record<string, unknown>>;
export function rssMiB(pid: number): number;
export function killStarted(): void;
export function proseWords(n: number): string;

export interface Attack {
  name: string;
  item: number;
  route: string;
  at?: number;
  repeat?: number;
  credits?: number;
  allowed: number[];
  exactly?: Record<number, number>;
  /** The attack's page is fetched once per request (its path, `/changing-<n>`, is the body's second argument). */
  fetchedOnce?: boolean;
  stall?: string;
  mcp?: boolean;
  /** No requests: only the measures, for this many milliseconds (the baseline row). */
  quiet?: number;
  body(token: string, page: string): string;
  cost(status: number | 'lost', context: { words(text: string): number }): number;
}
export function attacks(site: Site): Attack[];

export interface ReplayRow {
  topology: string;
  attack: string;
  item: number;
  requests: number;
  statuses: Record<string, number>;
  up: boolean;
  rss_before_mib: Record<string, number>;
  rss_peak_mib: Record<string, number>;
  charged: number;
  expected: number;
  fetched?: number;
  health_n: number;
  health_statuses: Record<string, number>;
  health_p50_ms: number;
  health_p99_ms: number;
  health_max_ms: number;
  seconds: number;
  problems: string[];
}
export const OPENING_CREDITS: number;
export function replayAttack(
  t: Topology, attack: Attack, site: Site,
  options: { words(text: string): number; account?: { id: string; token: string } },
): Promise<ReplayRow>;
export function quantile(values: number[], q: number): number;
